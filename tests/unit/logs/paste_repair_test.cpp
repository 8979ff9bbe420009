// Hard-wrapped and flattened pastes are put back into printed lines; logs that only look alike
// (tables, rules, padded consoles) are left alone.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "denpex/logs/paste_repair.h"
#include "snapshot.h"

using denpex::logs::repair_paste;
using denpex::testing::read_file;
using denpex::testing::source_path;

namespace {

// What `fold -w WIDTH` does to a paste: every line cut into pieces of WIDTH bytes.
std::string fold(const std::string& text, size_t width) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string_view line(text.data() + pos, nl - pos);
    do {
      out.append(line.substr(0, width)).push_back('\n');
      line.remove_prefix(std::min(width, line.size()));
    } while (!line.empty());
    pos = nl + 1;
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    out.emplace_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

}  // namespace

TEST_CASE("paste repair: a real log hard-wrapped at a terminal's width is rejoined line for line") {
  // Real torch 1.13 gloo output of four ranks; its traceback lines are the ones wider than 100.
  const std::string log = read_file(source_path("tests/fixtures/logs/multirank/two_failures/job.log"));
  for (size_t width : {100, 120}) {
    CAPTURE(width);
    const std::string wrapped = fold(log, width);
    REQUIRE(wrapped != log);
    auto fixed = repair_paste(wrapped);
    REQUIRE(fixed.has_value());
    CHECK(fixed->text == log);
    CHECK(fixed->physical_lines == lines_of(wrapped).size());
    CHECK(fixed->what.find("hard-wrapped at " + std::to_string(width) + " columns") != std::string::npos);
    // Each printed line is numbered by the first paste line it starts on.
    const auto printed = lines_of(fixed->text);
    const auto pasted = lines_of(wrapped);
    REQUIRE(fixed->physical.size() == printed.size());
    for (size_t i = 0; i < printed.size(); ++i) CHECK(printed[i].starts_with(pasted[fixed->physical[i] - 1]));
  }
}

TEST_CASE("paste repair: a log viewer's frame comes off, and the lines wrapped inside it are rejoined") {
  // A real log shown in a k9s-style frame: each line cut at the frame's inner width, padded to it,
  // between two bars, under a titled top edge wider than the text.
  const std::string log = read_file(source_path("tests/fixtures/logs/multirank/two_failures/job.log"));
  constexpr size_t kInner = 100;
  const std::string bar = "\xe2\x94\x82", dash = "\xe2\x94\x80";
  std::string framed = "\xe2\x94\x8c";
  for (int i = 0; i < 30; ++i) framed += dash;
  framed += " Logs(ml-train/job-5c7f9d8b4-x2kqp:trainer)[tail] ";
  for (int i = 0; i < 30; ++i) framed += dash;
  framed += "\xe2\x94\x90\n";
  std::string expected = framed;
  for (const std::string& line : lines_of(fold(log, kInner)))
    framed += bar + " " + line + std::string(kInner - line.size(), ' ') + " " + bar + "\n";
  for (std::string line : lines_of(log)) {
    while (!line.empty() && line.back() == ' ') line.pop_back();  // padding and a trailing space look alike
    expected += line + "\n";
  }
  auto fixed = repair_paste(framed);
  REQUIRE(fixed.has_value());
  CHECK(fixed->what.find("frame") != std::string::npos);
  CHECK(fixed->what.find("hard-wrapped at 100 columns") != std::string::npos);
  const auto got = lines_of(fixed->text), want = lines_of(expected);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == want[i]);

  SUBCASE("a few framed lines among many plain ones are left alone") {
    std::string mixed = log + bar + " a " + bar + "\n";
    CHECK_FALSE(repair_paste(mixed).has_value());
  }
}

TEST_CASE("paste repair: a test harness's stream labels come off, line for line") {
  // accelerate's `execute_subprocess_async` relays the child's lines as `stdout: ...` and
  // `stderr: ...`; an empty line comes out as the bare label.
  const std::string log = read_file(source_path("tests/fixtures/logs/multirank/two_failures/job.log"));
  std::string labelled, expected;
  size_t n = 0;
  for (std::string line : lines_of(log)) {
    labelled += (n++ % 3 ? "stderr:" : "stdout:") + (line.empty() ? "" : " " + line) + "\n";
    expected += line + "\n";
  }
  auto fixed = repair_paste(labelled);
  REQUIRE(fixed.has_value());
  CHECK(fixed->what.find("`stderr: `/`stdout: ` labels taken off") != std::string::npos);
  const auto got = lines_of(fixed->text), want = lines_of(expected);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == want[i]);

  SUBCASE("a script's own few `stderr: ` lines among plain ones are left alone") {
    CHECK_FALSE(repair_paste(log + "stderr: nothing\nstderr: more\nstderr: again\n").has_value());
  }
}

