// The check fast paths against their references (JSON writer vs nlohmann, text prefilter vs
// analyze), and two closed gaps: DPX004 on a bare `@torch.compile`, `.gitignore` negation.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "denpex/python/analyze.h"
#include "denpex/python/rule.h"
#include "fixture_support.h"
#include "denpex/server/check_report.h"
#include "process.h"
#include "temp_dir.h"

using namespace denpex;
using denpex::testing::run_denpex;
namespace fs = std::filesystem;
using denpex::testing::TempDir;

namespace {

size_t count_code(const std::vector<core::Finding>& fs, std::string_view code) {
  size_t n = 0;
  for (const auto& f : fs) n += f.code == code;
  return n;
}

python::Analysis analyze_all(std::string_view src) { return python::analyze(src, testing::all_rules()); }

}  // namespace

TEST_CASE("check: DPX004 flags a bare @torch.compile decorator on varying shapes, with a fix") {
  const char* src =
      "import torch\n"
      "from torch.nn.utils.rnn import pad_sequence\n"
      "torch._dynamo.config.automatic_dynamic_shapes = False\n"
      "def collate(seqs):\n"
      "    return pad_sequence(seqs, batch_first=True)\n"
      "@torch.compile\n"
      "def step(x):\n"
      "    return x * 2\n";
  auto a = analyze_all(src);
  REQUIRE(count_code(a.findings, "DPX004") == 1);
  const core::Finding* f = nullptr;
  for (const auto& x : a.findings)
    if (x.code == "DPX004") f = &x;
  CHECK(f->range.start.line == 5);
  CHECK(f->range.start.column == 1);
  REQUIRE(f->fix);
  CHECK_FALSE(f->fix->safe);
  auto fixed = python::fix_all(src, testing::all_rules(), true);
  CHECK(fixed.text.find("@torch.compile(dynamic=True)\ndef step") != std::string::npos);
  auto after = analyze_all(fixed.text);
  CHECK_FALSE(after.syntax_errors);
  CHECK(count_code(after.findings, "DPX004") == 0);

  // An alias resolves too; a call form is the existing check (once, not twice).
  CHECK(count_code(analyze_all("import torch as t\nfrom torch.nn.utils.rnn import pad_sequence\n"
                                   "t._dynamo.config.automatic_dynamic_shapes = False\n"
                                   "b = pad_sequence(s)\n@t.compile\ndef f(x):\n    return x\n")
                       .findings,
                   "DPX004") == 1);
  CHECK(count_code(analyze_all("import torch\nfrom torch.nn.utils.rnn import pad_sequence\n"
                                   "torch._dynamo.config.automatic_dynamic_shapes = False\n"
                                   "b = pad_sequence(s)\n@torch.compile()\ndef f(x):\n    return x\n")
                       .findings,
                   "DPX004") == 1);
}

TEST_CASE("check: DPX004 stays silent on bare @torch.compile without varying shapes or when handled") {
  // No varying shapes.
  CHECK(count_code(analyze_all("import torch\n@torch.compile\ndef f(x):\n    return x\n").findings, "DPX004") == 0);
  // Varying shapes, but dynamic=, mark_dynamic or a raised limit handle them.
  const char* pad = "import torch\nfrom torch.nn.utils.rnn import pad_sequence\nb = pad_sequence(s)\n"
                    "torch._dynamo.config.automatic_dynamic_shapes = False\n";
  // Automatic dynamic shapes on (the default since 2.1): a bare decorator is fine.
  CHECK(count_code(analyze_all("import torch\nfrom torch.nn.utils.rnn import pad_sequence\nb = pad_sequence(s)\n"
                               "@torch.compile\ndef f(x):\n    return x\n").findings, "DPX004") == 0);
  CHECK(count_code(analyze_all(std::string(pad) + "@torch.compile(dynamic=True)\ndef f(x):\n    return x\n").findings,
                   "DPX004") == 0);
  CHECK(count_code(analyze_all(std::string(pad) + "torch._dynamo.config.cache_size_limit = 64\n"
                                                      "@torch.compile\ndef f(x):\n    return x\n")
                       .findings,
                   "DPX004") == 0);
  CHECK(count_code(analyze_all(std::string(pad) + "torch._dynamo.mark_dynamic(b, 1)\n"
                                                      "@torch.compile\ndef f(x):\n    return x\n")
                       .findings,
                   "DPX004") == 0);
  // A decorator of the user's own that merely shares the name.
  CHECK(count_code(analyze_all(std::string(pad) + "def compile(f):\n    return f\n@compile\ndef f(x):\n    return x\n")
                       .findings,
                   "DPX004") == 0);
}

