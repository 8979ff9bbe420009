#include <doctest/doctest.h>

#include "denpex/logs/attribution.h"
#include "denpex/logs/events.h"

using namespace denpex;

TEST_CASE("attribution reads ranks, local ranks and nodes from real prefixes") {
  auto a = logs::attribute_line("[rank3]:[E1002 18:16:40.663 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught");
  CHECK(a.rank == 3);
  CHECK(a.strip == 8);
  auto b = logs::attribute_line("[I1206 ProcessGroupNCCL.cpp:913] [PG 0 (default_pg) Rank 6] ProcessGroupNCCL initialization");
  CHECK(b.rank == 6);
  CHECK(b.strip == 0);
  auto c = logs::attribute_line("gpu-node-07:2211:2290 [3] NCCL WARN NET/IB : Got completion from peer");
  CHECK(c.rank == -1);
  CHECK(c.local_rank == 3);
  CHECK(c.node == "gpu-node-07");
  auto d = logs::attribute_line("srun: error: node-05: task 3: Exited with exit code 1");
  CHECK(d.rank == 3);
  CHECK(d.node == "node-05");
  auto e = logs::attribute_line("[1,7]<stderr>:RuntimeError: boom");
  CHECK(e.rank == 7);
  CHECK(logs::attribute_line("Ranked 3 [not a rank] NCCL").empty());
  CHECK(logs::attribute_line("[2024-01-01 12:00:00,000] [INFO] [engine.py:1] [rank 5] loss scale 1024").rank == 5);
  CHECK(logs::attribute_line("the rank 5 of them").rank == -1);
  CHECK(logs::attribute_line("slurmstepd-node-07: error: Exceeded job memory limit").strip == 0);
  // GNU parallel --tag: the argument (a host) and a TAB.
  auto g = logs::attribute_line("gpu-a01\tWARNING:torch.distributed.elastic.multiprocessing.api:Sending process 11757 closing signal SIGTERM");
  CHECK(g.node == "gpu-a01");
  CHECK(g.strip == 8);
  CHECK(logs::attribute_line("0\tstep 4 loss 0.2").node.empty());
  CHECK(logs::attribute_line("model.py\tline 3").node.empty());
  // A runner's ASCII frame around its child's output (milabench): the rank behind it.
  auto f = logs::attribute_line("        | [rank0]: FileNotFoundError: Caught FileNotFoundError in DataLoader worker process 2.");
  CHECK(f.rank == 0);
  CHECK(f.body("        | [rank0]: FileNotFoundError: x").starts_with("FileNotFoundError"));
  CHECK(logs::attribute_line("| [rank3]: Traceback (most recent call last):").rank == 3);
  CHECK(logs::attribute_line("|rank3| not a frame").strip == 0);
}

TEST_CASE("file names attribute whole inputs") {
  CHECK(logs::attribute_file("/logs/rank3.log").rank == 3);
  CHECK(logs::attribute_file("logs/worker_12.out").rank == 12);
  // torchrun --log_dir: <run_id>/attempt_<n>/<local_rank>/stderr.log
  CHECK(logs::attribute_file("run/treernn_snt3h42t/attempt_0/3/stderr.log").rank == 3);
  CHECK(logs::attribute_file("run/treernn_snt3h42t/attempt_0/3/stderr.log").local_rank == 3);
  CHECK(logs::attribute_file("run/attempt_1/0/stdout.log").rank == 0);
  CHECK(logs::attribute_file("run/results/3/stderr.log").rank == -1);  // not torchrun's layout
  // Open MPI --output-filename DIR: DIR/<job>/rank.<N>/{stdout,stderr}, N the world rank
  CHECK(logs::attribute_file("mpi_out/1/rank.3/stderr").rank == 3);
  CHECK(logs::attribute_file("mpi_out/1/rank.12/stdout").rank == 12);
  CHECK(logs::attribute_file("mpi_out/1/rank.3/stderr").local_rank == -1);
  CHECK(logs::attribute_file("mpi_out/1/rank.x/stderr").rank == -1);
  CHECK(logs::attribute_file("out/1/stderr").rank == -1);
  CHECK(logs::attribute_file("node-05.out").node == "node-05");
  CHECK(logs::attribute_file("host-a.log").node == "host-a");
  CHECK(logs::attribute_file("logs/w1.log").rank == 1);
  CHECK(logs::attribute_file("r12.out").rank == 12);
  CHECK(logs::attribute_file("w1x.log").rank == -1);
  CHECK(logs::attribute_file("run2.log").rank == -1);
  CHECK(logs::attribute_file("gpu-node3.log").node == "node3");
  CHECK(logs::attribute_file("1902-pdsh-two-node-demand.log").node.empty());  // a description, not a host
  CHECK(logs::attribute_file("single_host_run.log").node.empty());
  CHECK(logs::attribute_file("agent-second-node.log").node.empty());  // the word, not a name
  CHECK(logs::attribute_file("dmesg-node-02.log").node == "node-02");
  CHECK(logs::is_kernel_log_name("x/dmesg-node-02.log"));
  CHECK_FALSE(logs::is_kernel_log_name("x/train.log"));
  CHECK(logs::attribute_file("train.log").empty());
  // A file numbered by its process id (held-out 5301): no rank; a file named for its rank keeps it.
  CHECK(logs::attribute_file("logs/worker-22186.log").rank == -1);
  CHECK(logs::attribute_file("logs/worker-3.log").rank == 3);
  CHECK(logs::attribute_file("rank-1500.log").rank == 1500);
}