TEST_CASE("paste repair: a log with its newlines flattened to spaces is cut at its line heads") {
  // torchrun's agent lines after a rank's exception, as a form field flattens them.
  const std::string flat =
      "[rank2]: RuntimeError: shape mismatch: value tensor of shape [3, 1024] cannot be broadcast to indexing result "
      "of shape [3, 512] W1104 09:12:40.126000 81230 site-packages/torch/distributed/elastic/multiprocessing/api.py:897] "
      "Sending process 81244 closing signal SIGTERM E1104 09:12:40.961000 81230 "
      "site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: 1) local_rank: 2 (pid: "
      "81246) of binary: /opt/conda/bin/python\n";
  auto fixed = repair_paste(flat);
  REQUIRE(fixed.has_value());
  const auto printed = lines_of(fixed->text);
  REQUIRE(printed.size() == 3);
  CHECK(printed[0].starts_with("[rank2]: RuntimeError: shape mismatch"));
  CHECK(printed[0].ends_with("[3, 512]"));
  CHECK(printed[1].starts_with("W1104 09:12:40.126000 81230 "));
  CHECK(printed[2].starts_with("E1104 09:12:40.961000 81230 "));
  CHECK(fixed->physical == std::vector<uint64_t>{1, 1, 1});
}

TEST_CASE("paste repair: a flattened traceback gets its frames, source lines and exception back") {
  const std::string flat =
      "Traceback (most recent call last): File \"/workspace/train.py\", line 88, in <module> main() File "
      "\"/workspace/train.py\", line 61, in main loss = model(batch) KeyError: 'input_ids' [rank1]: Traceback (most "
      "recent call last): [rank1]:   File \"/workspace/train.py\", line 88, in <module>\n";
  auto fixed = repair_paste(flat);
  REQUIRE(fixed.has_value());
  CHECK(lines_of(fixed->text) == std::vector<std::string>{
                                     "Traceback (most recent call last):",
                                     "  File \"/workspace/train.py\", line 88, in <module>",
                                     "    main()",
                                     "  File \"/workspace/train.py\", line 61, in main",
                                     "    loss = model(batch)",
                                     "KeyError: 'input_ids'",
                                     "[rank1]: Traceback (most recent call last):",
                                     // the prefix stays with what it was printed before
                                     "[rank1]:   File \"/workspace/train.py\", line 88, in <module>",
                                 });
}

TEST_CASE("paste repair: logs that only look reshaped are left alone") {
  // torchrun's failure table: its `traceback :` rows are the widest lines, each followed by a
  // table index or a rule, which no wrap produces.
  const std::string table =
      "[1]:\n  time      : 2024-03-05_07:01:51\n  rank      : 1 (local_rank: 1)\n"
      "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
      "[2]:\n  time      : 2024-03-05_07:01:51\n  rank      : 2 (local_rank: 2)\n"
      "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
      "[3]:\n  time      : 2024-03-05_07:01:51\n  rank      : 3 (local_rank: 3)\n"
      "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
      "------------------------------------------------------------\n"
      "Root Cause (first observed failure):\n";
  CHECK_FALSE(repair_paste(table).has_value());
  // Lines of one width because a console pads them.
  std::string padded;
  for (int i = 0; i < 6; ++i)
    padded += " WARNING  Sending process 1" + std::to_string(i) + " closing signal SIGTERM         api.py:699\n";
  CHECK_FALSE(repair_paste(padded).has_value());
  // A long line that mentions one timestamp is not a flattened log.
  CHECK_FALSE(repair_paste("RuntimeError: [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=9120, "
                           "OpType=BROADCAST, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600046 milliseconds "
                           "before timing out; first seen 2024-05-01 12:00:00\n")
                  .has_value());
  // Every log the tests hold (real runs, real message texts), except the reshaped pastes.
  size_t seen = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(source_path("tests/fixtures/logs"))) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file() || name.starts_with("wrapped-") || name.starts_with("flattened-") ||
        name.starts_with("reversed-") || name.ends_with(".md"))
      continue;
    CAPTURE(e.path().string());
    // Real runs whose ranks print() at once glue lines; splitting them is the one repair such
    // a log may get.
    if (auto r = repair_paste(read_file(e.path()))) {
      CAPTURE(r->what);
      CHECK(r->what.ends_with("where two processes' prints landed glued together split"));
      CHECK(r->what.find(';') == std::string::npos);
    }
    ++seen;
  }
  CHECK(seen >= 40);
}