TEST_CASE("check: .gitignore negation re-includes files, but not under an excluded directory") {
  TempDir d;
  const char* bad = "import torch\nstate = torch.load('a.pt')\n";
  d.write(".gitignore", "*_gen.py\n!keep_gen.py\nbuild/\n!build/inside.py\n");
  d.write("a_gen.py", bad);
  d.write("keep_gen.py", bad);
  d.write("build/inside.py", bad);
  d.write("sub/.gitignore", "!b_gen.py\n");
  d.write("sub/b_gen.py", bad);
  d.write("sub/c_gen.py", bad);
  auto r = run_denpex({"check", "--no-config", "--output-format", "json", d.path.string()});
  CHECK(r.exit_code == 1);
  auto j = nlohmann::json::parse(r.out);
  std::vector<std::string> files;
  for (const auto& f : j) files.push_back(fs::path(f["file"].get<std::string>()).lexically_relative(d.path).string());
  std::sort(files.begin(), files.end());
  CHECK(files == std::vector<std::string>{"keep_gen.py", "sub/b_gen.py"});
}

TEST_CASE("check: may_have_findings is false only where analyze finds nothing") {
  CHECK_FALSE(python::may_have_findings("import os\nprint(os.getcwd())\n"));
  CHECK_FALSE(python::may_have_findings(""));
  CHECK(python::may_have_findings("import torch\ntorch.backends.cudnn.benchmark = True\n"));
  CHECK(python::may_have_findings("import pytorch_lightning as pl\ns = pl.strategies.DDPStrategy(find_unused_parameters=True)\n"));
  CHECK_FALSE(python::may_have_findings("x.backends.cudnn.benchmark = True\n"));  // needs torch
  // A flake8 suppression names no code of ours: nothing to report unused, nothing to parse.
  CHECK_FALSE(python::may_have_findings("x = 1  # NoQa: E501\n"));
  CHECK(python::may_have_findings("x = 1  # noqa: E501,DPX008\n"));
  CHECK(python::may_have_findings("x = 1  # denpex: ignore[DPX001]\n"));
  // torch, but none of the default rules' identifiers: no rule can report.
  CHECK_FALSE(python::may_have_findings("import torch\nx = torch.zeros(3)\nloader_ok = x.sum()\n"));
  CHECK(python::may_have_findings("import torch\nsd = torch.load(p)\n"));
  // Whole identifiers only: `DataLoader` and `load_state_dict` do not stand for `load`.
  python::AnalyzeOptions only_load;
  only_load.select = {"DPX008"};
  CHECK_FALSE(python::may_have_findings("import torch\nDataLoader(d)\nm.load_state_dict(s)\n", only_load));
  CHECK(python::may_have_findings("from torch import load as ld\nld(p)\n", only_load));
  // Where it says false, analyze agrees; where a suppression is unused it reports it.
  for (const char* src : {"import os\n", "def f():\n    return 1\n", "x = 'noq' + 'a'\n", "x = 1  # noqa: E501\n",
                          "import torch\nx = torch.zeros(3)\n"}) {
    CAPTURE(src);
    if (!python::may_have_findings(src)) CHECK(python::analyze(src).findings.empty());
  }
  CHECK(count_code(python::analyze("x = 1  # denpex: ignore[DPX001]\n").findings, "DPX100") == 1);
  CHECK(count_code(python::analyze("x = 1  # NOQA: DPX001\n").findings, "DPX100") == 1);
}

