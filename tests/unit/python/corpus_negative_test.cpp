// False-positive kinds from the judged corpus (bench/corpus/judgments.tsv): each file
// tests/fixtures/python/corpus_negative/DPXnnn_<kind>.py yields no DPXnnn finding, with every rule
// (the opt-in ones too) selected.
#include <doctest/doctest.h>

#include <filesystem>

#include "denpex/python/analyze.h"
#include "fixture_support.h"
#include "snapshot.h"

using namespace denpex;

TEST_CASE("corpus false-positive kinds stay silent") {
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::python_fixture("corpus_negative"))) {
    if (entry.path().extension() != ".py") continue;
    std::string name = entry.path().filename().string();
    CAPTURE(name);
    REQUIRE(name.size() > 7);
    std::string code = name.substr(0, 6);
    std::string src = testing::read_file(entry.path().string());
    auto a = python::analyze(src, testing::all_rules());
    CHECK_FALSE(a.syntax_errors);
    for (const auto& f : a.findings)
      CHECK_MESSAGE(f.code != code, name, ":", f.range.start.line + 1, " ", f.message);
    ++files;
  }
  CHECK(files >= 6);
}

TEST_CASE("opt-in rules run only when their code is selected by name") {
  const char* src = "import torch\nfor step in range(10):\n    torch.cuda.empty_cache()\n";
  auto count = [&](const python::AnalyzeOptions& o) {
    size_t n = 0;
    for (const auto& f : python::analyze(src, o).findings) n += f.code == "DPX006";
    return n;
  };
  python::AnalyzeOptions none, prefix, named;
  prefix.select = {"DPX", "ALL"};
  named.select = {"DPX", "DPX006"};
  CHECK(count(none) == 0);
  CHECK(count(prefix) == 0);
  CHECK(count(named) == 1);
  named.ignore = {"DPX006"};
  CHECK(count(named) == 0);
}