TEST_CASE("paste repair: adversarial lines stay linear and change nothing they should not") {
  // Half a MiB of frame heads with no `", line N`: each head must not search the whole line.
  std::string heads;
  while (heads.size() < (512u << 10)) heads += " File \"x";
  heads += "\n";
  CHECK_FALSE(repair_paste(heads).has_value());
  // A line of glog heads is cut at each of them, however many.
  std::string glog;
  for (int i = 0; i < 2000; ++i) glog += "W0227 23:25:08.126000 227320 api.py:897] Sending process 1 closing signal SIGTERM ";
  glog += "\n";
  auto fixed = repair_paste(glog);
  REQUIRE(fixed.has_value());
  CHECK(fixed->physical.size() == 2000);
}

TEST_CASE("paste repair: Markdown bold around a whole line comes off, bold inside a line stays") {
  const std::string paste =
      "> Traceback (most recent call last):\n"
      ">   File \"tools/train.py\", line 99, in main\n"
      ">     backend=\"nccl\", init_method=\"env://\",\n"
      "> **RuntimeError: Address already in use**\n"
      "the **second** run failed\n"
      "**  spaced  **\n";
  auto r = repair_paste(paste);
  REQUIRE(r);
  CHECK(r->text.find("> RuntimeError: Address already in use\n") != std::string::npos);
  CHECK(r->text.find("the **second** run failed\n") != std::string::npos);
  CHECK(r->text.find("**  spaced  **\n") != std::string::npos);
  CHECK(r->physical.size() == 6);
  CHECK(r->what == "Markdown bold taken off 1 line");
  CHECK_FALSE(repair_paste("**\n****\n** a ** b **\n"));
}

namespace {
std::string upside_down(const std::string& text) {
  std::vector<std::string> lines = lines_of(text);
  std::string out;
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) out += *it + "\n";
  return out;
}
}  // namespace

TEST_CASE("paste repair: a paste from a log viewer that lists the newest line first is turned back") {
  // Real torch 1.13 runs: a torchrun table with `[defaultN]:` tracebacks, and one rank's own file.
  for (const char* name : {"tests/fixtures/logs/pastes/table-sigkill-entry.log",
                           "tests/fixtures/logs/multirank/unknown_exception/ranks/rank2.log",
                           "tests/fixtures/logs/multirank/unknown_exception/job.log"}) {
    const std::string path = name;
    CAPTURE(path);
    const std::string printed = read_file(source_path(name));
    const auto fixed = repair_paste(upside_down(printed));
    REQUIRE(fixed.has_value());
    CHECK(fixed->text == printed);
    CHECK(fixed->what.find("newest first") != std::string::npos);
    // Line 1 as printed is the paste's last line.
    REQUIRE(!fixed->physical.empty());
    CHECK(fixed->physical.front() == fixed->physical_lines);
    CHECK(fixed->physical.back() == 1);
  }
  // One upside-down mark is not enough, and a single right-way-up one vetoes any number.
  CHECK_FALSE(repair_paste("ValueError: bad\n  File \"/w/a.py\", line 3, in <module>\n"
                           "Traceback (most recent call last):\n").has_value());
  CHECK_FALSE(repair_paste("2024-05-01 12:00:09 b\n2024-05-01 12:00:05 a\n2024-05-01 12:00:01 c\n"
                           "Traceback (most recent call last):\n  File \"/w/a.py\", line 3, in <module>\n")
                  .has_value());
  CHECK(repair_paste("2024-05-01 12:00:09 b\n2024-05-01 12:00:05 a\n2024-05-01 12:00:01 c\n").has_value());
}

TEST_CASE("paste repair: two processes' prints glued on one line, their newlines after it, are split") {
  // Real torch 1.13 torchrun output: print() writes text and newline apart, so rank 3's line
  // lands after rank 1's text and the two newlines follow it.
  auto r = repair_paste("rank 1: step 2 loss 1.0753rank 3: step 2 loss 1.0987\n\nrank 2: step 2 loss 1.1190\n");
  REQUIRE(r);
  CHECK(r->text == "rank 1: step 2 loss 1.0753\nrank 3: step 2 loss 1.0987\nrank 2: step 2 loss 1.1190\n");
  CHECK(r->physical == std::vector<uint64_t>{1, 1, 3});
  CHECK(r->what.find("glued") != std::string::npos);
  CHECK(repair_paste("[worker 2] saved shard 12[worker 0] saved shard 3\n\n")->text ==
        "[worker 2] saved shard 12\n[worker 0] saved shard 3\n");

  SUBCASE("the head again after a space is the line's own words") {
    CHECK_FALSE(repair_paste("rank 0: waiting for rank 1: ok\n\nrank 1: done\n"));
  }
  SUBCASE("no empty line after it: no second newline, no glue") {
    CHECK_FALSE(repair_paste("rank 1: step 2 loss 1.0753rank 3: step 2 loss 1.0987\nrank 2: step 2\n"));
  }
  SUBCASE("a line that starts with a number has no head to find again") {
    CHECK_FALSE(repair_paste("12 items in 3 shards12 items in 3 shards\n\n"));
  }
}
