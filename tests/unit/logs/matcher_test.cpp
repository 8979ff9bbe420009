#include <doctest/doctest.h>

#include <set>

#include "denpex/logs/matcher.h"
#include "denpex/logs/normalize.h"
#include "denpex/logs/scan.h"

using namespace denpex;

namespace {
core::Entry entry(std::string id, std::vector<core::Fingerprint> fps) {
  core::Entry e;
  e.id = std::move(id);
  e.fingerprints = std::move(fps);
  return e;
}
core::Fingerprint fp(std::string pattern, double conf = 0.7) {
  core::Fingerprint f;
  f.pattern = std::move(pattern);
  f.confidence = conf;
  return f;
}
}  // namespace

TEST_CASE("normalize_line strips ANSI colour and folds carriage-return rewrites") {
  std::string out;
  logs::normalize_line("\x1b[31mRuntimeError\x1b[0m: boom", out);
  CHECK(out == "RuntimeError: boom");
  logs::normalize_line(" 10%|#         | 1/10\r 20%|##        | 2/10\rEpoch 1 done", out);
  CHECK(out == "Epoch 1 done");
  logs::normalize_line("line with crlf\r", out);
  CHECK(out == "line with crlf");
  logs::normalize_line("\x1b]0;title\x07text", out);
  CHECK(out == "text");
  logs::normalize_line("dangling escape \x1b", out);
  CHECK(out == "dangling escape ");
}

TEST_CASE("rank prefixes of torchrun and mpirun are recognised") {
  auto a = logs::rank_prefix("[rank3]: Traceback (most recent call last):");
  REQUIRE(a);
  CHECK(a->rank == 3);
  CHECK(std::string_view("[rank3]: Traceback").substr(a->length) == "Traceback");
  auto b = logs::rank_prefix("[default12]:RuntimeError: x");
  REQUIRE(b);
  CHECK(b->rank == 12);
  auto c = logs::rank_prefix("[1,7]<stderr>: boom");
  REQUIRE(c);
  CHECK(c->rank == 7);
  CHECK_FALSE(logs::rank_prefix("[rank]: no number"));
  CHECK_FALSE(logs::rank_prefix("[2024-01-01 10:00:00] hello"));
}

TEST_CASE("matcher pulls named captures and applies when, requires and excludes") {
  std::vector<core::Entry> entries;
  auto big = fp("OOM tried (?P<tried>[\\d.]+ GiB) free (?P<free>[\\d.]+ GiB)", 0.8);
  big.when = "free > 2 * tried";
  entries.push_back(entry("frag", {big}));
  auto ctx = fp("OOM tried", 0.9);
  ctx.requires_pattern = "cudagraph_trees\\.py";
  ctx.window = 3;
  entries.push_back(entry("graphs", {ctx}));
  auto ex = fp("OOM tried", 0.5);
  ex.excludes_pattern = "expected in this test";
  entries.push_back(entry("plain", {ex}));
  logs::Matcher m(entries);
  REQUIRE(m.ok());

  auto hits = logs::scan_text(m, "OOM tried 1.0 GiB free 3.0 GiB\n");
  std::set<std::string> ids;
  for (const auto& h : hits) ids.insert(entries[h.entry].id);
  CHECK(ids == std::set<std::string>{"frag", "plain"});
  for (const auto& h : hits)
    if (entries[h.entry].id == "frag") CHECK(h.captures.at("tried") == "1.0 GiB");

  hits = logs::scan_text(m, "File \"torch/_inductor/cudagraph_trees.py\", line 1\nx\nOOM tried 1.0 GiB free 1.0 GiB\n");
  ids.clear();
  for (const auto& h : hits) ids.insert(entries[h.entry].id);
  CHECK(ids == std::set<std::string>{"graphs", "plain"});

  // The requirement is out of the 3-line window here, and the exclusion is near.
  hits = logs::scan_text(m, "cudagraph_trees.py\n1\n2\n3\n4\nOOM tried 1 GiB free 1 GiB\nexpected in this test\n");
  CHECK(hits.empty());
}

TEST_CASE("context rules look at the same rank only") {
  std::vector<core::Entry> entries;
  auto ctx = fp("boom", 0.9);
  ctx.requires_pattern = "context line";
  entries.push_back(entry("ctx", {ctx}));
  logs::Matcher m(entries);
  CHECK(logs::scan_text(m, "[rank1]: context line\n[rank2]: boom\n").empty());
  CHECK(logs::scan_text(m, "[rank2]: context line\n[rank2]: boom\n").size() == 1);
}
