// The causality rules of multi-rank failures, on the built-in library: an unknown error can
// initiate (only inside a cascade), a silent rank can initiate, fatal beats noisy, a cancelled run
// is no failure, and the launcher's own report of the failed worker names a rank.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/attribution.h"
#include "denpex/logs/diagnoser.h"
#include "diagnose.h"
#include "snapshot.h"
#include "denpex/logs/normalize.h"

using namespace denpex;

namespace {
logs::Report diagnose(const std::vector<std::pair<std::string, std::string>>& files) { return testing::diagnose_inputs(files); }

const char* kClosed =
    "Traceback (most recent call last):\n"
    "  File \"/w/train.py\", line 58, in <module>\n"
    "    dist.all_reduce(x)\n"
    "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541, in all_reduce\n"
    "    work.wait()\n"
    "RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:10672\n";
// The saved per-rank files of a real 4-rank scenario (tests/fixtures/logs/multirank/NAME/ranks).
std::vector<std::pair<std::string, std::string>> scenario_ranks(const std::string& scenario) {
  std::vector<std::pair<std::string, std::string>> files;
  for (int r = 0; r < 4; ++r) {
    const std::string name = "rank" + std::to_string(r) + ".log";
    files.emplace_back(name, testing::read_file(testing::source_path("tests/fixtures/logs/multirank/" + scenario + "/ranks/" + name)));
  }
  return files;
}

const char* kKeyError =
    "Traceback (most recent call last):\n"
    "  File \"/w/train.py\", line 37, in <module>\n"
    "    labels = batch[\"labels\"]\n"
    "KeyError: 'labels'\n";

// A stream in which rank 1 alone was interrupted and its three peers lost it.
void check_cancelled_by_rank1(const std::string& stream) {
  auto r = diagnose({{"job.log", stream}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->id == "run-cancelled");
  CHECK(r.diagnoses[0].initiating_rank == 1);
}
}  // namespace

TEST_CASE("srun --label prefixes attribute lines to the task") {
  auto a = logs::rank_prefix("3: RuntimeError: boom");
  REQUIRE(a);
  CHECK(a->rank == 3);
  CHECK(a->length == 3);
  auto b = logs::rank_prefix(" 7:   File \"x.py\", line 1, in f");
  REQUIRE(b);
  CHECK(b->rank == 7);
  CHECK_FALSE(logs::rank_prefix("14:57:17 step 3"));
  CHECK_FALSE(logs::rank_prefix("3:"));
  // GNU parallel's --tag over rank arguments: the argument and a TAB; not `cat -n`'s padded numbers.
  auto tag = logs::rank_prefix("2\tstep   6 | |w| 0.0342");
  REQUIRE(tag);
  CHECK(tag->rank == 2);
  CHECK(tag->length == 2);
  CHECK_FALSE(logs::rank_prefix("     2\tstep 6"));
  CHECK_FALSE(logs::rank_prefix("1024\t0.51\t0.49"));
  CHECK_FALSE(logs::rank_prefix("2\t"));
  // Horovod's stall rows (`N: [tensor, ...]`) name a missing rank, not a task label; srun lines
  // that begin with a bracket go on after it.
  CHECK_FALSE(logs::rank_prefix("1: [allreduce.fc1.weight, allreduce.fc1.bias ...]"));
  CHECK_FALSE(logs::rank_prefix("0: [broadcast.assign_conv_first_modules.0.bias]"));
  auto bracketed = logs::rank_prefix("0: [rank0]: Traceback (most recent call last):");
  REQUIRE(bracketed);
  CHECK(bracketed->rank == 0);
  CHECK(logs::rank_prefix("2: [W ProcessGroupGloo.cpp:2804] Warning"));
}

TEST_CASE("Horovod's newer stall report names the missing rank on its own row") {
  // Rank 0's stall report (stall_inspector.cc, horovod 0.21) from horovod#2564, its row cut after two
  // tensors the way horovod cuts long rows (` ...]`, horovod#3950): rank 1 never submitted them.
  auto r = diagnose({{"horovod.log",
      "[2020-12-30 16:35:15.181832: W /tmp/pip-req-build-12flcl_u/horovod/common/stall_inspector.cc:105] One or "
      "more tensors were submitted to be reduced, gathered or broadcasted by subset of ranks and are waiting for "
      "remainder of ranks for more than 60 seconds. This may indicate that different ranks are trying to submit "
      "different tensors or that only subset of ranks is submitting tensors, which will cause deadlock.\n"
      "Missing ranks:\n"
      "1: [DistributedGradientTape_Allreduce/cond_163/then/_1304/DistributedGradientTape_Allreduce/cond_163/"
      "HorovodAllreduce_AddN_103_0, DistributedGradientTape_Allreduce/cond_164/then/_1312/"
      "DistributedGradientTape_Allreduce/cond_164/HorovodAllreduce_gradient_tape_retinanet_post_hoc_d5_BiasAdd_BiasAddGrad_0 ...]\n"}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->id == "horovod-stall-missing-ranks");
  CHECK(r.diagnoses[0].initiating_rank == 1);
}

TEST_CASE("torchrun's [defaultN]: prefix is the local rank; a [rankM]: behind it is the global one") {
  auto both = logs::rank_prefix("[default1]:[rank9]: KeyError: 'x'");
  REQUIRE(both);
  CHECK(both->rank == 9);
  CHECK(both->local_rank == 1);
  CHECK(std::string_view("[default1]:[rank9]: KeyError: 'x'").substr(both->length) == "KeyError: 'x'");
  auto local = logs::rank_prefix("[default3]:Traceback (most recent call last):");
  REQUIRE(local);
  CHECK(local->rank == 3);  // on one node, the same number
  CHECK(local->local_rank == 3);
  auto plain = logs::rank_prefix("[rank4]: x");
  REQUIRE(plain);
  CHECK(plain->local_rank == -1);
  CHECK(logs::attribute_line("[default2]:[rank10]:[E612 11:17:02.352871310 ProcessGroupNCCL.cpp:616] x").local_rank == 2);

  SUBCASE("moreutils ts' stamp comes off; a syslog line's stamp stays") {
    auto stamped = logs::attribute_line("Dec 06 12:36:09 [default2]:IndexError: index out of range in self");
    CHECK(stamped.local_rank == 2);
    CHECK(stamped.strip == std::string_view("Dec 06 12:36:09 [default2]:").size());
    auto kernel = logs::attribute_line("Dec 16 04:05:06 gpu-7 kernel: NVRM: Xid (PCI:0000:3b:00): 79");
    CHECK(kernel.node == "gpu-7");
    CHECK(kernel.strip == 0);
    CHECK(logs::attribute_line("Dec 16 04:05:06 gpu-7 python3[4242]: x").strip == 0);  // journal line
    CHECK(logs::attribute_line("Dec  6 12:36:09 x").strip == 0);  // syslog's space-padded day is not ts'
  }
  SUBCASE("torchrun --role trainer: the role's name is in the prefix") {
    auto role = logs::rank_prefix("[trainer2]:ValueError: Caught ValueError in DataLoader worker process 0.");
    REQUIRE(role);
    CHECK(role->rank == 2);
    CHECK(role->local_rank == 2);
    CHECK(role->length == 11);
  }
  SUBCASE("a wrapper's own rank tag at the head of each line") {
    for (const char* line : {"[rank: 2] KeyError: 'x'", "[worker-2] KeyError: 'x'", "(rank=2) KeyError: 'x'", "[r2] KeyError: 'x'",
                             "[rank 2/4] KeyError: 'x'", "rank2 | KeyError: 'x'", "Rank 2: KeyError: 'x'", "[Process 2] KeyError: 'x'",
                             "proc 2: KeyError: 'x'", "[RANK:2] KeyError: 'x'"}) {
      CAPTURE(line);
      auto tag = logs::rank_prefix(line);
      REQUIRE(tag);
      CHECK(tag->rank == 2);
      CHECK(std::string_view(line).substr(tag->length) == "KeyError: 'x'");
    }
    CHECK_FALSE(logs::rank_prefix("[Rank 2] Watchdog caught collective operation timeout"));  // torch's own words
    CHECK_FALSE(logs::rank_prefix("[rank 5/4] x"));  // no rank of a world of 4
    CHECK_FALSE(logs::rank_prefix("rank 2 finished"));
    CHECK_FALSE(logs::rank_prefix("[epoch 2] loss 0.1"));
  }
  SUBCASE("behind a host's prefix the local rank is not yet global") {
    CHECK(local->local_only);
    CHECK_FALSE(both->local_only);
    // GNU parallel's `--tagstring '{} {#}'` (bench/causality/heldout47, 4702): host, job number, TAB.
    auto tagged = logs::attribute_line("gpu-b02 1\t[default1]:Traceback (most recent call last):");
    CHECK(tagged.node == "gpu-b02");
    CHECK(tagged.local_rank == 1);
    CHECK(tagged.rank_local_to_node());
    CHECK(tagged.body("gpu-b02 1\t[default1]:Traceback (most recent call last):") == "Traceback (most recent call last):");
    CHECK_FALSE(logs::attribute_line("[default1]:Traceback (most recent call last):").rank_local_to_node());
    CHECK_FALSE(logs::attribute_line("gpu-b02: [default1]:[rank3]: x").rank_local_to_node());
    CHECK(logs::attribute_line("gpu-b02: [default1]:[rank3]: x").rank == 3);
    CHECK(logs::attribute_line("gpu-b02 words: here\tx").node.empty());  // a `: ` in the tag: prose
  }
  SUBCASE("a script's own bracketed progress is no role") {
    CHECK_FALSE(logs::rank_prefix("[epoch3]: loss 0.41"));
    CHECK_FALSE(logs::rank_prefix("[step120]: lr 3e-4"));
    CHECK_FALSE(logs::rank_prefix("[W1203 12:56:00.399552 tensorpipe_agent.cpp:726] x"));
  }
}

TEST_CASE("Ray's per-line process prefix: the pid, then whatever prefix torch put behind it") {
  auto worker = logs::attribute_line("(RayTrainWorker pid=7410, ip=10.0.59.242) KeyError: 'labels'");
  CHECK(worker.pid == 7410);
  CHECK(worker.node == "RayTrainWorker pid=7410, ip=10.0.59.242");
  CHECK(std::string_view("(RayTrainWorker pid=7410, ip=10.0.59.242) KeyError: 'labels'").substr(worker.strip) == "KeyError: 'labels'");
  auto behind = logs::attribute_line("(RayWorkerWrapper pid=92234, ip=172.19.24.110) [rank1]:[E1224 13:23:05.483840160 ProcessGroupNCCL.cpp:542] x");
  CHECK(behind.rank == 1);
  CHECK(logs::attribute_line("(pid=34272) NCCL DEBUG SET").pid == 34272);
  CHECK(logs::attribute_line("ray/0 (CommandActor pid=494377) INFO:torch.distributed.elastic.multiprocessing:x").pid == 494377);
  CHECK(logs::attribute_line("(raylet) A worker died or was killed while executing a task").pid == -1);
  // Ray's deduplication marker (and its note, the first time) ends the line; it is not the worker's.
  for (const std::string line :
       {"(RayTrainWorker pid=75123, ip=10.0.59.242) AssertionError: 19114 is not divisible by 8 [repeated 2x across cluster]",
        "(RayTrainWorker pid=75123, ip=10.0.59.242) AssertionError: 19114 is not divisible by 8 [repeated 3x across cluster] "
        "(Ray deduplicates logs by default. Set RAY_DEDUP_LOGS=0 to disable log deduplication, or see "
        "https://docs.ray.io/en/master/ray-observability/user-guides/configure-logging.html#log-deduplication for more options.)"}) {
    const auto a = logs::attribute_line(line);
    CHECK(a.body(line) == "AssertionError: 19114 is not divisible by 8");
  }
  const std::string plain = "(RayTrainWorker pid=75123, ip=10.0.59.242) the [repeated 2x] tag is text";
  CHECK(logs::attribute_line(plain).body(plain) == "the [repeated 2x] tag is text");
  CHECK(logs::attribute_line("(see below) pid=5 exited").pid == -1);
  int pid = 0;
  CHECK(logs::ray_rank("- (ip=10.0.12.174, pid=3382) rank=3, local_rank=1, node_rank=1", &pid) == 3);
  CHECK(pid == 3382);
  CHECK(logs::ray_rank("- (ip=127.0.0.1, pid=55617) world_rank=1, local_rank=1, node_rank=0", &pid) == 1);
  CHECK(logs::ray_rank("Setting up process group for: env:// [rank=2, world_size=4]", &pid) == 2);
  CHECK(pid == -1);
  CHECK(logs::ray_rank("local_rank=1, node_rank=0", &pid) == -1);
}

TEST_CASE("an unknown exception initiates only inside a cascade") {
  auto alone = diagnose({{"rank2.log", kKeyError}});
  CHECK(alone.diagnoses.empty());
  auto cascade = diagnose({{"rank0.log", kClosed}, {"rank1.log", kClosed}, {"rank2.log", kKeyError}});
  REQUIRE_FALSE(cascade.diagnoses.empty());
  const auto& d = cascade.diagnoses[0];
  CHECK(d.entry->id == "unrecognized-exception");
  CHECK(d.initiating_rank == 2);
  REQUIRE_FALSE(d.findings.empty());
  CHECK(d.findings[0].find("rank 2 raised `KeyError: 'labels'` at train.py:37") != std::string::npos);
  CHECK(d.findings[0].find("ranks 0, 1 failed as collateral") != std::string::npos);
}

TEST_CASE("an exception class named outside the Error convention initiates like any unknown exception") {
  const char* drift =
      "step 40 loss 2.31\n"
      "Traceback (most recent call last):\n"
      "  File \"/w/train.py\", line 88, in <module>\n"
      "    batch = validate(next(it))\n"
      "  File \"/w/checks.py\", line 12, in validate\n"
      "    raise FeatureSchemaDrift(f\"column {i} is {dtype}, expected float32\")\n"
      "checks.FeatureSchemaDrift: column 7 is float64, expected float32\n";
  auto cascade = diagnose({{"rank0.log", kClosed}, {"rank1.log", drift}, {"rank2.log", kClosed}});
  REQUIRE_FALSE(cascade.diagnoses.empty());
  const auto& d = cascade.diagnoses[0];
  CHECK(d.entry->id == "unrecognized-exception");
  CHECK(d.initiating_rank == 1);
  REQUIRE_FALSE(d.findings.empty());
  CHECK(d.findings[0].find("rank 1 raised `checks.FeatureSchemaDrift: column 7 is float64, expected float32` at checks.py:12") !=
        std::string::npos);
  // The same words outside a traceback are a log line, not an exception.
  auto prose = diagnose({{"rank0.log", kClosed}, {"rank1.log", "step 40 loss 2.31\nTrainingConfig: lr=0.1 warmup=500\n"},
                         {"rank2.log", kClosed}});
  REQUIRE_FALSE(prose.diagnoses.empty());
  CHECK(prose.diagnoses[0].entry->id != "unrecognized-exception");
}

TEST_CASE("an unknown exception after the rank's own collateral symptom does not initiate") {
  std::string late = std::string(kClosed) + "During handling of the above exception, another exception occurred:\n" + kKeyError;
  auto r = diagnose({{"rank0.log", kClosed}, {"rank1.log", late}, {"rank2.log", "step 2 rank 2\n"}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->id != "unrecognized-exception");
  CHECK(r.diagnoses[0].initiating_rank == 2);  // the silent one
}

TEST_CASE("a silent rank among peers that lost it is the initiator") {
  auto r = diagnose({{"rank0.log", kClosed}, {"rank1.log", "step 1 rank 1\nstep 2 rank 1\n"}, {"rank2.log", kClosed}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].initiating_rank == 1);
  bool said = false;
  for (const auto& f : r.diagnoses[0].findings) said = said || f.find("died without a word") != std::string::npos;
  CHECK(said);
  // Two quiet ranks: no guess.
  auto two = diagnose({{"rank0.log", kClosed}, {"rank1.log", "step 2 rank 1\n"}, {"rank2.log", "step 2 rank 2\n"}});
  REQUIRE_FALSE(two.diagnoses.empty());
  CHECK(two.diagnoses[0].initiating_rank == -1);
}

TEST_CASE("a warning never outranks the failure that ended the job") {
  std::string warn =
      "/usr/lib/python3/dist-packages/torch/utils/checkpoint.py:31: UserWarning: None of the inputs have requires_grad=True. Gradients will be None\n"
      "step 2 rank 1\n";
  auto r = diagnose({{"rank0.log", kClosed}, {"rank1.log", warn}, {"rank2.log", kClosed}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->severity != core::Severity::Warning);
  CHECK(r.diagnoses[0].initiating_rank == 1);
}

TEST_CASE("a run cancelled with Ctrl-C on every rank is no failure") {
  std::string intr = "Traceback (most recent call last):\n  File \"/w/train.py\", line 57, in <module>\n    time.sleep(60)\nKeyboardInterrupt\n";
  auto r = diagnose({{"rank0.log", intr}, {"rank1.log", intr}});
  CHECK(r.diagnoses.empty());
  // No failure, but what stopped it is said: one note per entry, the first rank's line.
  REQUIRE(r.notes.size() == 1);
  CHECK(r.notes[0].entry->id == "run-cancelled");
  CHECK(r.notes[0].where.file == "rank0.log");
  CHECK(r.notes[0].where.line == 4);
  CHECK(r.notes[0].rank == 0);
  CHECK(r.notes[0].text == "KeyboardInterrupt");
}

TEST_CASE("a healthy job that scancel stopped: notes, cancellation first, and no diagnosis") {
  // The end of a real sbatch output (linskybing/LLM logs/train_QR_nv.out): DeepSpeed's timer lines
  // at step 78 of 100, then slurmstepd's line for a plain scancel (no DUE TO ...).
  const std::string log =
      "[2025-08-16 16:27:57,633] [INFO] [timer.py:264:stop] epoch=0/micro_step=78/global_step=78, "
      "RunningAvgSamplesPerSec=1.9688033855338458, CurrSamplesPerSec=2.040851514692944, MemAllocated=13.69GB\n"
      "[Step 78/100] Loss: 4.6036 | Global Tokens/s: 713.62 | GPU Mem (GB): 13.50 | Peak Mem: 28.83\n"
      "slurmstepd: error: *** JOB 760737 ON gn1204 CANCELLED AT 2025-08-16T16:27:59 ***\n";
  auto r = diagnose({{"slurm-760737.out", log}});
  CHECK(r.diagnoses.empty());
  REQUIRE_FALSE(r.notes.empty());
  CHECK(r.notes[0].entry->id == "run-cancelled");
  CHECK(r.notes[0].where.line == 3);
  SUBCASE("a real failure leaves no notes") {
    auto f = diagnose({{"slurm-760737.out", log + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"}});
    CHECK_FALSE(f.diagnoses.empty());
    CHECK(f.notes.empty());
  }
}

TEST_CASE("a Slurm requeue the job ran again after is history: the later scancel ended it") {
  // Real Slurm 22.05 output (sbatch --requeue --open-mode=append, 2 tasks): `scontrol requeue`,
  // the second attempt resumes at step 121, then a scancel of the healthy job.
  const std::string log =
      testing::read_file(testing::source_path("tests/fixtures/logs/pastes/slurm-requeue-append-scancel.out"));
  auto r = diagnose({{"slurm-11.out", log}});
  CHECK(r.diagnoses.empty());
  REQUIRE(r.notes.size() == 2);
  CHECK(r.notes[0].entry->id == "run-cancelled");
  CHECK(r.notes[0].where.line == 41);
  CHECK(r.notes[1].entry->id == "slurm-preemption");
  CHECK(r.notes[1].where.line == 18);
  SUBCASE("the requeue alone (the job did not run again) stays the diagnosis") {
    auto first = diagnose({{"slurm-11.out", log.substr(0, log.find("=== 2026-12-07T11:25:50"))}});
    REQUIRE_FALSE(first.diagnoses.empty());
    CHECK(first.diagnoses[0].entry->id == "slurm-preemption");
  }
  SUBCASE("an error of the second attempt is the diagnosis") {
    std::string failed = log.substr(0, log.find("srun: got SIGCONT\nsrun: Job step aborted", log.find("restart 1")));
    failed += "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
              "79.15 GiB of which 1.23 GiB is free.\n";
    auto f = diagnose({{"slurm-11.out", failed}});
    REQUIRE_FALSE(f.diagnoses.empty());
    CHECK(f.diagnoses[0].entry->id != "slurm-preemption");
  }
}

TEST_CASE("a traceback another process's log lines landed in stays its logged rank's") {
  // A real interleaving (realtorch sigint_one in CI): rank 1's peers logged between its
  // traceback's header and its frames, on the one unprefixed stream.
  std::string stream =
      "2026-12-02 13:19:55,713 INFO step 2 rank 1\n"
      "2026-12-02 13:19:55,714 WARNING rank 1: interrupted by user (KeyboardInterrupt), exiting\n"
      "Traceback (most recent call last):\n"
      "2026-12-02 13:19:55,714 INFO step 2 rank 0\n"
      "2026-12-02 13:19:55,714 INFO step 2 rank 2\n"
      "2026-12-02 13:19:55,715 INFO step 2 rank 3\n"
      "  File \"/w/mr_rank.py\", line 71, in <module>\n"
      "    os.kill(os.getpid(), signal.SIGINT)\n"
      "KeyboardInterrupt\n";
  for (int i = 0; i < 3; ++i) stream += kClosed;
  check_cancelled_by_rank1(stream);
}

TEST_CASE("an error record stays its rank's when peers' records land before its traceback") {
  // Another real interleaving (realtorch sigint_one in CI, 2026-12-03): the WARNING and the
  // re-raised KeyboardInterrupt are two writes, and two peers' step lines came between them.
  std::string stream =
      "2026-12-03 21:50:07,019 INFO step 2 rank 1\n"
      "2026-12-03 21:50:07,020 WARNING rank 1: interrupted by user (KeyboardInterrupt), exiting\n"
      "2026-12-03 21:50:07,019 INFO step 2 rank 2\n"
      "2026-12-03 21:50:07,020 INFO step 2 rank 0\n"
      "Traceback (most recent call last):\n"
      "  File \"/w/mr_rank.py\", line 78, in <module>\n"
      "    os.kill(os.getpid(), signal.SIGINT)\n"
      "KeyboardInterrupt\n";
  for (int i = 0; i < 3; ++i) stream += kClosed;
  check_cancelled_by_rank1(stream);

  SUBCASE("a line that is no log record between them breaks the link") {
    std::string cut = stream;
    cut.insert(cut.find("2026-12-03 21:50:07,019 INFO step 2 rank 2"), "some tool's progress output\n");
    auto c = diagnose({{"job.log", cut}});
    CHECK((c.diagnoses.empty() || c.diagnoses[0].initiating_rank != 1));
  }
}

TEST_CASE("JSON-lines records name their rank: the one that logged no lost peer is the silent initiator") {
  // A job's own json.dumps logger; rank 3 logs a CRITICAL and aborts (SIGABRT, nothing printed).
  std::string stream;
  for (int step = 0; step < 3; ++step)
    for (int r = 0; r < 4; ++r)
      stream += R"({"time": "05:38:52.)" + std::to_string(100 + step) + R"(", "rank": )" + std::to_string(r) +
                R"(, "level": "INFO", "msg": "step", "step": )" + std::to_string(step) + "}\n";
  stream += R"({"time": "05:38:52.912", "rank": 3, "level": "CRITICAL", "msg": "index buffer corrupted, aborting"})" "\n";
  for (int r : {2, 0, 1})
    stream += R"({"time": "05:38:52.957", "rank": )" + std::to_string(r) +
              R"j(, "level": "ERROR", "msg": "training failed", "error": "RuntimeError('[./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:13233')"})j" "\n";
  auto r = diagnose({{"train.jsonl", stream}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].initiating_rank == 3);
}

TEST_CASE("every rank raises DDP's model mismatch: the rank the messages show apart initiates") {
  // No launcher prefix: the first traceback is rank 0's, yet rank 3 built the other model.
  auto mismatch = [](int rank, int params, int other, int other_params) {
    return "Traceback (most recent call last):\n"
           "  File \"/w/train.py\", line 11, in <module>\n"
           "    model = nn.parallel.DistributedDataParallel(model)\n"
           "RuntimeError: DDP expects same model across all ranks, but Rank " +
           std::to_string(rank) + " has " + std::to_string(params) + " params, while rank " + std::to_string(other) +
           " has inconsistent " + std::to_string(other_params) + " params.\n";
  };
  auto r = diagnose({{"job.log", mismatch(0, 4, 3, 6) + mismatch(3, 6, 0, 4) + mismatch(2, 4, 3, 6) + mismatch(1, 4, 3, 6)}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->id == "ddp-param-count-mismatch");
  CHECK(r.diagnoses[0].initiating_rank == 3);
  // The `Rank 0` in one traceback's exception line does not make the next traceback rank 0's.
  // (Wrongly taken, rank 0 would show as collateral of itself.)
  CHECK(r.diagnoses[0].collateral.empty());
  // Prefixed the same: rank 0 printed first, rank 3 is still the one.
  auto p = diagnose({{"rank0.log", mismatch(0, 4, 3, 6)}, {"rank1.log", mismatch(1, 4, 3, 6)},
                     {"rank2.log", mismatch(2, 4, 3, 6)}, {"rank3.log", mismatch(3, 6, 0, 4)}});
  REQUIRE_FALSE(p.diagnoses.empty());
  CHECK(p.diagnoses[0].initiating_rank == 3);
}

TEST_CASE("a kill report that names only a pid names the rank the log tied that pid to") {
  // Workers started by a shell loop (`cmd &`); bash reports the one the OOM killer took by pid.
  std::string stream =
      "worker rank=1 pid=14701 starting\n"
      "worker rank=2 pid=14702 starting\n"
      "worker rank=0 pid=14700 starting\n"
      "step 0 loss 2.31\n"
      "run.sh: line 57: 14702 Killed                  RANK=$r $PY -u train.py\n";
  stream += kClosed;
  stream += kClosed;
  auto r = diagnose({{"job.log", stream}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->id == "process-killed-sigkill");
  CHECK(r.diagnoses[0].initiating_rank == 2);
  // No line ties the pid to a rank: none is named.
  auto bare = diagnose({{"job.log", "step 0 loss 2.31\nrun.sh: line 57: 14702 Killed                  python -u train.py\n" +
                                        std::string(kClosed)}});
  REQUIRE_FALSE(bare.diagnoses.empty());
  CHECK(bare.diagnoses[0].initiating_rank == -1);
}

TEST_CASE("clients of the env:// store time out and rank 0 reported nothing: rank 0 never served it") {
  // Real lines of a shell-launched job whose rank 0 started without WORLD_SIZE and trained alone
  // (bench/causality/heldout49, 4904).
  const std::string start =
      "[ctr r0] start: world_size=1 distributed=False master=127.0.0.1:30204\n"
      "[ctr r3] start: world_size=4 distributed=True master=127.0.0.1:30204\n"
      "[ctr r2] start: world_size=4 distributed=True master=127.0.0.1:30204\n"
      "[ctr r1] start: world_size=4 distributed=True master=127.0.0.1:30204\n"
      "[ctr r0] step 120/120 logloss 0.3808\n"
      "[ctr r0] training complete, model saved to ctr_model_r0.pt\n";
  const std::string timeout =
      "Traceback (most recent call last):\n"
      "  File \"/work/main/bench/causality/heldout49/jobs/ctr_train.py\", line 13, in <module>\n"
      "    dist.init_process_group(\"gloo\", timeout=timedelta(seconds=20))\n"
      "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 754, in init_process_group\n"
      "    store, rank, world_size = next(rendezvous_iterator)\n"
      "  File \"/usr/lib/python3/dist-packages/torch/distributed/rendezvous.py\", line 246, in _env_rendezvous_handler\n"
      "    store = _create_c10d_store(master_addr, master_port, rank, world_size, timeout)\n"
      "  File \"/usr/lib/python3/dist-packages/torch/distributed/rendezvous.py\", line 177, in _create_c10d_store\n"
      "    return TCPStore(\n"
      "TimeoutError: The client socket has timed out after 20s while trying to connect to (127.0.0.1, 30204).\n";
  auto rank = [&](const std::string& log) {
    auto r = diagnose({{"console.log", log}});
    REQUIRE_FALSE(r.diagnoses.empty());
    CHECK(r.diagnoses[0].entry->id == "store-client-connect-timeout");
    return r.diagnoses[0].initiating_rank;
  };
  CHECK(rank(start + timeout + timeout + timeout) == 0);
  const std::string started = start.substr(0, start.find("[ctr r0] step"));
  CHECK(rank(started + timeout + timeout + timeout) == 0);
}

TEST_CASE("a pid a launcher's own start lines name beside one rank is that rank's process") {
  // Real lines of a shell launcher's job (bench/causality/heldout50, 5004): it names each worker's
  // pid and rank when it starts it, the workers log only their pid, a watchdog SIGKILLs one.
  const std::string started =
      "2026-12-07 17:28:22 launcher: started worker 26428 (rank 0/4)\n"
      "2026-12-07 17:28:22 launcher: started worker 26430 (rank 1/4)\n"
      "2026-12-07 17:28:22 launcher: started worker 26432 (rank 2/4)\n"
      "2026-12-07 17:28:22 launcher: started worker 26434 (rank 3/4)\n"
      "[2026-12-07 17:28:30,363][vm:26434] INFO step 15 loss 0.6836 cache_items 6\n";
  const std::string exits =
      "2026-12-07 17:28:31 launcher: worker 26428 exited with status 1\n"
      "2026-12-07 17:28:31 launcher: worker 26430 exited with status 1\n"
      "2026-12-07 17:28:31 launcher: worker 26432 exited with status 1\n"
      "2026-12-07 17:28:31 launcher: worker 26434 exited with status 137\n";
  const std::string killed = "./launch_5004.sh: line 24: 26434 Killed                  RANK=$r /usr/bin/python3 pid_job.py\n";
  auto rank = [&](const std::string& log) {
    auto r = diagnose({{"job.log", log}});
    REQUIRE_FALSE(r.diagnoses.empty());
    return r.diagnoses[0].initiating_rank;
  };
  CHECK(rank(started + kClosed + kClosed + killed + exits) == 3);
  // The launcher's exit lines alone: worker 26434 is a pid, not rank 26434.
  CHECK(rank(started + kClosed + kClosed + exits) == 3);
  // Nothing ties the pid to a rank: no rank, rather than the pid taken for one.
  std::string unstarted = started.substr(started.rfind("[2026"));
  CHECK(rank(unstarted + kClosed + kClosed + exits) == -1);
  // Two ranks' lines name the number: it ties neither.
  CHECK(rank(started + "2026-12-07 17:28:29 launcher: rank 1 cache holds 26434 rows\n" +
             "2026-12-07 17:28:29 launcher: rank 3 cache holds 26434 rows\n" + kClosed + kClosed + killed) == -1);
}

TEST_CASE("a progress bar an exception closed names the rank of the traceback below it") {
  // Every rank's tqdm bar on one terminal (desc "rank N"); rank 2's loader raises, tqdm rewrites
  // its bar and ends the line, then its traceback; the peers' bars close the same way.
  auto bar = [](int rank, const char* rate) {
    return "\rrank " + std::to_string(rank) + ":  58%|\u2588\u2588\u2588\u2588\u2588\u258a    | 7/12 [00:02<00:01,  " + rate + "]";
  };
  std::string stream = bar(1, "5.82it/s") + bar(0, "5.83it/s") + bar(2, "3.17it/s") + "\n" +
                       "Traceback (most recent call last):\n"
                       "  File \"/w/train.py\", line 31, in <module>\n"
                       "    for batch in tqdm(loader, desc=f\"rank {rank}\"):\n"
                       "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xe9 in position 7: invalid continuation byte\n" +
                       bar(0, "2.35it/s") + "\n" + kClosed + bar(1, "1.47s/it") + "\n" + kClosed;
  auto r = diagnose({{"job.log", stream}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].initiating_rank == 2);
  std::vector<int> collateral;
  for (const auto& c : r.diagnoses[0].collateral) collateral.push_back(c.rank);
  CHECK(collateral == std::vector<int>{0, 1});
}

TEST_CASE("an unranked fault is the one rank's that reported nothing while the others lost a peer") {
  // bash's notice names no rank; ranks 0-2 lost their peer, rank 3 only logged its steps.
  std::string stream;
  for (int r = 0; r < 4; ++r) stream += "[rank" + std::to_string(r) + "]:step 0 loss 2.31\n";
  stream += "run.sh: line 47:  8891 Aborted                 RANK=$r $PY -u train.py\n";
  for (int r = 0; r < 3; ++r) {
    std::string closed = kClosed;
    for (size_t at = 0; at < closed.size(); at = closed.find('\n', at) + 1) {
      closed.insert(at, "[rank" + std::to_string(r) + "]:");
      if (closed.find('\n', at) == closed.size() - 1) break;
    }
    stream += closed;
  }
  auto r = diagnose({{"job.log", stream}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->id == "process-aborted");
  CHECK(r.diagnoses[0].initiating_rank == 3);
  // A job of two: the one peer lost it, so it is the other's.
  std::string pair = "[rank0]:step 0 loss 2.31\n[rank1]:step 0 loss 2.31\n"
                     "run.sh: line 47:  8891 Aborted                 RANK=$r $PY -u train.py\n";
  for (size_t at = 0; at < std::string(kClosed).size();) {
    const std::string closed = kClosed;
    const size_t nl = closed.find('\n', at);
    pair += "[rank0]:" + closed.substr(at, nl + 1 - at);
    at = nl + 1;
  }
  auto duo = diagnose({{"job.log", pair}});
  REQUIRE_FALSE(duo.diagnoses.empty());
  CHECK(duo.diagnoses[0].initiating_rank == 1);
  // Two ranks quiet: no one is named.
  auto two = diagnose({{"job.log", "[rank3]:step 0\n[rank4]:step 0\n" + stream}});
  REQUIRE_FALSE(two.diagnoses.empty());
  CHECK(two.diagnoses[0].initiating_rank == -1);
}

TEST_CASE("a quiet rank whose last words are an uncaught C++ exception aborted; it did not die silently") {
  // Real per-rank files of the size_mismatch scenario, rank 1's cut after libstdc++'s first line
  // (as a paste cut there shows it), so that no entry matches it.
  auto files = scenario_ranks("size_mismatch");
  files[1].second.erase(files[1].second.find("  what():"));
  auto r = diagnose(files);
  REQUIRE_FALSE(r.diagnoses.empty());
  const auto& d = r.diagnoses[0];
  CHECK(d.initiating_rank == 1);
  REQUIRE_FALSE(d.chain.empty());
  CHECK(d.chain[0].starts_with("rank 1: aborted after `terminate called after throwing an instance of 'gloo::EnforceNotMet'`"));
  bool said = false;
  for (const auto& f : d.findings) said = said || f.find("a C++ exception that nothing caught aborted it (SIGABRT)") != std::string::npos;
  CHECK(said);
}

TEST_CASE("srun's first exit line does not outweigh the ranks' own lines when every task exited on its own") {
  // Real Slurm 22.05 output (2 nodes, 4 tasks): rank 2's label file is a row short and it raises;
  // the others lose it within milliseconds, and srun happens to list task 1 first.
  const std::string log = testing::read_file(testing::source_path("tests/fixtures/logs/pastes/srun-racing-exits.log"));
  auto r = diagnose({{"job.log", log}});
  REQUIRE_FALSE(r.diagnoses.empty());
  const auto& d = r.diagnoses[0];
  CHECK(d.initiating_rank == 2);
  bool doubted = false;
  for (const auto& f : d.findings) doubted = doubted || f.starts_with("srun's first exit line names task 1");
  CHECK(doubted);

  SUBCASE("when srun killed the rest, its first line is the failed task") {
    std::string killed = log;
    const size_t at = killed.find("srun: error: gpu-a02: tasks 2-3");
    REQUIRE(at != std::string::npos);
    killed.replace(at, killed.size() - at, "srun: error: gpu-a02: tasks 2-3: Terminated\nsrun: error: gpu-a01: task 0: Terminated\n");
    auto k = diagnose({{"job.log", killed}});
    REQUIRE_FALSE(k.diagnoses.empty());
    CHECK(k.diagnoses[0].initiating_rank == 1);
  }
}

TEST_CASE("a timeout cascade under torchrun: the worker the agent signalled is the one its table leaves out") {
  const std::string log = testing::read_file(testing::source_path("tests/fixtures/logs/pastes/torchrun-unlisted-worker.log"));
  auto r = diagnose({{"console.log", log}});
  REQUIRE_FALSE(r.diagnoses.empty());
  const auto& d = r.diagnoses[0];
  CHECK(d.initiating_rank == 2);
  bool said = false;
  for (const auto& f : d.findings) said = said || f.find("the one local rank (2) its failure table does not list") != std::string::npos;
  CHECK(said);

  SUBCASE("without the SIGTERM line the table's gap alone says nothing") {
    std::string cut = log;
    const size_t at = cut.find("WARNING:torch.distributed.elastic.multiprocessing.api:Sending process");
    REQUIRE(at != std::string::npos);
    cut.erase(at, cut.find('\n', at) + 1 - at);
    auto c = diagnose({{"console.log", cut}});
    REQUIRE_FALSE(c.diagnoses.empty());
    CHECK(c.diagnoses[0].initiating_rank != 0);  // not the table's tied lowest rank
  }
}

TEST_CASE("spawn's first process in a timeout cascade gave up waiting; the rank doing other work is the one") {
  const std::string log = testing::read_file(testing::source_path("tests/fixtures/logs/pastes/spawn-timeout-first.log"));
  auto r = diagnose({{"job.log", log}});
  REQUIRE_FALSE(r.diagnoses.empty());
  const auto& d = r.diagnoses[0];
  CHECK(d.entry->id == "gloo-collective-timeout");  // not the ProcessRaisedException wrapper
  CHECK(d.initiating_rank == 1);
  bool said = false;
  for (const auto& f : d.findings) said = said || f.starts_with("torch.multiprocessing.spawn reported process 2 first");
  CHECK(said);
}

TEST_CASE("a k9s-framed paste with lines wrapped inside the frame") {
  const std::string log = testing::read_file(testing::source_path("tests/fixtures/logs/pastes/wrapped-k9s-frame.log"));
  auto r = diagnose({{"k9s.log", log}});
  REQUIRE_FALSE(r.diagnoses.empty());
  const auto& d = r.diagnoses[0];
  CHECK(d.entry->id == "loss-target-class-out-of-bounds-cpu");
  CHECK(d.initiating_rank == 2);
}

TEST_CASE("a quiet rank's last line is quoted from one interleaved stream too") {
  // Real `srun --label` stream of the sigkill scenario: rank 1 was SIGKILLed after its step 2.
  const std::string job = testing::read_file(testing::source_path("tests/fixtures/logs/multirank/sigkill/job.log"));
  auto r = diagnose({{"job.log", job}});
  REQUIRE_FALSE(r.diagnoses.empty());
  const auto& d = r.diagnoses[0];
  CHECK(d.initiating_rank == 1);
  REQUIRE_FALSE(d.chain.empty());
  CHECK(d.chain[0].starts_with("rank 1: stopped without an error after `"));
  CHECK(d.chain[0].find("INFO step 2 rank 1`") != std::string::npos);
}

TEST_CASE("a quiet rank whose last line says it finished left the job early: uneven step counts, not a kill") {
  // The sigkill scenario's real files, rank 1 saying what a rank with a shorter shard says last.
  auto files = scenario_ranks("sigkill");
  files[1].second += "2026-12-01 14:57:55,431 INFO train: epoch finished after 3 steps, training done\n";
  auto r = diagnose(files);
  REQUIRE_FALSE(r.diagnoses.empty());
  const auto& d = r.diagnoses[0];
  CHECK(d.initiating_rank == 1);
  REQUIRE_FALSE(d.chain.empty());
  CHECK(d.chain[0].starts_with("rank 1: left the job early after `"));
  std::string findings;
  for (const auto& f : d.findings) findings += f + "\n";
  CHECK(findings.find("it left the job on its own") != std::string::npos);
  CHECK(findings.find("Check: the number of batches or steps each rank runs") != std::string::npos);
  // Without those words it is the silent death it really was.
  auto killed = diagnose(scenario_ranks("sigkill"));
  REQUIRE_FALSE(killed.diagnoses.empty());
  CHECK(killed.diagnoses[0].chain[0].starts_with("rank 1: stopped without an error after `"));
}

TEST_CASE("Ray Train's driver names the dead worker by its rank, and megatron's validation names its own") {
  auto ray = diagnose({{"driver.log",
                        "(raylet) A worker died or was killed while executing a task by an unexpected system error. To "
                        "troubleshoot the problem, check the logs for the dead worker. RayTask ID: ffffffffffffffff0a1b "
                        "Worker ID: 5e2c Node ID: 9f01 Worker IP address: 10.0.3.7 Worker port: 10012 Worker PID: 4711 "
                        "Worker exit type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection "
                        "error code 2. End of file.\n"
                        "(TorchTrainer pid=4502) Worker 2 has failed.\n"}});
  REQUIRE_FALSE(ray.diagnoses.empty());
  CHECK(ray.diagnoses[0].entry->id == "ray-worker-died");
  CHECK(ray.diagnoses[0].initiating_rank == 2);
  auto nan = diagnose({{"train.log",
                        "ERROR:megatron.core.rerun_state_machine:Unexpected result nan on rank 6 at iteration #210 "
                        "invocation #1 (message='found NaN in local grad norm for bucket #0 in backward pass before "
                        "data-parallel communication collective')\n"}});
  REQUIRE_FALSE(nan.diagnoses.empty());
  CHECK(nan.diagnoses[0].entry->id == "megatron-result-validation-failed");
  CHECK(nan.diagnoses[0].initiating_rank == 6);
}

TEST_CASE("an uncaught C++ exception no entry knows initiates, read from its what() line") {
  // Real per-rank files of the size_mismatch scenario; rank 1's last words are replaced by what
  // libstdc++ really printed for a `std::vector::at` out of range that nothing caught.
  auto files = scenario_ranks("size_mismatch");
  std::string& one = files[1].second;
  const size_t at = one.find("terminate called after throwing");
  REQUIRE(at != std::string::npos);
  const size_t end = one.find('\n', one.find("  what():", at));
  one.replace(at, end - at,
              "terminate called after throwing an instance of 'std::out_of_range'\n"
              "  what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 4)");
  auto r = diagnose(files);
  REQUIRE_FALSE(r.diagnoses.empty());
  const auto& d = r.diagnoses[0];
  CHECK(d.entry->id == "unrecognized-exception");
  CHECK(d.initiating_rank == 1);
  bool said = false;
  for (const auto& f : d.findings) said = said || f.find("rank 1 raised `std::out_of_range: vector::_M_range_check") != std::string::npos;
  CHECK(said);
}

TEST_CASE("two torchrun nodes: the fault's own console's table decides, and a tie there names no rank") {
  // Real consoles of two agents (--nnodes 2): global rank 2's LinAlgError, unprefixed, in node 1's.
  auto node = [](const char* name) {
    return testing::read_file(testing::source_path(std::string("tests/fixtures/logs/pastes/two-node-torchrun/") + name));
  };
  const std::string node0 = node("node0.log"), node1 = node("node1.log");
  auto tied = diagnose({{"node0.log", node0}, {"node1.log", node1}});
  REQUIRE_FALSE(tied.diagnoses.empty());
  CHECK(tied.diagnoses[0].initiating_rank == -1);  // not node 0's "rank 0", nor its agent's local rank 0
  CHECK(tied.diagnoses[0].initiating_node == "node1");

  SUBCASE("node 1's table lists only its root cause: that rank") {
    std::string one = node1;
    const size_t from = one.find("Failures:\n[1]:");
    REQUIRE(from != std::string::npos);
    one.erase(from, one.find("Root Cause", from) - from);
    auto untied = diagnose({{"node0.log", node0}, {"node1.log", one}});
    REQUIRE_FALSE(untied.diagnoses.empty());
    CHECK(untied.diagnoses[0].initiating_rank == 2);
    bool said = false;
    for (const auto& f : untied.diagnoses[0].findings)
      said = said || f.find("The fault is printed in node1.log, whose torchrun summary names rank 2") != std::string::npos;
    CHECK(said);
  }
}

TEST_CASE("two nodes' [defaultN]: lines in one stream: local ranks, made global by what the log shows") {
  // GNU parallel's tag before each agent's `--tee 3` lines (bench/causality/heldout47, 4702).
  auto tag = [](const std::string& prefix, const std::string& text) {
    std::string out;
    for (size_t at = 0; at < text.size();) {
      const size_t nl = text.find('\n', at);
      out += prefix + text.substr(at, nl - at) + "\n";
      at = nl + 1;
    }
    return out;
  };
  const std::string a = "gpu-b01 0\t", b = "gpu-b02 1\t";
  auto stream = [&](const std::string& head, const std::string& agent) {
    return head + tag(a + "[default0]:", "step 5 loss 0.7\n") + tag(a + "[default1]:", "step 5 loss 0.7\n") +
           tag(b + "[default0]:", "step 5 loss 0.7\n") + tag(b + "[default1]:", kKeyError) + tag(a + "[default0]:", kClosed) +
           tag(a + "[default1]:", kClosed) + tag(b + "[default0]:", kClosed) + agent;
  };
  auto initiator = [&](const std::string& log) {
    auto r = diagnose({{"job.log", log}});
    REQUIRE_FALSE(r.diagnoses.empty());
    return std::make_pair(r.diagnoses[0].initiating_rank, r.diagnoses[0].initiating_node);
  };
  // The job's own head names each process's global rank.
  const std::string heads = tag(a + "[default0]:", "[gpu-b01 r0/4 l0] joined\n") + tag(a + "[default1]:", "[gpu-b01 r1/4 l1] joined\n") +
                            tag(b + "[default0]:", "[gpu-b02 r2/4 l0] joined\n") + tag(b + "[default1]:", "[gpu-b02 r3/4 l1] joined\n");
  CHECK(initiator(stream(heads, "")).first == 3);
  // The node's agent printed its rendezvous result: local rank 1 there is global rank 3.
  const std::string result = tag(b, "INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous complete for workers. Result:\n"
                                    "  restart_count=0\n  group_rank=1\n  group_world_size=2\n  local_ranks=[0, 1]\n"
                                    "  role_ranks=[2, 3]\n  global_ranks=[2, 3]\n");
  CHECK(initiator(stream("", result)).first == 3);
  // Nothing maps them: the node, not the local rank taken for a global one.
  auto unmapped = initiator(stream("", ""));
  CHECK(unmapped.first == -1);
  CHECK(unmapped.second == "gpu-b02");
  // One node alone: its local ranks are the global ones.
  const std::string one = tag(a + "[default0]:", "step 5 loss 0.7\n") + tag(a + "[default1]:", kKeyError) + tag(a + "[default0]:", kClosed);
  CHECK(initiator(one).first == 1);
}

TEST_CASE("a rank whose own DataLoader worker exited is where the failure started") {
  // Real per-rank files (multirank/dataloader_exit): rank 3's worker died without a word. Its
  // log is kept from the chained traceback on, as pastes that start at the last one show it.
  auto files = scenario_ranks("dataloader_exit");
  files[3].second = files[3].second.substr(files[3].second.find("The above exception was the direct cause"));
  auto r = diagnose(files);
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->id == "dataloader-worker-exited-unexpectedly");
  CHECK(r.diagnoses[0].initiating_rank == 3);
}

TEST_CASE("a polling launcher's 'worker N failed; stopping the remaining workers' names the rank, except in a timeout cascade") {
  // Real lines of a small polling launcher (bench/causality/heldout12, case 1102), all exit codes alike.
  const std::string launcher =
      "minilaunch 2026-12-03 07:13:20 worker 1 (pid 21589) exited with code 1\n"
      "minilaunch 2026-12-03 07:13:20 worker 1 failed; stopping the remaining workers in 3s\n"
      "minilaunch 2026-12-03 07:13:21 worker 0 (pid 21586) exited with code 1\n"
      "minilaunch 2026-12-03 07:13:21 worker 2 (pid 21592) exited with code 1\n";
  auto r = diagnose({{"job.log", std::string(kKeyError) + kClosed + kClosed + launcher}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->id == "unrecognized-exception");
  CHECK(r.diagnoses[0].initiating_rank == 1);

  SUBCASE("peers that timed out: the first to fail gave up waiting, it is no initiator") {
    const std::string timeout =
        "Traceback (most recent call last):\n"
        "  File \"/w/train.py\", line 58, in <module>\n"
        "    dist.all_reduce(x)\n"
        "RuntimeError: [./gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 12000ms for recv operation to complete\n";
    auto t = diagnose({{"job.log", timeout + timeout + launcher}});
    REQUIRE_FALSE(t.diagnoses.empty());
    CHECK(t.diagnoses[0].initiating_rank != 1);
  }
}

TEST_CASE("a paste that ends inside a rank's own timeout line: that rank timed out too, it is not the one that never got there") {
  // NCCL's watchdog line as torch 2.x prints it behind `[rankN]:` (nccl-watchdog-timeout's real example).
  auto line = [](int r) {
    return "[rank" + std::to_string(r) + "]:[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] [Rank " + std::to_string(r) +
           "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, NumelIn=9801523, "
           "NumelOut=9801523, Timeout(ms)=600000) ran for 600020 milliseconds before timing out.\n";
  };
  std::string log = line(1) + line(2) + line(3);
  const std::string last = line(4);
  auto cut = diagnose({{"job.log", log + last.substr(0, last.find("NumelOut")) + "\n"}});
  REQUIRE_FALSE(cut.diagnoses.empty());
  CHECK(cut.diagnoses[0].initiating_rank == 0);  // ranks 1-4 all waited; 0 never appears
  // Not cut: rank 4 only logged its step, so it is the one that never reached the collective.
  auto quiet = diagnose({{"job.log", log + "[rank4]:step 808 loss 1.93\n"}});
  REQUIRE_FALSE(quiet.diagnoses.empty());
  CHECK(quiet.diagnoses[0].initiating_rank == 4);
}

TEST_CASE("a timeout cascade: the one worker torchrun still had to SIGTERM is the one the others waited for") {
  // Real lines of a 3-rank torch.distributed.launch run (bench/causality/heldout17, case 1701):
  // rank 1 blocks on a lock; ranks 0 and 2 time out in the gradient all_reduce and exit.
  const std::string head =
      "rank 1/3 local_rank 1 pid 10304: model ready\n"
      "rank 0/3 local_rank 0 pid 10303: model ready\n"
      "rank 2/3 local_rank 2 pid 10305: model ready\n";
  const std::string timeout =
      "Traceback (most recent call last):\n"
      "  File \"/w/train.py\", line 58, in <module>\n"
      "    dist.all_reduce(x)\n"
      "RuntimeError: [./gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 20000ms for recv operation to complete\n";
  const std::string agent =
      "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 10304 closing signal SIGTERM\n"
      "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 10303) of binary: /usr/bin/python3\n";
  auto r = diagnose({{"job.log", head + timeout + timeout + agent}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].initiating_rank == 1);
  bool said = false;
  for (const auto& f : r.diagnoses[0].findings) said = said || f.find("had to stop pid 10304 with SIGTERM") != std::string::npos;
  CHECK(said);
  // A crash cascade (lost peers, no timeout): the SIGTERMed worker is a survivor, not the cause.
  auto crash = diagnose({{"job.log", head + kClosed + kClosed + agent}});
  REQUIRE_FALSE(crash.diagnoses.empty());
  CHECK(crash.diagnoses[0].initiating_rank != 1);
}

TEST_CASE("the elastic agent's failed-worker line names the rank when nothing else does") {
  // torch/distributed/elastic/multiprocessing/api.py: the agent's log when a worker fails.
  std::string log =
      "[2024-05-28 14:04:27,954] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 11 closing signal SIGTERM\n"
      "[2024-05-28 14:04:28,584] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: 1) local_rank: 3 (pid: 14) of binary: /usr/bin/python3\n";
  auto r = diagnose({{"train.log", log}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].initiating_rank == 3);
  CHECK(r.diagnoses[0].initiating_local_rank == 3);
}

TEST_CASE("ranks and nodes from the prefixes people paste behind") {
  auto a = logs::attribute_line("worker-1: [rank3]: RuntimeError: boom");
  CHECK(a.node == "worker-1");
  CHECK(a.rank == 3);
  CHECK(std::string_view("worker-1: [rank3]: RuntimeError: boom").substr(a.strip) == "RuntimeError: boom");
  auto ip = logs::attribute_line("10.0.0.7: Traceback (most recent call last):");
  CHECK(ip.node == "10.0.0.7");
  auto pod = logs::attribute_line("[pod/train-worker-2/pytorch] RuntimeError: boom");
  CHECK(pod.node == "train-worker-2");
  std::string box = "\xe2\x94\x82 [rank5]: torch.OutOfMemoryError: CUDA out of memory.";
  auto b = logs::attribute_line(box);
  CHECK(b.rank == 5);
  CHECK(box.substr(b.strip).starts_with("torch.OutOfMemoryError"));
  auto num = logs::attribute_line("[80746] [rank0]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog");
  CHECK(num.rank == 0);
  auto sys = logs::attribute_line("May  1 12:34:56 node-02 kernel: [ 4254.197860] NVRM: Xid (PCI:0000:5d:00): 79");
  CHECK(sys.node == "node-02");
  CHECK(sys.strip == 0);  // the kernel line stays whole for the fingerprints
  // Not hosts: exception names, log levels, shared libraries, dates.
  CHECK(logs::attribute_line("RuntimeError: x").node.empty());
  CHECK(logs::attribute_line("libc10.so: cannot open shared object file").node.empty());
  CHECK(logs::attribute_line("2024-05-01: started").node.empty());
  CHECK(logs::attribute_line("torch.distributed.elastic.multiprocessing.api: [WARNING] x").node.empty());
}

TEST_CASE("torchrun's root cause: flattened onto one line, and the earliest of several node summaries") {
  auto flat = diagnose({{"paste.log",
                         "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: train.py FAILED Failures: "
                         "<NO_OTHER_FAILURES> Root Cause (first observed failure): [0]: time : 2024-08-17_13:24:04 "
                         "host : server rank : 3 (local_rank: 3) exitcode : 1 (pid: 2680830) error_file: <N/A> "
                         "traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"}});
  REQUIRE(flat.root_cause);
  CHECK(flat.root_cause->cause.rank == 3);
  CHECK(flat.root_cause->cause.exitcode == 1);
  std::string node = [](int rank, const char* time) {
    return std::string("Root Cause (first observed failure):\n[0]:\n  time      : ") + time +
           "\n  host      : gpu-node-1\n  rank      : " + std::to_string(rank) + " (local_rank: 0)\n" +
           "  exitcode  : 1 (pid: 17)\n  error_file: <N/A>\n" +
           "============================================================\n";
  }(0, "2023-06-03_22:45:52");
  std::string other = std::string("Root Cause (first observed failure):\n[0]:\n  time      : 2023-06-03_22:45:01\n") +
                      "  host      : gpu-node-2\n  rank      : 4 (local_rank: 0)\n  exitcode  : 1 (pid: 18)\n" +
                      "============================================================\n";
  auto two = diagnose({{"node1.log", node}, {"node2.log", other}});
  REQUIRE(two.root_cause);
  CHECK(two.root_cause->cause.rank == 4);
}

// torch 1.9's summary (errors/__init__.py _MSG_FORMAT_TEMPLATE): `Root Cause:` and `Other Failures:`
// sections of `[i]:` entries with `time:`/`rank:`/`exitcode:`/`error_file:`/`msg:` fields.
TEST_CASE("torchrun's root cause in the 1.9 format, as printed and flattened") {
  const std::string stars(60, '*'), rule(60, '=');
  std::string table = "Traceback (most recent call last):\n"
                      "  File \"/opt/conda/bin/torchrun\", line 33, in <module>\n"
                      "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n" +
                      stars + "\n                    train.py FAILED\n" + rule +
                      "\nRoot Cause:\n[0]:\n  time: 2021-09-14_10:32:47\n  rank: 2 (local_rank: 2)\n"
                      "  exitcode: 1 (pid: 16542)\n  error_file: <N/A>\n"
                      "  msg: \"Process failed with exitcode 1\"\n" +
                      rule +
                      "\nOther Failures:\n[1]:\n  time: 2021-09-14_10:32:48\n  rank: 0 (local_rank: 0)\n"
                      "  exitcode: -15 (pid: 16540)\n  error_file: <N/A>\n"
                      "  msg: \"Signal 15 (SIGTERM) received by PID 16540\"\n" +
                      stars + "\n";
  auto r = diagnose({{"launcher.log", table}});
  REQUIRE(r.root_cause);
  CHECK(r.root_cause->cause.rank == 2);
  CHECK(r.root_cause->cause.exitcode == 1);
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].initiating_rank == 2);
  auto flat = diagnose({{"paste.log", "ChildFailedError: *** train.py FAILED === Root Cause: [0]: time: 2021-09-14_10:32:47 "
                                      "rank: 5 (local_rank: 1) exitcode: -9 (pid: 77) error_file: <N/A> msg: \"Signal 9 "
                                      "(SIGKILL) received by PID 77\" === Other Failures: [1]: time: 2021-09-14_10:32:49 "
                                      "rank: 0 (local_rank: 0) exitcode: 1 (pid: 70)\n"}});
  REQUIRE(flat.root_cause);
  CHECK(flat.root_cause->cause.rank == 5);
  CHECK(flat.root_cause->cause.exitcode == -9);
  // Prose that merely says "Root Cause:" is no table.
  auto prose = diagnose({{"notes.log", "Root Cause: the dataloader ran out of shared memory\nrank: 3\n"}});
  CHECK_FALSE(prose.root_cause);
}

TEST_CASE("an Xid's PCI address names the rank whose NCCL communicator used that GPU") {
  CHECK(logs::nccl_bus_id("0000:5d:00") == "5d000");
  CHECK(logs::nccl_bus_id("0000:1B:00.0") == "1b000");
  CHECK(logs::nccl_bus_id("00000000:3b:00") == "3b000");
  const char* xid = "Mar  3 04:05:06 gpu-7 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid='<unknown>', name=<unknown>, "
                    "GPU has fallen off the bus.\n";
  // Unprefixed output of one process per GPU: NCCL's own `host:pid:tid [dev]` prefix and comm rank.
  auto init = [](const char* host, int rank, const char* bus) {
    return std::string(host) + ":900" + std::to_string(rank) + ":910" + std::to_string(rank) + " [" + std::to_string(rank) +
           "] NCCL INFO comm 0x7f00 rank " + std::to_string(rank) + " nranks 8 cudaDev " + std::to_string(rank) +
           " busId " + bus + " - Init COMPLETE\n";
  };
  auto r = diagnose({{"dmesg-gpu-7.log", xid}, {"train.log", init("gpu-7", 5, "3b000") + init("gpu-7", 6, "5d000")}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->id == "xid-79-gpu-fallen-off-bus");
  CHECK(r.diagnoses[0].initiating_rank == 5);
  // The same bus id on another node is another GPU: no rank.
  auto other = diagnose({{"dmesg-gpu-7.log", xid}, {"train.log", init("gpu-8", 5, "3b000")}});
  REQUIRE_FALSE(other.diagnoses.empty());
  CHECK(other.diagnoses[0].initiating_rank == -1);
}

TEST_CASE("a rank named by its peers' monitored_barrier is the initiator") {
  auto r = diagnose({{"rank0.log", "RuntimeError: [Rank 0]: Rank 3 failed to pass monitoredBarrier in 2000 ms\n"},
                     {"rank1.log", "step 2\n"},
                     {"rank2.log", "step 2\n"}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->id == "monitored-barrier-rank-failed");
  CHECK(r.diagnoses[0].initiating_rank == 3);
}

TEST_CASE("of several quiet ranks, the one whose log stopped first by its timestamps") {
  auto r = diagnose({{"rank0.log", kClosed},
                     {"rank1.log", "2024-05-01 10:00:01,000 INFO step 7\n2024-05-01 10:00:09,000 INFO step 8\n"},
                     {"rank2.log", "2024-05-01 10:00:01,000 INFO step 7\n"}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].initiating_rank == 2);
}

TEST_CASE("every rank timed out, one in another collective: that rank took another code path") {
  // torchrun's [defaultN]: prefixes; real gloo timeouts of torch 1.13.
  auto timeout = [](int rank, const char* call, int line, const char* op) {
    const std::string p = "[default" + std::to_string(rank) + "]:";
    return p + "Traceback (most recent call last):\n" + p + "  File \"/w/train.py\", line " + std::to_string(line) +
           ", in <module>\n" + p + "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541, in " +
           call + "\n" + p + "    work.wait()\n" + p + "RuntimeError: [./gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting "
           "10000ms for " + op + " operation to complete\n";
  };
  auto r = diagnose({{"job.log", timeout(0, "all_reduce", 17, "recv") + timeout(2, "all_gather", 14, "send") +
                                     timeout(1, "all_reduce", 17, "recv")}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].initiating_rank == 2);
  CHECK(r.diagnoses[0].chain.front() == "rank 2: called all_gather where the other ranks called all_reduce");
  // All in the same call: nothing tells them apart.
  auto same = diagnose({{"job.log", timeout(0, "all_reduce", 17, "recv") + timeout(2, "all_reduce", 17, "send") +
                                        timeout(1, "all_reduce", 17, "recv")}});
  REQUIRE_FALSE(same.diagnoses.empty());
  CHECK(same.diagnoses[0].initiating_rank == -1);
}

TEST_CASE("multiprocessing's `Process SpawnProcess-N:` header names the child's rank, N - 1") {
  auto child = [](int n, const std::string& body) {
    return "Process SpawnProcess-" + std::to_string(n) +
           ":\n"
           "Traceback (most recent call last):\n"
           "  File \"/usr/lib/python3.11/multiprocessing/process.py\", line 314, in _bootstrap\n"
           "    self.run()\n"
           "  File \"/usr/lib/python3.11/multiprocessing/process.py\", line 108, in run\n"
           "    self._target(*self._args, **self._kwargs)\n" +
           body;
  };
  const std::string recursion =
      "  File \"/w/jobs/recursion_error.py\", line 12, in resolve\n"
      "    base = resolve(cfg, parent)\n"
      "  [Previous line repeated 991 more times]\n"
      "RecursionError: maximum recursion depth exceeded\n";
  std::string closed = kClosed;
  closed = closed.substr(closed.find('\n') + 1);  // the frames and the exception, behind the header's traceback line
  auto r = diagnose({{"job.log", child(3, recursion) + child(2, closed) + child(4, closed)}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].initiating_rank == 2);
  CHECK(r.diagnoses[0].collateral.size() >= 2);
  // A name the job gave (`Process(name=f"trainer-{rank}")`, bench/causality/heldout48, 4803): the
  // rank itself, not counted from 1; with or without a separator (`trainer3`).
  auto rename = [&](std::string text, const std::string& word) {
    for (int n = 2; n <= 4; ++n) {
      const std::string from = "Process SpawnProcess-" + std::to_string(n) + ":";
      text.replace(text.find(from), from.size(), "Process " + word + std::to_string(n) + ":");
    }
    return text;
  };
  for (const std::string word : {"trainer-", "trainer", "worker_"}) {
    CAPTURE(word);
    auto named = diagnose({{"job.log", rename(child(3, recursion) + child(2, closed) + child(4, closed), word)}});
    REQUIRE_FALSE(named.diagnoses.empty());
    CHECK(named.diagnoses[0].initiating_rank == 3);
  }
  auto loader = diagnose({{"job.log", "Process loader-3:\n" + std::string(kKeyError) + kClosed}});
  REQUIRE_FALSE(loader.diagnoses.empty());
  CHECK(loader.diagnoses[0].initiating_rank == -1);
  // Not a header: a sentence that starts with the word.
  auto plain = diagnose({{"job.log", "Process group ready:\n" + std::string(kKeyError) + kClosed}});
  REQUIRE_FALSE(plain.diagnoses.empty());
  CHECK(plain.diagnoses[0].initiating_rank == -1);
}

namespace {
// torchrun's summary (torch 1.13) for a job of 4 workers: entry `[N]:` of a `Failures:` section
// or of the root cause. `traceback` is the field's value and the lines it runs on.
std::string table_entry(int rank, const std::string& time, int exitcode, const std::string& traceback) {
  return "[" + std::to_string(rank) + "]:\n  time      : " + time + "\n  host      : localhost\n  rank      : " +
         std::to_string(rank) + " (local_rank: " + std::to_string(rank) + ")\n  exitcode  : " + std::to_string(exitcode) +
         " (pid: " + std::to_string(1800 + rank) + ")\n  error_file: <N/A>\n  traceback : " + traceback + "\n";
}
const std::string kNoTraceback = "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html";
std::string summary(const std::string& failures, const std::string& root) {
  return "============================================================\ntrain.py FAILED\n"
         "------------------------------------------------------------\nFailures:\n" + failures +
         "------------------------------------------------------------\nRoot Cause (first observed failure):\n" + root +
         "============================================================\n";
}
}  // namespace

TEST_CASE("torchrun's root cause tied to the second with its other failures: the one that ended differently") {
  const std::string t = "2026-12-03_09:19:30";
  const std::string failures = table_entry(1, t, 1, kNoTraceback) + table_entry(2, t, 1, kNoTraceback) +
                               table_entry(3, t, -9, "Signal 9 (SIGKILL) received by PID 1803");
  auto r = diagnose({{"train.log", std::string(kClosed) + kClosed + kClosed + summary(failures, table_entry(0, t, 1, kNoTraceback))}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses.front().initiating_rank == 3);
  bool said = false;
  for (const auto& f : r.diagnoses.front().findings) said = said || f.find("failed in the same second") != std::string::npos;
  CHECK(said);

  SUBCASE("the root cause failed well before the agent found the killed worker: it stands") {
    const std::string later = table_entry(1, "2026-12-03_09:19:40", 1, kNoTraceback) +
                              table_entry(3, "2026-12-03_09:19:40", -9, "Signal 9 (SIGKILL) received by PID 1803");
    auto q = diagnose({{"train.log", std::string(kClosed) + kClosed + summary(later, table_entry(0, t, 1, kNoTraceback))}});
    REQUIRE_FALSE(q.diagnoses.empty());
    CHECK(q.diagnoses.front().initiating_rank == 0);
  }
  SUBCASE("a worker the agent found killed a second after its peers lost it: the killed one") {
    // The agent stamps a signalled worker when it notices it, after the peers' own error time
    // (a real run: tests/fixtures/logs/pastes/table-sigkill-entry.log).
    const std::string later = table_entry(1, "2026-12-03_09:19:31", 1, kNoTraceback) +
                              table_entry(3, "2026-12-03_09:19:31", -9, "Signal 9 (SIGKILL) received by PID 1803");
    auto q = diagnose({{"train.log", std::string(kClosed) + kClosed + summary(later, table_entry(0, t, 1, kNoTraceback))}});
    REQUIRE_FALSE(q.diagnoses.empty());
    CHECK(q.diagnoses.front().initiating_rank == 3);
  }
  SUBCASE("torch 1.9's table quotes the signal line; a kill noticed a second later counts the same") {
    const std::string rule = "=======================================";
    const std::string old = std::string(kClosed) + kClosed + "***************************************\n                    train.py FAILED\n" +
                            rule + "\nRoot Cause:\n[0]:\n  time: 2021-09-14_10:32:47\n  rank: 0 (local_rank: 0)\n"
                            "  exitcode: 1 (pid: 16540)\n  error_file: <N/A>\n  msg: \"Process failed with exitcode 1\"\n" + rule +
                            "\nOther Failures:\n[1]:\n  time: 2021-09-14_10:32:48\n  rank: 3 (local_rank: 3)\n"
                            "  exitcode: -9 (pid: 16543)\n  error_file: <N/A>\n  msg: \"Signal 9 (SIGKILL) received by PID 16543\"\n"
                            "***************************************\n";
    auto q = diagnose({{"train.log", old}});
    REQUIRE_FALSE(q.diagnoses.empty());
    CHECK(q.diagnoses.front().initiating_rank == 3);
  }
  SUBCASE("a tie where all ended alike: torchrun's pick is the order of its list, no evidence") {
    const std::string alike = table_entry(1, t, 1, kNoTraceback) + table_entry(2, t, 1, kNoTraceback);
    auto q = diagnose({{"train.log", std::string(kClosed) + kClosed + summary(alike, table_entry(0, t, 1, kNoTraceback))}});
    REQUIRE_FALSE(q.diagnoses.empty());
    CHECK(q.diagnoses.front().initiating_rank == -1);
    bool told = false;
    for (const auto& f : q.diagnoses.front().findings) told = told || f.find("is one of 3 failures it stamps with the same second") != std::string::npos;
    CHECK(told);
  }
}

TEST_CASE("an unprefixed traceback is the rank whose entry in torchrun's table ends with the same exception") {
  const std::string t = "2026-12-03_09:16:45";
  auto indented = [](const std::string& tb) {
    std::string out;
    for (size_t at = 0; at < tb.size();) {
      size_t nl = tb.find('\n', at);
      out += (out.empty() ? "" : "  ") + tb.substr(at, nl - at) + "\n";
      at = nl + 1;
    }
    out.pop_back();
    return out;
  };
  const std::string failures = table_entry(1, t, 1, indented(kKeyError)) + table_entry(2, t, 1, indented(kClosed));
  const std::string log = std::string(kKeyError) + kClosed + kClosed + summary(failures, table_entry(0, t, 1, indented(kClosed)));
  auto r = diagnose({{"train.log", log}});
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses.front().initiating_rank == 1);
  bool said = false;
  for (const auto& f : r.diagnoses.front().findings) said = said || f.find("failure table shows this traceback for rank 1") != std::string::npos;
  CHECK(said);
}

TEST_CASE("Composer's launcher: the crashed rank it names, and the saved output it prints per rank") {
  // Its words, as composer/cli/launcher.py prints them (logging's default format, then print()).
  const std::string head =
      "2023-04-24 16:03:12,379: rank0[1003409][MainThread]: DEBUG: composer.utils.dist: Initializing torch.dist: "
      "global_rank=0, local_rank=0, world_size=4, local_world_size=4, node_rank=0\n";
  SUBCASE("only the launcher's line: it names the rank") {
    auto r = diagnose({{"console.log", head +
                                           "ERROR:composer.cli.launcher:Rank 1 crashed with exit code 1.\n"
                                           "Waiting up to 30 seconds for all training processes to terminate. Press "
                                           "Ctrl-C to exit immediately.\n"}});
    REQUIRE_FALSE(r.diagnoses.empty());
    CHECK(r.diagnoses[0].entry->id == "composer-launcher-rank-crashed");
    CHECK(r.diagnoses[0].initiating_rank == 1);
  }
  SUBCASE("the blocks of saved output say whose traceback is whose") {
    // Ranks 1 and 3 ended between two polls: the launcher names the lower, but rank 1 only lost
    // its peer, and rank 3's own error is in its block.
    auto r = diagnose({{"console.log",
                        head + "ERROR:composer.cli.launcher:Rank 1 crashed with exit code 1.\n"
                               "INFO:composer.cli.launcher:Killing global rank 0 (PID 1003409) with SIGTERM\n"
                               "INFO:composer.cli.launcher:Killing global rank 2 (PID 1003411) with SIGTERM\n"
                               "Waiting up to 30 seconds for all training processes to terminate. Press Ctrl-C to "
                               "exit immediately.\n"
                               "Global rank 1 (PID 1003410) exited with code 1\n"
                               "----------Begin global rank 1 STDOUT----------\n"
                               "\n"
                               "----------End global rank 1 STDOUT----------\n"
                               "----------Begin global rank 1 STDERR----------\n" +
                            std::string(kClosed) +
                            "\n----------End global rank 1 STDERR----------\n"
                            "Global rank 3 (PID 1003412) exited with code 1\n"
                            "----------Begin global rank 3 STDERR----------\n" +
                            kKeyError +
                            "\n----------End global rank 3 STDERR----------\n"
                            "ERROR:composer.cli.launcher:Global rank 1 (PID 1003410) exited with code 1\n"}});
    REQUIRE_FALSE(r.diagnoses.empty());
    CHECK(r.diagnoses[0].entry->id == "unrecognized-exception");
    CHECK(r.diagnoses[0].initiating_rank == 3);
  }
}

TEST_CASE("bare device-side assert lines: the one rank that then reports the assert asserted") {
  const std::string assertion =
      "/opt/conda/conda-bld/pytorch_1695392035891/work/aten/src/ATen/native/cuda/Loss.cu:94: operator(): block: "
      "[117,0,0], thread: [26,0,0] Assertion `input_val >= zero && input_val <= one` failed.\n";
  auto watchdog = [](int rank) {
    return "[E ProcessGroupNCCL.cpp:915] [Rank " + std::to_string(rank) +
           "] NCCL watchdog thread terminated with exception: CUDA error: device-side assert triggered\n";
  };
  SUBCASE("one rank's watchdog reports it") {
    auto r = diagnose({{"console.log", assertion + assertion + watchdog(1)}});
    REQUIRE_FALSE(r.diagnoses.empty());
    CHECK(r.diagnoses[0].entry->id == "cuda-assert-bce-input-out-of-range");
    CHECK(r.diagnoses[0].initiating_rank == 1);
  }
  SUBCASE("two ranks report it: both asserted, the lines do not say which first") {
    auto r = diagnose({{"console.log", assertion + watchdog(1) + assertion + watchdog(3)}});
    REQUIRE_FALSE(r.diagnoses.empty());
    CHECK(r.diagnoses[0].entry->id == "cuda-assert-bce-input-out-of-range");
    CHECK(r.diagnoses[0].initiating_rank == -1);
  }
}