// Each rule's declared identifiers (RuleInfo::tokens) must be present wherever its check reports:
// the check is run directly, without the token gate, on every fixture, so a rule whose tokens
// miss a spelling it can match fails here instead of going silent on real code.
TEST_CASE("check: a rule reports only in text that holds one of its tokens") {
  size_t runs = 0, reported = 0;
  for (const auto& e : fs::recursive_directory_iterator(testing::python_fixture(""))) {
    if (e.path().extension() != ".py") continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::string src((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    python::Module m(src);
    for (const python::RuleInfo* rule : python::rules()) {
      if (!rule->check) continue;
      std::vector<core::Finding> out;
      python::Reporter r(*rule, out);
      rule->check(m, r);
      ++runs;
      if (out.empty()) continue;
      ++reported;
      CAPTURE(e.path().string());
      CAPTURE(rule->code);
      CHECK(python::may_report(*rule, src));
    }
  }
  CHECK(runs > 500);
  CHECK(reported > 20);
}

TEST_CASE("check: the direct JSON writer matches nlohmann's rendering byte for byte") {
  features::CheckedFile f;
  f.path = "dir/wéird \"name\"\\.py";
  f.source = "import torch\r\nλ = 1\r\nx = torch.load('a.pt')\rtail\n\tmore 😀 text\n";
  auto add = [&](uint32_t l0, uint32_t c0, uint32_t l1, uint32_t c1, std::string code, std::string entry, std::string msg,
                 bool with_fix) {
    core::Finding d;
    d.range = {{l0, c0}, {l1, c1}};
    d.code = std::move(code);
    d.entry = std::move(entry);
    d.severity = core::Severity::Warning;
    d.message = std::move(msg);
    if (with_fix)
      d.fix = core::Fix{"Fix \"it\"\n", with_fix, {{{{l0, c0}, {l1, c1}}, "a\\b\x01\x1f\x7f\t\b\f\r\"é😀"}, {{{3, 0}, {3, 2}}, ""}}};
    f.findings.push_back(std::move(d));
  };
  add(1, 0, 1, 2, "DPX008", "torch-load", "quote \" backslash \\ control \x02 tab \t newline \n", true);
  add(2, 4, 2, 14, "DPX001", "", "plain", false);
  add(4, 9, 5, 3, "DPX999", "", "unknown code, past the end of the text", false);
  add(99, 1, 120, 0, "DPX010", "cuda-oom", "line beyond the text", true);
  CHECK(features::check_json_lines(f) == features::check_json_lines_generic(f));

  features::CheckedFile empty;
  empty.path = "e.py";
  CHECK(features::check_json_lines(empty) == features::check_json_lines_generic(empty));
  CHECK(features::check_json_lines(empty).empty());

  // Invalid UTF-8: the writer defers to nlohmann, which rejects it the same way as before.
  features::CheckedFile bad = f;
  bad.findings[1].message = "latin-1 \xe9 byte";
  CHECK_THROWS_AS(features::check_json_lines(bad), nlohmann::json::type_error);
  CHECK_THROWS_AS(features::check_json_lines_generic(bad), nlohmann::json::type_error);
  for (const char* s : {"\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\xf0\x9f\x98"}) {
    bad.findings[1].message = s;
    CHECK_THROWS(features::check_json_lines(bad));
  }
  for (const char* s : {"\xc2\x80", "\xed\x9f\xbf", "\xf4\x8f\xbf\xbf", "\xef\xbf\xbf", "\xe0\xa0\x80"}) {
    bad.findings[1].message = s;
    CHECK(features::check_json_lines(bad) == features::check_json_lines_generic(bad));
  }
}
