#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "denpex/logs/diagnoser.h"
#include "entries.h"

using namespace denpex;

namespace {
// Engine tests here do not depend on severity: every entry is an error.
core::Entry entry(std::string id, core::Role role, std::string pattern, double conf = 0.8) {
  return testing::test_entry(std::move(id), role, core::Severity::Error, std::move(pattern), conf);
}
std::vector<core::Entry> library() {
  return {entry("oom", core::Role::Initiator, R"(CUDA out of memory\. Tried to allocate (?P<tried>[\d.]+ [KMGT]?i?B))"),
          entry("timeout", core::Role::Collateral,
                R"(Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=(?P<seq>\d+))"),
          entry("anchored", core::Role::Initiator, R"(^Unsupported: (?P<reason>.+))")};
}
}  // namespace

TEST_CASE("the earliest initiating fault wins over collateral seen first or later") {
  auto lib = library();
  logs::Matcher m(lib);
  logs::Diagnoser d(m);
  auto in = d.open("train.log");
  d.feed(in, "[rank0]:[E] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=X)\n");
  d.feed(in, "[rank4]:RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n");
  d.feed(in, "[rank1]:[E] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=X)\n");
  auto r = d.finish();
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].entry->id == "oom");
  CHECK(r.diagnoses[0].initiating_rank == 4);
  CHECK(r.diagnoses[0].first_error.line == 2);
  CHECK(r.diagnoses[0].collateral.size() == 2);
  CHECK(r.diagnoses[0].captures.at("tried") == "2.00 GiB");
}

TEST_CASE("lines split across feeds, CRLF and a missing final newline are handled") {
  auto lib = library();
  logs::Matcher m(lib);
  logs::Diagnoser d(m);
  auto in = d.open("x.log");
  std::string text = "a\r\nb\r\n[rank2]: CUDA out of mem";
  d.feed(in, text);
  d.feed(in, "ory. Tried to allocate 1.00 GiB");
  auto r = d.finish();
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].first_error.line == 3);
  CHECK(r.diagnoses[0].initiating_rank == 2);
  CHECK(r.total_lines == 3);
  CHECK(r.diagnoses[0].context_before == std::vector<std::string>{"a", "b"});
}

TEST_CASE("context keeps the preceding lines across chunks, bounded by --context") {
  auto lib = library();
  logs::Matcher m(lib);
  logs::DiagnoseOptions o;
  o.context = 5;
  logs::Diagnoser d(m, o);
  auto in = d.open("x.log");
  for (int i = 1; i <= 50; ++i) d.feed(in, "line " + std::to_string(i) + "\n");
  d.feed(in, "CUDA out of memory. Tried to allocate 1.00 GiB\n");
  auto r = d.finish();
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].context_first_line == 46);
  CHECK(r.diagnoses[0].context_before.front() == "line 46");
  CHECK(r.diagnoses[0].context_before.back() == "line 50");
}

TEST_CASE("an anchored pattern still matches after a launcher prefix, and the screen does not hide it") {
  auto lib = library();
  logs::Matcher m(lib);
  logs::Diagnoser d(m);
  auto in = d.open("x.log");
  std::string filler;
  for (int i = 0; i < 20000; ++i) filler += "healthy line " + std::to_string(i) + "\n";
  d.feed(in, filler);
  d.feed(in, "[rank3]: Unsupported: call_function foo\n");
  d.feed(in, filler);
  auto r = d.finish();
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].entry->id == "anchored");
  CHECK(r.diagnoses[0].first_error.line == 20001);
  CHECK(r.total_lines == 40001);
}

TEST_CASE("nothing known: no diagnosis, but the first error line and final exception are kept") {
  auto lib = library();
  logs::Matcher m(lib);
  logs::Diagnoser d(m);
  auto in = d.open("x.log");
  d.feed(in, "step 1\nERROR: disk quota exceeded\nTraceback (most recent call last):\n  File \"t.py\", line 1, in <module>\nOSError: [Errno 122] Disk quota exceeded\n");
  auto r = d.finish();
  CHECK(r.diagnoses.empty());
  REQUIRE(r.first_error_line);
  CHECK(r.first_error_line->where.line == 2);
  REQUIRE(r.final_exception);
  CHECK(r.final_exception->event.type == "OSError");
  CHECK(r.final_exception->where.line == 5);
}

TEST_CASE("only timeouts: the rank that never logged the collective is the initiator of the hang") {
  auto lib = library();
  logs::Matcher m(lib);
  logs::Diagnoser d(m);
  auto in = d.open("x.log");
  for (int r = 0; r < 4; ++r) d.feed(in, "[rank" + std::to_string(r) + "]:step 100\n");
  for (int r : {0, 1, 3})
    d.feed(in, "[rank" + std::to_string(r) + "]:Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=X)\n");
  auto r = d.finish();
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].initiating_rank == 2);
  CHECK(r.diagnoses[0].entry->id == "timeout");
}

