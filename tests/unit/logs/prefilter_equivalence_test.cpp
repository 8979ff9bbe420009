#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <filesystem>
#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/diagnoser.h"
#include "denpex/server/diagnose_render.h"
#include "snapshot.h"

// The literal prefilter may change what `diagnose` costs, never what it reports. The CLI only
// builds it after 8 MiB, so ordinary tests never reach it: here it is forced on from the first
// byte and the report must equal the one made without it, byte for byte. Extra files (a large
// generated log) can be cross-checked with DENPEX_PREFILTER_CHECK_PATHS=a.log:b.log.
namespace {

using Inputs = std::vector<std::pair<std::string, std::string>>;

std::string report(const denpex::logs::Matcher& m, const Inputs& inputs, size_t prefilter_after, size_t piece) {
  denpex::logs::DiagnoseOptions o;
  o.prefilter_after = prefilter_after;
  denpex::logs::Diagnoser d(m, o);
  for (const auto& [name, bytes] : inputs) {
    uint32_t id = d.open(name);
    for (size_t pos = 0; pos < bytes.size(); pos += piece) d.feed(id, std::string_view(bytes).substr(pos, piece));
    d.close(id);
  }
  return denpex::features::diagnose_json(d.finish()).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void check_same(const denpex::logs::Matcher& m, const std::string& what, const Inputs& inputs) {
  for (size_t piece : {size_t(1) << 20, size_t(4093)}) {
    CAPTURE(what);
    CAPTURE(piece);
    CHECK(report(m, inputs, 0, piece) == report(m, inputs, SIZE_MAX, piece));
  }
}

}  // namespace

TEST_CASE("prefilter: every library example together, and every fixture, report the same with and without it") {
  auto lib = denpex::encyclopedia::Library::builtin();
  denpex::logs::Matcher matcher(lib.entries());
  std::string all;
  for (const auto& e : lib.entries())
    for (const auto* list : {&e.examples_match, &e.examples_no_match})
      for (const auto& ex : *list) all += ex + "\n";
  REQUIRE(all.size() > 100000);
  check_same(matcher, "all examples", {{"all.log", all}});

  namespace fs = std::filesystem;
  for (const char* dir : {"tests/fixtures/logs", "examples/oom-cascade"}) {
    std::vector<fs::path> files;
    for (const auto& f : fs::recursive_directory_iterator(denpex::testing::source_path(dir)))
      if (f.is_regular_file()) files.push_back(f.path());
    std::sort(files.begin(), files.end());
    REQUIRE(!files.empty());
    for (const auto& f : files)
      check_same(matcher, f.string(), {{f.filename().string(), denpex::testing::read_file(f.string())}});
  }
  if (const char* extra = std::getenv("DENPEX_PREFILTER_CHECK_PATHS")) {
    std::stringstream paths(extra);
    for (std::string p; std::getline(paths, p, ':');)
      if (!p.empty()) check_same(matcher, p, {{fs::path(p).filename().string(), denpex::testing::read_file(p)}});
  }
}
