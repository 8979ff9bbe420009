// Engine behaviour on log excerpts in the shape real users paste into issue trackers.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "denpex/logs/diagnoser.h"
#include "denpex/logs/events.h"
#include "entries.h"

using namespace denpex;

namespace {
using testing::test_entry;
std::vector<core::Entry> library() {
  return {test_entry("mismatch", core::Role::Initiator, core::Severity::Fatal, R"(Detected mismatch between collectives on ranks)"),
          test_entry("oom", core::Role::Initiator, core::Severity::Fatal, R"(CUDA out of memory\. Tried to allocate)"),
          test_entry("deprecation", core::Role::Either, core::Severity::Info,
                R"(torch\.utils\.checkpoint: the use_reentrant parameter should be passed explicitly)"),
          test_entry("overflow", core::Role::Either, core::Severity::Info, R"(OVERFLOW! Rank \d+ Skipping step)"),
          test_entry("teardown", core::Role::Collateral, core::Severity::Fatal,
                R"(To avoid data inconsistency, we are taking the entire process down)", 0.6),
          test_entry("watchdog", core::Role::Collateral, core::Severity::Fatal,
                R"(Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=(?P<seq>\d+))", 0.75)};
}
logs::Report diagnose(const std::string& name, const std::vector<std::string>& lines) {
  static auto lib = library();
  static logs::Matcher m(lib);
  logs::Diagnoser d(m);
  auto in = d.open(name);
  // One read, as the CLI's 1 MiB reads deliver a pasted excerpt.
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  d.feed(in, text);
  return d.finish();
}

// torchrun's summary when only the `Failures:` part was pasted; the worker's traceback is copied
// into the table under `traceback :` (torch/distributed/elastic/multiprocessing/errors).
const std::vector<std::string> kFailuresTable = {
    "============================================================",
    "bug.py FAILED",
    "------------------------------------------------------------",
    "Failures:",
    "[1]:",
    "  time      : 2025-03-11_18:33:20",
    "  host      : lenovo",
    "  rank      : 1 (local_rank: 1)",
    "  exitcode  : 1 (pid: 340055)",
    "  error_file: /tmp/torchelastic_ih8xk_wi/attempt_0/1/error.json",
    "  traceback : Traceback (most recent call last):",
    "    File \"/usr/lib/python3.12/site-packages/torch/distributed/elastic/multiprocessing/errors/__init__.py\", line 355, in wrapper",
    "      return f(*args, **kwargs)",
    "    File \"/home/user/bug.py\", line 16, in main",
    "      dist.barrier()",
    "  RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: "
    "CollectiveFingerPrint(SequenceNumber=1OpType=BARRIER), but Rank 2 is running collective: "
    "CollectiveFingerPrint(SequenceNumber=0OpType=BARRIER).",
    "------------------------------------------------------------",
};
}  // namespace

TEST_CASE("a traceback copied into torchrun's Failures table belongs to that entry's rank") {
  logs::EventTracker t;
  for (size_t i = 0; i < kFailuresTable.size(); ++i) t.feed(i + 1, kFailuresTable[i]);
  t.finish();
  REQUIRE(t.table_tracebacks().size() == 1);
  CHECK(t.table_tracebacks()[0].rank == 1);
  CHECK(t.table_tracebacks()[0].first_line == 11);
  CHECK(t.table_tracebacks()[0].last_line == 16);
  CHECK(t.table_traceback_rank(16) == 1);
  CHECK(t.table_traceback_rank(17) == -1);
  CHECK(t.other_failed_ranks() == std::vector<int>{1});
}

TEST_CASE("an unprefixed fault inside torchrun's table is attributed to the table's rank") {
  auto r = diagnose("train.log", kFailuresTable);
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].entry->id == "mismatch");
  CHECK(r.diagnoses[0].initiating_rank == 1);
}

TEST_CASE("an unprefixed fault takes the rank torchrun names as root cause in the same output") {
  // torch < 2.2: workers print without `[rankN]:`; the agent's table names the first failure.
  auto r = diagnose("train.log", {
                                     "Traceback (most recent call last):",
                                     "  File \"train.py\", line 40, in <module>",
                                     "    loss = model(x).sum()",
                                     "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 3 has a "
                                     "total capacity of 79.15 GiB of which 1.06 GiB is free.",
                                     "------------------------------------------------------------",
                                     "Root Cause (first observed failure):",
                                     "[0]:",
                                     "  time      : 2024-10-02_18:06:40",
                                     "  host      : gpu-node-03",
                                     "  rank      : 3 (local_rank: 3)",
                                     "  exitcode  : 1 (pid: 4242)",
                                     "  error_file: <N/A>",
                                     "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
                                     "============================================================",
                                 });
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].entry->id == "oom");
  CHECK(r.diagnoses[0].initiating_rank == 3);
  CHECK(r.diagnoses[0].initiating_node == "gpu-node-03");
}

TEST_CASE("a healthy run with only info-level notices gets no diagnosis") {
  auto r = diagnose("train.log",
                    {"  0%|          | 0/200 [00:00<?, ?it/s]/usr/lib/python3.10/site-packages/torch/utils/checkpoint.py:464: "
                     "UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. In "
                     "version 2.4 we will raise an exception if use_reentrant is not passed.",
                     "  warnings.warn(",
                     "[2024-01-01 10:00:00,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 "
                     "Skipping step. Attempted loss scale: 65536, reducing to 32768",
                     "{'loss': 2.9043, 'learning_rate': 4.999641867738336e-05, 'epoch': 0.02}"});
  CHECK(r.diagnoses.empty());
}

TEST_CASE("info-level notices do not hide a real failure next to them") {
  auto r = diagnose("train.log", {"/usr/lib/python3.10/site-packages/torch/utils/checkpoint.py:464: UserWarning: "
                                  "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly.",
                                  "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 5.80 GiB total capacity)"});
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].entry->id == "oom");
}

TEST_CASE("with only symptoms, the most specific one is reported, not the teardown printed first") {
  auto r = diagnose("train.log",
                    {"[rank1]:[E ProcessGroupNCCL.cpp:583] [Rank 1] To avoid data inconsistency, we are taking the entire process down.",
                     "[rank1]:[E ProcessGroupNCCL.cpp:1414] [PG 0 Rank 1] Process group watchdog thread terminated with exception: "
                     "[Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1474236, OpType=_ALLGATHER_BASE, "
                     "NumelIn=262675456, NumelOut=1050701824, Timeout(ms)=600000) ran for 600096 milliseconds before timing out."});
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].entry->id == "watchdog");
  CHECK(r.diagnoses[0].first_error.line == 2);
}

TEST_CASE("a [rankN]: prefix behind a collector's timestamp still names the rank") {
  // The user's log collector stamps every line before the launcher's `[rankN]:` prefix.
  auto r = diagnose("train.log",
                    {"2024-11-20 14:37:15 DEBUG:filelock:Lock 140341412642880 released on /root/.triton/autotune/mm.pickle.lock",
                     "2024-11-20 14:37:16 [rank5]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 132.00 MiB. "
                     "GPU 5 has a total capacity of 79.10 GiB of which 98.00 MiB is free.",
                     "2024-11-20 14:37:16 DEBUG:filelock:Attempting to acquire lock 140341412642880"});
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].entry->id == "oom");
  CHECK(r.diagnoses[0].initiating_rank == 5);
}

TEST_CASE("a [rankN]: mentioned in the middle of a message is not a prefix") {
  auto r = diagnose("train.log", {"RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB; see the lines marked [rank2]: above"});
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].initiating_rank == -1);
}