TEST_CASE("a very long line is bounded and binary input does not break the stream") {
  auto lib = library();
  logs::Matcher m(lib);
  logs::Diagnoser d(m);
  auto in = d.open("x.bin");
  std::string junk(1 << 20, 'x');
  junk[100] = '\0';
  junk[2000] = '\xff';
  for (int i = 0; i < 8; ++i) d.feed(in, junk);
  d.feed(in, "\nCUDA out of memory. Tried to allocate 1.00 GiB\n");
  auto r = d.finish();
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0].binary);
  CHECK(r.total_lines == 2);
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].first_error.line == 2);
}

TEST_CASE("live callback fires once, at the first initiating fault only") {
  auto lib = library();
  logs::Matcher m(lib);
  logs::Diagnoser d(m);
  int calls = 0;
  std::string seen;
  d.on_live_fault([&](const logs::LiveFault& f) {
    ++calls;
    seen = f.entry->id + "@" + std::to_string(f.line);
  });
  auto in = d.open("x");
  d.feed(in, "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1\n");
  CHECK(calls == 0);
  d.feed(in, "CUDA out of memory. Tried to allocate 1 GiB\nCUDA out of memory. Tried to allocate 2 GiB\n");
  CHECK(calls == 1);
  CHECK(seen == "oom@2");
}

// Only lines the screen hits are walked now; what the skipped lines around them used to supply
// must still arrive, with and without the prefilter: where a rank runs (from NCCL's init line, far
// above its failure), the clock (from the nearest stamped line above an unstamped hit), and a
// warning printed on every step as one hit with a count.
TEST_CASE("skipped lines still name a rank's node, lend their clock, and repeats are counted") {
  auto lib = library();
  lib.push_back(testing::test_entry("warn", core::Role::Initiator, core::Severity::Warning,
                                    R"(UserWarning: None of the inputs have requires_grad=True)", 0.5));
  logs::Matcher m(lib);
  // The same text with the prefilter forced on, then never built.
  auto both = [&](const std::string& text) {
    std::vector<logs::Report> reports;
    for (size_t prefilter_after : {size_t(0), SIZE_MAX}) {
      logs::DiagnoseOptions o;
      o.prefilter_after = prefilter_after;
      logs::Diagnoser d(m, o);
      auto in = d.open("train.log");
      d.feed(in, text);
      reports.push_back(d.finish());
    }
    return reports;
  };
  std::string log = "[rank3]:gpu-node-07:4021:4121 [5] NCCL INFO Channel 00/0 : 3[5] -> 4[6] via P2P/IPC/read\n";
  for (int i = 0; i < 2000; ++i) {
    log += "[rank" + std::to_string(i % 8) + "]:step " + std::to_string(i) + " | loss 2.31 | tokens/s 41000\n";
    if (i % 10 == 0) log += "[rank3]:/w/ckpt.py:31: UserWarning: None of the inputs have requires_grad=True\n";
  }
  log += "[rank3]:2024-10-02 18:06:40,100 step 2000 done\n";
  log += "[rank3]:RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n";
  log += "[rank0]:2024-10-02 18:06:50,000 [E] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9, OpType=X)\n";
  for (const auto& r : both(log)) {
    REQUIRE(!r.diagnoses.empty());
    const auto& top = r.diagnoses[0];
    CHECK(top.entry->id == "oom");
    CHECK(top.initiating_rank == 3);
    CHECK(top.initiating_node == "gpu-node-07");
    CHECK(top.initiating_local_rank == 5);
    CHECK(r.total_lines == 2000 + 200 + 4);
  }
  // Rank 1's failure is printed first, but rank 3's is earlier by the clock of the stamped lines
  // just above each (neither failure line has a stamp of its own, nor is a stamped line walked).
  for (const auto& r : both("[rank1]:2024-10-02 18:06:45,000 step 2000 done\n[rank1]:Unsupported: data-dependent branch\n"
                            "[rank3]:2024-10-02 18:06:40,000 step 2000 done\n"
                            "[rank3]:RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n")) {
    REQUIRE(!r.diagnoses.empty());
    CHECK(r.diagnoses[0].entry->id == "oom");
    CHECK(r.diagnoses[0].initiating_rank == 3);
  }
  // The Scanner keeps the first sighting of an advisory fingerprint per source; the rest count.
  logs::Scanner s(m);
  for (uint64_t line = 1; line <= 5; ++line) s.feed(1, line * 10, "UserWarning: None of the inputs have requires_grad=True");
  s.feed(2, 60, "UserWarning: None of the inputs have requires_grad=True");
  auto hits = s.finish();
  REQUIRE(hits.size() == 2);
  CHECK(hits[0].line == 10);
  CHECK(hits[0].repeats == 4);
  CHECK(hits[0].last_line == 50);
  CHECK(hits[1].source == 2);
  CHECK(hits[1].repeats == 0);
}
