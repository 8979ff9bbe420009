#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/builtin_atoms.h"
#include "denpex/logs/diagnoser.h"
#include "denpex/logs/scan.h"
#include "denpex/server/diagnose_render.h"
#include "snapshot.h"
#include "../../../analyzers/logs/src/prefilter.h"

// The literal prefilter may change what `diagnose` costs, never what it reports. The CLI only
// builds it after 8 MiB, so ordinary tests never reach it: here it is forced on from the first
// byte and the report must equal the one made without it, byte for byte. Extra files (a large
// generated log) can be cross-checked with DENPEX_PREFILTER_CHECK_PATHS=a.log:b.log.
namespace {

using Inputs = std::vector<std::pair<std::string, std::string>>;

std::string report(const denpex::logs::Matcher& m, const Inputs& inputs, size_t prefilter_after, size_t piece,
                   bool own_screen = false, const denpex::logs::PrefilterAtoms* atoms = nullptr) {
  denpex::logs::DiagnoseOptions o;
  o.prefilter_after = prefilter_after;
  o.own_screen = own_screen;
  o.atoms = atoms;
  denpex::logs::Diagnoser d(m, o);
  for (const auto& [name, bytes] : inputs) {
    uint32_t id = d.open(name);
    for (size_t pos = 0; pos < bytes.size(); pos += piece) d.feed(id, std::string_view(bytes).substr(pos, piece));
    d.close(id);
  }
  return denpex::features::diagnose_json(d.finish()).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Also the same with the prefilter built from the atoms computed at build time, and with the
// screen compiled apart, as it was before the matcher's Set answered it
// (Matcher::screen): the shared screen is another fast path that must not change a report.
void check_same(const denpex::logs::Matcher& m, const denpex::logs::Matcher& routed, const std::string& what,
                const Inputs& inputs) {
  for (size_t piece : {size_t(1) << 20, size_t(4093)}) {
    CAPTURE(what);
    CAPTURE(piece);
    const std::string plain = report(m, inputs, SIZE_MAX, piece);
    CHECK(report(m, inputs, 0, piece) == plain);
    CHECK(report(m, inputs, SIZE_MAX, piece, true) == plain);
    // With the atoms computed at build time, as the CLI runs it (where they fit this matcher),
    // and with lines routed by them (src/router.h) as well.
    const auto& built = denpex::logs::builtin_prefilter_atoms();
    if (built.fit(m.screen_patterns())) {
      CHECK(report(m, inputs, 0, piece, false, &built) == plain);
      REQUIRE(routed.routed());
      CHECK(report(routed, inputs, 0, piece, false, &built) == plain);
      CHECK(report(routed, inputs, SIZE_MAX, piece) == plain);
    }
  }
}

}  // namespace

TEST_CASE("prefilter: every library example together, and every fixture, report the same with and without it (and with the screen apart)") {
  auto lib = denpex::encyclopedia::Library::builtin();
  denpex::logs::Matcher matcher(lib.entries());
  const denpex::logs::Matcher routed(lib.entries(), &denpex::logs::builtin_prefilter_atoms());
  std::string all;
  for (const auto& e : lib.entries())
    for (const auto* list : {&e.examples_match, &e.examples_no_match})
      for (const auto& ex : *list) all += ex + "\n";
  REQUIRE(all.size() > 100000);
  check_same(matcher, routed, "all examples", {{"all.log", all}});

  namespace fs = std::filesystem;
  for (const char* dir : {"tests/fixtures/logs", "examples/oom-cascade"}) {
    std::vector<fs::path> files;
    for (const auto& f : fs::recursive_directory_iterator(denpex::testing::source_path(dir)))
      if (f.is_regular_file()) files.push_back(f.path());
    std::sort(files.begin(), files.end());
    REQUIRE(!files.empty());
    for (const auto& f : files)
      check_same(matcher, routed, f.string(), {{f.filename().string(), denpex::testing::read_file(f.string())}});
  }
  if (const char* extra = std::getenv("DENPEX_PREFILTER_CHECK_PATHS")) {
    std::stringstream paths(extra);
    for (std::string p; std::getline(paths, p, ':');)
      if (!p.empty()) check_same(matcher, routed, p, {{fs::path(p).filename().string(), denpex::testing::read_file(p)}});
  }
}

// Real training logs repeat warnings on every step. A dense log: the bundled 8-rank OOM cascade
// with healthy lines of every rank (step metrics, NCCL INFO, tqdm rewrites, coloured INFO) woven
// in, and the encyclopedia's own warning and info examples (the text PyTorch, DeepSpeed and apex
// print, tracebacks included) standing in for a `density` share of the lines, each example
// printed `repeat` times in a row by one rank.
namespace {

std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> out;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    out.emplace_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

std::string dense_log(const denpex::encyclopedia::Library& lib, double density, int repeat) {
  // Examples of warning and info entries that no error entry matches too (an Xid line is also a
  // generic Xid error): errors keep each hit, so their repeats may rightly change the report. So
  // do per-worker reports (tag `per-worker`: each line names another worker).
  denpex::logs::Matcher matcher(lib.entries());
  auto advisory_only = [&](const std::string& ex) {
    for (const auto& h : denpex::logs::scan_text(matcher, ex)) {
      const auto& e = lib.entries()[h.entry];
      if (e.severity == denpex::core::Severity::Fatal || e.severity == denpex::core::Severity::Error) return false;
      if (std::find(e.tags.begin(), e.tags.end(), "per-worker") != e.tags.end()) return false;
    }
    return true;
  };
  std::vector<std::vector<std::string>> advisories;
  for (const auto& e : lib.entries())
    if (e.severity == denpex::core::Severity::Warning || e.severity == denpex::core::Severity::Info)
      for (const auto& ex : e.examples_match)
        if (advisory_only(ex)) advisories.push_back(lines_of(ex));
  REQUIRE(advisories.size() >= 10);
  const auto failure = lines_of(denpex::testing::read_file(denpex::testing::source_path("examples/oom-cascade/train.log")));
  std::string out;
  uint64_t lines = 0, advisory = 0, x = 12345;
  // `lines` and `advisory` count each block once, so every `repeat` draws the same blocks.
  auto put = [&](const std::string& line) {
    out += line;
    out += '\n';
    ++lines;
  };
  for (size_t i = 0; i < failure.size(); ++i) {
    put(failure[i]);
    for (int k = 0; k < 600; ++k) {
      x = x * 6364136223846793005u + 1442695040888963407u;
      const int rank = static_cast<int>((x >> 33) % 8);
      const std::string prefix = "[rank" + std::to_string(rank) + "]:";
      if (advisory < density * static_cast<double>(lines + 1)) {
        const auto& block = advisories[(x >> 40) % advisories.size()];
        for (const auto& l : block) put(prefix + l);
        for (int r = 1; r < repeat; ++r)
          for (const auto& l : block) out += prefix + l + "\n";
        advisory += block.size();
        continue;
      }
      switch ((x >> 45) % 4) {
        case 0: put(prefix + "step " + std::to_string(k) + " | loss 2.4900 | lr 3.00e-04 | tokens/s 41102"); break;
        case 1: put(prefix + "gpu-node-03:2166:2300 [" + std::to_string(rank) + "] NCCL INFO Channel 02/0 : 0[0] -> 1[1] via P2P/IPC/read"); break;
        case 2: put(prefix + "Epoch 3:  41%|####      | 4100/10000 [12:01<14:41,  6.24it/s]\rEpoch 3:  42%|####      | 4200/10000"); break;
        default: put(prefix + "\x1b[32mINFO\x1b[0m 2024-10-02 18:06:" + std::to_string(10 + k % 40) + ",100 saved checkpoint"); break;
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("prefilter: dense logs (1%, 5%, 20% of lines repeated warnings) report the same with and without it (and with the screen apart)") {
  auto lib = denpex::encyclopedia::Library::builtin();
  denpex::logs::Matcher matcher(lib.entries());
  const denpex::logs::Matcher routed(lib.entries(), &denpex::logs::builtin_prefilter_atoms());
  for (double density : {0.01, 0.05, 0.2}) {
    const std::string log = dense_log(lib, density, 1);
    REQUIRE(log.size() > (size_t(4) << 20));
    check_same(matcher, routed, "dense " + std::to_string(density), {{"train.log", log}});
  }
}

TEST_CASE("diagnose: repeating every warning changes counts, not the diagnosis") {
  auto lib = denpex::encyclopedia::Library::builtin();
  denpex::logs::Matcher matcher(lib.entries());
  // Everything but where things are (lines, context) must be equal however often warnings repeat.
  auto summary = [&](int repeat) {
    auto j = nlohmann::json::parse(report(matcher, {{"train.log", dense_log(lib, 0.05, repeat)}}, 0, size_t(1) << 20));
    nlohmann::json out = nlohmann::json::array();
    for (auto d : j["diagnoses"]) {
      d["first_error"].erase("line");
      d.erase("context");
      d.erase("context_first_line");
      for (auto* list : {&d["collateral"], &d["hypotheses"]})
        for (auto& item : *list) item.erase("line");
      out.push_back(d);
    }
    // Findings and hypotheses name where they matched: the place moves, the text must not.
    return std::regex_replace(out.dump(), std::regex(R"(train\.log:\d+)"), "train.log:N");
  };
  const std::string once = summary(1);
  const auto top = nlohmann::json::parse(once).at(0);
  // The OOM on rank 5 (among recompile warnings it may be read as a recompile OOM).
  CHECK(top["severity"] == "fatal");
  CHECK(top["initiating_rank"] == 5);
  CHECK(summary(4) == once);
  CHECK(summary(16) == once);
}

TEST_CASE("prefilter: the atoms computed at build time are the built-in library's, and make the same prefilter") {
  auto lib = denpex::encyclopedia::Library::builtin();
  denpex::logs::Matcher matcher(lib.entries());
  const auto& built = denpex::logs::builtin_prefilter_atoms();
  REQUIRE(built.fit(matcher.screen_patterns()));
  const auto now = denpex::logs::LiteralPrefilter::atoms_for(matcher.screen_patterns());
  REQUIRE(now.has_value());
  CHECK(*now == built.atoms);
  // Other entries (user signatures) do not fit: the prefilter then computes its own.
  auto more = lib.entries();
  more.push_back(more.front());
  more.back().fingerprints.front().pattern = "a pattern of the user's own";
  CHECK(!built.fit(denpex::logs::Matcher(more).screen_patterns()));
  // The same candidates from both halves of build() as from build() itself.
  std::string sample;
  for (const auto& e : lib.entries())
    for (const auto& ex : e.examples_match) sample += ex + "\n";
  const auto whole = denpex::logs::LiteralPrefilter::build(matcher.screen_patterns(), sample);
  const auto halves = denpex::logs::LiteralPrefilter::from_atoms(built.atoms, sample);
  REQUIRE(whole);
  REQUIRE(halves);
  std::vector<std::pair<uint32_t, uint32_t>> a, b;
  CHECK(whole->find(sample, &a) == halves->find(sample, &b));
  CHECK(a == b);
  CHECK(a.size() > 1000);
}

TEST_CASE("prefilter: a text holding a character whose lowercase is ASCII is left to the screen") {
  auto lib = denpex::encyclopedia::Library::builtin();
  denpex::logs::Matcher matcher(lib.entries());
  const auto prefilter = denpex::logs::LiteralPrefilter::from_atoms(denpex::logs::builtin_prefilter_atoms().atoms);
  REQUIRE(prefilter);
  std::vector<std::pair<uint32_t, uint32_t>> hits;
  const std::string plain = "[rank3]:step 12 | loss 2.31 \xe2\x80\xa6 \xc5\x82 done\n";  // other 0xE2 and 0xC5 sequences
  CHECK(prefilter->find(plain, &hits));
  for (const std::string rune : {"\xe2\x84\xaa", "\xc5\xbf"})  // KELVIN SIGN, LATIN SMALL LETTER LONG S
    for (size_t at : {size_t(0), size_t(5), size_t(17), plain.size() - 1}) {
      std::string text = plain;
      text.insert(at, rune);
      CAPTURE(at);
      CHECK(!prefilter->find(text, &hits));
      // A rune cut off by the end of the text is no rune.
      CHECK(prefilter->find(text.substr(0, at + rune.size() - 1), &hits));
    }
}
