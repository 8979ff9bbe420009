// The whole analyzer (parse, semantic layer, every rule) over the Python standard library:
// no crash, and no finding, since no stdlib file imports torch. `denpex check` skips files its
// text prefilter rules out, so the CLI test (python.stdlib_check) no longer parses most of them;
// this test does.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "denpex/python/analyze.h"
#include "snapshot.h"

TEST_CASE("python: every stdlib file is analyzed without a crash or a finding; the prefilter agrees") {
  const std::string stdlib = DENPEX_PY_STDLIB;
  if (stdlib.empty() || !std::filesystem::is_directory(stdlib)) {
    MESSAGE("no Python standard library found at configure time; skipped");
    return;
  }
  size_t files = 0, prefiltered = 0;
  for (const auto& f : std::filesystem::recursive_directory_iterator(stdlib)) {
    if (!f.is_regular_file() || f.path().extension() != ".py") continue;
    const std::string text = denpex::testing::read_file(f.path().string());
    auto a = denpex::python::analyze(std::string_view(text));
    ++files;
    CAPTURE(f.path().string());
    CHECK(a.findings.empty());
    if (!denpex::python::may_have_findings(text)) ++prefiltered;
  }
  CHECK(files > 600);
  // The prefilter must still rule out most stdlib files: `check`'s speed on trees without PyTorch
  // comes from there.
  CHECK(prefiltered > files / 2);
}