TEST_CASE("a logger named for its rank attributes the line") {
  // Python logging `%(asctime)s %(levelname)s %(name)s %(message)s` (held-out 5301).
  CHECK(logs::attribute_line("2026-12-07 18:14:52,606 ERROR train.r2 unhandled exception").rank == 2);
  CHECK(logs::attribute_line("2026-12-07 18:14:51,993 INFO trainer.rank3 step 10 loss 1.3717").rank == 3);
  CHECK(logs::attribute_line("2026-12-07 18:14:51,993 INFO trainer.run2 step 10").rank == -1);
  CHECK(logs::attribute_line("INFO train.r2 no timestamp, no logging format").rank == -1);
}

TEST_CASE("timestamps in iso, glog and syslog formats order events") {
  auto iso = logs::parse_timestamp("2024-05-01 12:34:56,789 INFO x");
  auto iso2 = logs::parse_timestamp("[2024-05-01T12:34:57.000Z] y");
  REQUIRE(iso);
  REQUIRE(iso2);
  CHECK(*iso < *iso2);
  auto glog = logs::parse_timestamp("[rank0]:[E0501 12:35:02.118311000 ProcessGroupNCCL.cpp:1595] x");
  auto sys = logs::parse_timestamp("May  1 12:34:56 node-02 kernel: NVRM: Xid");
  REQUIRE(glog);
  REQUIRE(sys);
  CHECK(*sys < *glog);
  // A rank's ISO stamp and a kernel line's syslog stamp (no year) of the same day compare by time
  // (a year in one of them must not put it after every yearless stamp).
  auto rank_iso = logs::parse_timestamp("2024-05-01 12:34:58,000 INFO x");
  REQUIRE(rank_iso);
  CHECK(*sys < *rank_iso);
  CHECK(*rank_iso < *glog);
  auto dmesg_t = logs::parse_timestamp("[Wed May  1 12:34:57 2024] NVRM: Xid (PCI:0000:5d:00): 79");
  REQUIRE(dmesg_t);
  CHECK(*dmesg_t < *rank_iso);
  // torchrun's failure table: a field saying when a process failed, not when the line was printed.
  CHECK_FALSE(logs::parse_timestamp("  time      : 2024-10-02_18:06:40"));
  CHECK_FALSE(logs::parse_timestamp("\xe2\x94\x82   time      : 2024-10-02_18:06:40"));
  CHECK(logs::parse_timestamp("node-05: 2024-10-02 18:06:40,123 INFO step 3"));
  CHECK_FALSE(logs::parse_timestamp("step 100 loss 2.5"));
  CHECK_FALSE(logs::parse_timestamp("[ 4254.197816] NVRM: Xid"));
}

