#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/builtin_atoms.h"
#include "denpex/logs/matcher.h"
#include "snapshot.h"
#include "../../../analyzers/logs/src/prefilter.h"

// Routing answers lines from the patterns their atoms route to instead of the whole Set: it may
// change what a line costs, never the answer. Every line of every library example and log
// fixture, also behind launcher prefixes and with its case changed, must get the Set's answer.
namespace {

namespace fs = std::filesystem;
using denpex::logs::Matcher;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

std::vector<std::string> corpus(const denpex::encyclopedia::Library& lib) {
  std::vector<std::string> texts;
  for (const auto& e : lib.entries()) {
    for (const auto& ex : e.examples_match) texts.push_back(ex);
    for (const auto& ex : e.examples_no_match) texts.push_back(ex);
  }
  for (const auto& f : fs::recursive_directory_iterator(denpex::testing::source_path("tests/fixtures/logs")))
    if (f.is_regular_file()) texts.push_back(denpex::testing::read_file(f.path().string()));
  std::vector<std::string> lines;
  for (const auto& t : texts)
    for (const auto& l : lines_of(t)) {
      lines.push_back(l);
      lines.push_back("[rank3]:" + l);
      std::string upper = l;
      for (char& c : upper) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c;
      lines.push_back(upper);
    }
  return lines;
}

}  // namespace

TEST_CASE("router: routed lines get the Set's answer, for match and screen") {
  auto lib = denpex::encyclopedia::Library::builtin();
  const auto& built = denpex::logs::builtin_prefilter_atoms();
  const Matcher m(lib.entries(), &built);
  REQUIRE(m.routed());
  size_t lines = 0, hits = 0;
  std::vector<int> routed, by_set;
  for (const auto& line : corpus(lib)) {
    CAPTURE(line);
    m.match(line, &routed);
    m.match_by_set(line, &by_set);
    CHECK(routed == by_set);
    bool f1 = false, f2 = false;
    CHECK(m.screen(line, &f1) == m.screen_by_set(line, &f2));
    CHECK(!f1);
    ++lines;
    hits += by_set.empty() ? 0 : 1;
  }
  // The corpus must exercise both answers.
  CHECK(lines > 10000);
  CHECK(hits > 2000);
}

TEST_CASE("router: the routes computed at build time are the built-in library's") {
  auto lib = denpex::encyclopedia::Library::builtin();
  const Matcher m(lib.entries());
  const auto& built = denpex::logs::builtin_prefilter_atoms();
  std::vector<std::string> cut;
  REQUIRE(denpex::logs::LiteralPrefilter::atoms_for(m.screen_patterns(), &cut));
  CHECK(cut == built.route_atoms);
  CHECK(denpex::logs::LiteralPrefilter::routes_for(m.screen_patterns(), cut) == built.routes);
  // Every screen pattern has a route: none is left out of routing by accident.
  for (const auto& r : built.routes) CHECK(!r.empty());
}

TEST_CASE("router: a matcher over other entries is not routed by the built-in atoms") {
  auto lib = denpex::encyclopedia::Library::builtin();
  auto more = lib.entries();
  more.push_back(more.front());
  more.back().fingerprints.front().pattern = "a pattern of the user's own";
  const Matcher m(more, &denpex::logs::builtin_prefilter_atoms());
  CHECK(!m.routed());
  std::vector<int> ids;
  m.match("a pattern of the user's own", &ids);
  CHECK(!ids.empty());
}

TEST_CASE("router: lines that route to many patterns or hold a folding rune are left to the Set") {
  auto lib = denpex::encyclopedia::Library::builtin();
  const Matcher m(lib.entries(), &denpex::logs::builtin_prefilter_atoms());
  REQUIRE(m.routed());
  // KELVIN SIGN folds to 'k': only the Set's case folding can vouch for such a line.
  for (const std::string& line :
       std::vector<std::string>{"RuntimeError: CUDA out of memory \xe2\x84\xaa", std::string(5000, 'x') + " NCCL WARN"}) {
    std::vector<int> a, b;
    m.match(line, &a);
    m.match_by_set(line, &b);
    CHECK(a == b);
  }
}