TEST_CASE("tracebacks yield the final exception and how it was chained") {
  logs::EventTracker t;
  const char* lines[] = {
      "Traceback (most recent call last):",
      "  File \"a.py\", line 3, in <module>",
      "    f()",
      "KeyError: 'weight'",
      "",
      "The above exception was the direct cause of the following exception:",
      "",
      "Traceback (most recent call last):",
      "  File \"a.py\", line 9, in <module>",
      "    g()",
      "RuntimeError: loading failed",
      "During handling of the above exception, another exception occurred:",
      "Traceback (most recent call last):",
      "  File \"a.py\", line 12, in <module>",
      "SystemExit: 1",
      "terminate called after throwing an instance of 'c10::DistBackendError'",
      "  what():  [PG 0 Rank 1] NCCL watchdog thread terminated",
  };
  uint64_t n = 0;
  for (const char* l : lines) t.feed(++n, l);
  t.finish();
  REQUIRE(t.exceptions().size() == 4);
  CHECK(t.exceptions()[0].type == "KeyError");
  CHECK(t.exceptions()[0].chained.empty());
  CHECK(t.exceptions()[0].frames == 1);
  CHECK(t.exceptions()[1].type == "RuntimeError");
  CHECK(t.exceptions()[1].chained == "direct-cause");
  CHECK(t.exceptions()[2].chained == "during-handling");
  CHECK(t.exceptions()[3].from_terminate);
  CHECK(t.exceptions()[3].type == "c10::DistBackendError");
  CHECK(t.exceptions()[3].message == "[PG 0 Rank 1] NCCL watchdog thread terminated");
}

TEST_CASE("torchrun's root-cause table is parsed, failures listed apart") {
  logs::EventTracker t;
  const char* lines[] = {
      "Failures:",           "[1]:",
      "  time      : 2024-10-02_18:16:42", "  host      : gpu-node-03",
      "  rank      : 0 (local_rank: 0)",   "  exitcode  : -6 (pid: 2166)",
      "  traceback : Signal 6 (SIGABRT) received by PID 2166",
      "------------------------------------------------------------",
      "Root Cause (first observed failure):", "[0]:",
      "  time      : 2024-10-02_18:06:40", "  host      : gpu-node-03",
      "  rank      : 5 (local_rank: 5)",   "  exitcode  : 1 (pid: 2171)",
      "  error_file: <N/A>",
      "============================================================",
  };
  uint64_t n = 0;
  for (const char* l : lines) t.feed(++n, l);
  t.finish();
  REQUIRE(t.root_causes().size() == 1);
  CHECK(t.root_causes()[0].rank == 5);
  CHECK(t.root_causes()[0].local_rank == 5);
  CHECK(t.root_causes()[0].host == "gpu-node-03");
  CHECK(t.root_causes()[0].exitcode == 1);
  CHECK(t.other_failed_ranks() == std::vector<int>{0});
}

TEST_CASE("exception lines are told apart from prose") {
  CHECK(logs::split_exception_line("torch.OutOfMemoryError: CUDA out of memory."));
  CHECK(logs::split_exception_line("KeyboardInterrupt"));
  // A C accelerator module's class (held-out 5601).
  auto csv = logs::split_exception_line("_csv.Error: field larger than field limit (131072)");
  REQUIRE(csv);
  CHECK(csv->first == "_csv.Error");
  CHECK_FALSE(logs::split_exception_line("__main__"));
  CHECK_FALSE(logs::split_exception_line("_: loss went up"));
  CHECK_FALSE(logs::split_exception_line("Epoch 3: loss went up"));
  CHECK_FALSE(logs::split_exception_line("  RuntimeError: indented source line"));
  // A class of the job's own, outside the Error/Exception naming: only where a traceback's frames end.
  bool unconventional = false;
  CHECK_FALSE(logs::split_exception_line("VocabMismatch: tokenizer has 32003 entries"));
  CHECK(logs::split_exception_line("VocabMismatch: tokenizer has 32003 entries", true, &unconventional));
  CHECK(unconventional);
  CHECK(logs::split_exception_line("data.checks.FeatureSchemaDrift: column 7 is float64", true));
  CHECK(logs::split_exception_line("KeyError: 'labels'", true, &unconventional));
  CHECK_FALSE(unconventional);
  // A C module's own class (real: a damaged feature block, bench/causality/heldout47, 4703).
  CHECK(logs::split_exception_line("zlib.error: Error -3 while decompressing data: incorrect header check", true, &unconventional));
  CHECK(unconventional);
  CHECK(logs::split_exception_line("struct.error: unpack requires a buffer of 4 bytes", true));
  CHECK_FALSE(logs::split_exception_line("zlib.error: Error -3 while decompressing data", false));
  CHECK_FALSE(logs::split_exception_line("error: Error -3", true));
  CHECK_FALSE(logs::split_exception_line("zlib.error", true));
  for (const char* prose : {"Epoch: 3", "INFO: saved", "VocabMismatch", "TrainingConfig:", "Loss Went: up", "dataConfig: x"})
    CHECK_MESSAGE(!logs::split_exception_line(prose, true), prose);
  CHECK(logs::looks_like_error("ERROR: something"));
  CHECK_FALSE(logs::looks_like_error("step 10 loss 2.1"));
}

TEST_CASE("NCCL lines with the source location still name their host and device") {
  auto a = logs::attribute_line("trainer-worker-3:41:41 [1] init.cc:981 NCCL WARN Invalid rank requested : 4/4");
  CHECK(a.node == "trainer-worker-3");
  CHECK(a.local_rank == 1);
  CHECK(logs::attribute_line(" NCCL WARN something").node.empty());
  CHECK(logs::attribute_line("see [1] notes.cc:3 NCCL docs").node.empty());
  // Host prefixes mark the node as the line's own (lines without ranks are told apart by it).
  auto p = logs::attribute_line("worker-1: Traceback (most recent call last):");
  CHECK(p.node == "worker-1");
  CHECK(p.node_prefix);
  CHECK_FALSE(a.node_prefix);
  // Lettered hosts (pdsh -w trn-a,trn-b): one or two lowercase letters after the last `-`.
  CHECK(logs::attribute_line("trn-b: Traceback (most recent call last):").node == "trn-b");
  CHECK(logs::attribute_line("gpu-ab: step 3").node == "gpu-ab");
  for (const char* text : {"x-axis: loss", "Non-fatal: retrying", "re-run: yes", "see-a.b: x", "a-b: c"})
    CHECK_MESSAGE(logs::attribute_line(text).node.empty(), text);
}

TEST_CASE("the worker missing from torchrun's SIGTERM list") {
  CHECK(logs::missing_worker_index({40211, 40212, 40214, 40215}) == 2);
  CHECK(logs::missing_worker_index({16074, 16075, 16076, 16078, 16079, 16080, 16081}) == 3);
  CHECK(logs::missing_worker_index({100, 101, 102}) == -1);        // the gap is at either end: unknown
  CHECK(logs::missing_worker_index({100, 102, 104}) == -1);        // two gaps
  CHECK(logs::missing_worker_index({100}) == -1);
  CHECK(logs::missing_worker_index({102, 100, 100, 103}) == 1);    // order and repeats do not matter
  logs::EventTracker t;
  t.feed(1, "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 53038 closing");
  t.feed(2, "W0311 14:02:16.912000 140234 torch/distributed/elastic/multiprocessing/api.py:897] Sending process 53039 closing signal SIGTERM");
  t.feed(3, "Sending process 53039 closing signal SIGKILL");
  CHECK(t.sigterm_pids() == std::vector<long>{53038, 53039});
}

TEST_CASE("a traceback the input ends inside becomes a cut-off event") {
  logs::EventTracker t;
  t.feed(1, "Traceback (most recent call last):");
  t.feed(2, "  File \"train.py\", line 12, in <module>");
  t.feed(3, "    main()");
  t.feed(4, "  File \"train.py\", line 9, in main");
  t.finish();
  REQUIRE(t.exceptions().size() == 1);
  const auto& ev = t.exceptions()[0];
  CHECK(ev.cut_off);
  CHECK(ev.line == 4);
  CHECK(ev.traceback_line == 1);
  CHECK(ev.type.empty());
  CHECK(logs::describe(ev).find("cut off before its exception line (last frame: File \"train.py\", line 9, in main)") !=
        std::string::npos);
  // A header alone, with no frame, is not an event.
  logs::EventTracker bare;
  bare.feed(1, "Traceback (most recent call last):");
  bare.finish();
  CHECK(bare.exceptions().empty());
}

TEST_CASE("root-cause tables copied from a rendered page") {
  logs::EventTracker t;
  int n = 0;
  for (const char* l : {"Root Cause (first observed failure) :", "[0]:", "time", "host", "2024-03-02 11:20:41", "gpu-box-7",
                        "rank3 (local rank: 3)exitcode: -9 (pid: 51872)error file: <N/A>"})
    t.feed(static_cast<uint64_t>(++n), l);
  t.finish();
  REQUIRE(t.root_causes().size() == 1);
  CHECK(t.root_causes()[0].rank == 3);
  CHECK(t.root_causes()[0].local_rank == 3);
  CHECK(t.root_causes()[0].exitcode == -9);
}

TEST_CASE("logged_rank: the rank a training script's logger put in a line") {
  CHECK(logs::logged_rank("INFO:rank0:saving checkpoint to /ckpt/4.pt") == 0);
  CHECK(logs::logged_rank("2026-12-02 04:42:09.859 | rank 2 | ERROR   | worker failed") == 2);
  CHECK(logs::logged_rank("12:01:02 | ERROR | [RANK 13] training loop crashed") == 13);
  CHECK(logs::logged_rank("ts=1 rank=3 level=error msg=oops") == 3);
  CHECK(logs::logged_rank("rank 1: step 3 failed") == 1);
  // Not a rank of its own: another word, a local rank, a count.
  CHECK(logs::logged_rank("E1002 agent.py:1] failed (exitcode: 1) local_rank: 5 (pid: 4)") == -1);
  CHECK(logs::logged_rank("8 ranks joined") == -1);
  CHECK(logs::logged_rank("Frank 3 said hi") == -1);
  CHECK(logs::logged_rank("rank3x is not a rank") == -1);
  CHECK(logs::logged_rank("step 100 loss 2.5") == -1);
}

TEST_CASE("json_rank: the rank a JSON-lines record carries") {
  CHECK(logs::json_rank(R"({"ts": "2026-12-02T05:39:49.085101Z", "rank": 3, "level": "ERROR", "msg": "x"})") == 3);
  CHECK(logs::json_rank(R"({"rank":12,"msg":"step"})") == 12);
  CHECK(logs::json_rank(R"({"rank": "5", "level": "INFO"})") == 5);
  CHECK(logs::json_rank(R"({"ranks": [1, 2], "msg": "joined"})") == -1);
  CHECK(logs::json_rank(R"({"rank": 1.5})") == -1);
  CHECK(logs::json_rank(R"({"rank": "5x"})") == -1);
  CHECK(logs::json_rank(R"({"rank": 123456789})") == -1);
  CHECK(logs::json_rank(R"(INFO {"rank": 1})") == -1);  // not a record of its own
  CHECK(logs::attribute_line(R"({"time": "05:38:52.912", "rank": 3, "level": "CRITICAL"})").rank == 3);
  CHECK(logs::attribute_line(R"({"time": "05:38:52.912", "rank": 3, "level": "CRITICAL"})").strip == 0);
}

TEST_CASE("logged_pid: the process id a line names beside its words") {
  CHECK(logs::logged_pid("worker rank=2 pid=14702 starting") == 14702);
  CHECK(logs::logged_pid("2026-12-02 04:39:24,543 [pid 12872] INFO train: ready") == 12872);
  CHECK(logs::logged_pid("failed (exitcode: 1) local_rank: 0 (pid: 4242) of binary") == 4242);
  CHECK(logs::logged_pid("PID 77 exited") == 77);
  CHECK(logs::logged_pid("rapid 3 steps") == -1);   // not a word of its own
  CHECK(logs::logged_pid("pid_file=/run/x.pid") == -1);
  CHECK(logs::logged_pid("pid: 12ab") == -1);
  CHECK(logs::logged_pid("pids 1 2 3") == -1);
  CHECK(logs::logged_pid("pid=123456789 x") == -1);  // longer than a pid
  CHECK(logs::attribute_line("node-02:41222:41290 [2] NCCL INFO comm 0x5581a3e0 rank 2 nranks 4").pid == 41222);
}

TEST_CASE("bracket numbers: a job's rank prints come back, a paste's line numbers rise") {
  CHECK(logs::bracket_number("[1] resuming from ckpt.pt") == 1);
  CHECK(logs::bracket_number("   [1745] Traceback (most recent call last):") == 1745);
  CHECK(logs::bracket_number("[rank1]: boom") == -1);
  CHECK(logs::bracket_number("[1]: boom") == -1);
  CHECK(logs::bracket_number("[1,2]<stderr>: x") == -1);
  auto decide = [](std::initializer_list<int> numbers) {
    logs::BracketRanks b;
    for (int n : numbers) b.see(n);
    return b.ranks();
  };
  CHECK(decide({0, 0, 0, 2, 2, 2, 1, 1}));        // each rank's prints in a row
  CHECK(decide({0, 1, 2, 0, 1, 2, 0, 1, 2}));     // round robin
  CHECK_FALSE(decide({0, 1, 2, 0}));              // too few to tell
  CHECK_FALSE(decide({1, 2, 3, 4, 5, 6, 7, 8}));  // a numbered paste
  CHECK_FALSE(decide({1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8}));  // two numbered pastes
  CHECK_FALSE(decide({3, 3, 3, 70, 3, 3}));       // a number no rank of a small job has
}
