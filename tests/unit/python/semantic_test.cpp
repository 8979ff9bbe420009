// The semantic layer: name resolution, partials, literal kwargs, scopes, and robustness on
// broken input.
#include <doctest/doctest.h>

#include "denpex/python/analyze.h"
#include "denpex/python/module.h"
#include "fixture_support.h"

using namespace denpex;

namespace {
std::vector<std::string> codes(std::string_view src) {
  std::vector<std::string> out;
  for (const auto& f : python::analyze(src, testing::all_rules()).findings) out.push_back(f.code + "@" + std::to_string(f.range.start.line + 1));
  return out;
}
}  // namespace

TEST_CASE("imports and aliases resolve to qualified names") {
  python::Module m(
      "import torch.utils.checkpoint as cp\n"
      "from torch.utils.checkpoint import checkpoint as ckpt\n"
      "from torch.cuda import amp\n"
      "import torch.nn\n"
      "cp.checkpoint(f)\nckpt(f)\namp.autocast()\ntorch.nn.Linear(1, 2)\nunknown.thing()\n");
  std::vector<std::string> q;
  for (const auto& c : m.calls()) q.push_back(c.qname);
  CHECK(q == std::vector<std::string>{"torch.utils.checkpoint.checkpoint", "torch.utils.checkpoint.checkpoint",
                                      "torch.cuda.amp.autocast", "torch.nn.Linear", ""});
  CHECK(m.imports_torch());
  CHECK(m.local_name_of("torch.cuda.amp") == "amp");
}

TEST_CASE("a user's own function sharing a name is not the library's") {
  CHECK(codes("import torch\nfrom torch.utils.checkpoint import checkpoint\ndef checkpoint(p):\n  pass\ncheckpoint(x)\n").empty());
  CHECK(codes("import torch\ndef load(p):\n  pass\nload('x')\n").empty());
}

TEST_CASE("strings and comments are never flagged") {
  CHECK(codes("import torch\ns = 'torch.load(x)'\n# torch.load(x)\nd = \"\"\"\ntorch.load(x)\n\"\"\"\n").empty());
}

TEST_CASE("undecidable values keep rules silent") {
  CHECK(codes("import torch\nfrom torch.utils.checkpoint import checkpoint\ncheckpoint(f, x, **kw)\n").empty());
  CHECK(codes("import torch\nfrom torch.utils.checkpoint import checkpoint\ncheckpoint(f, x, use_reentrant=a.b)\n").empty());
}

TEST_CASE("functools.partial carries its target and keywords") {
  python::Module m("import functools, torch\nfrom torch.utils.checkpoint import checkpoint\n"
                   "ck = functools.partial(checkpoint, use_reentrant=False)\nck(f, x)\n");
  REQUIRE(m.calls().size() == 2);
  CHECK(m.calls()[0].is_partial);
  CHECK(m.calls()[1].via_partial);
  CHECK(m.calls()[1].qname == "torch.utils.checkpoint.checkpoint");
  CHECK(m.calls()[1].keyword("use_reentrant") != nullptr);
  CHECK(codes("import functools, torch\nfrom torch.utils.checkpoint import checkpoint\n"
              "ck = functools.partial(checkpoint, use_reentrant=False)\nck(f, x)\n").empty());
}

TEST_CASE("loop, per-step and no_grad scopes") {
  python::Module m("import torch\n"
                   "def train_step(b):\n  f(b)\n"
                   "def helper(b):\n  g(b)\n"
                   "def once():\n  h()\n"
                   "for b in data:\n  helper(b)\n"
                   "with torch.no_grad():\n  k()\n"
                   "@torch.inference_mode()\ndef pred():\n  p()\n");
  auto call = [&](std::string_view name) -> const python::Call& {
    for (const auto& c : m.calls())
      if (m.text(c.function) == name) return c;
    FAIL("no call " << name);
    return m.calls().front();
  };
  CHECK(m.per_step(call("f").scope));
  CHECK(m.per_step(call("g").scope));  // helper is called from a loop
  CHECK_FALSE(m.per_step(call("h").scope));
  CHECK(m.in_no_grad(call("k").scope));
  CHECK(m.in_no_grad(call("p").scope));
  CHECK_FALSE(m.in_no_grad(call("f").scope));
}

TEST_CASE("broken files: intact parts still get findings, and nothing crashes") {
  std::string conflict =
      "import torch\n"
      "<<<<<<< HEAD\nx = 1\n=======\nx = 2\n>>>>>>> branch\n"
      "state = torch.load('a.pt')\n";
  auto a = python::analyze(conflict);
  CHECK(a.syntax_errors);
  bool found = false;
  for (const auto& f : a.findings) found = found || (f.code == "DPX008" && f.range.start.line == 6);
  CHECK(found);

  std::string unclosed = "import torch\nstate = torch.load('a.pt')\ny = foo(1, [2, 3\n";
  auto b = python::analyze(unclosed);
  CHECK(b.syntax_errors);
  CHECK(!b.findings.empty());
  CHECK(b.findings.front().code == "DPX008");

  // Every prefix of a file, as typed in an editor: no crash, no throw.
  std::string src =
      "import torch\nfrom torch.utils.checkpoint import checkpoint\n@torch.compile\ndef f(x):\n"
      "    print(x.item())\nfor b in loader:\n    y = checkpoint(f, b, **{'use_reentrant': True})\n"
      "    total += loss\n";
  for (size_t n = 0; n <= src.size(); ++n) {
    auto r = python::analyze(std::string_view(src).substr(0, n));
    (void)r;
  }
  CHECK(python::analyze(std::string("\0\xff\xfe(((((", 9)).findings.empty());
  std::string deep = "import torch\nx = " + std::string(5000, '(') + "1";
  CHECK_NOTHROW(python::analyze(deep));
}

TEST_CASE("incremental re-parse gives the same findings as a fresh parse") {
  std::string before = "import torch\nstate = torch.load('a.pt')\n";
  std::string after = "import torch\nstate = torch.load('a.pt', weights_only=True)\n";
  python::Tree t = python::parse(before);
  TSInputEdit e{};
  e.start_byte = e.old_end_byte = 31;
  e.new_end_byte = 31 + 19;
  e.start_point = e.old_end_point = {1, 24};
  e.new_end_point = {1, 43};
  t.edit(e);
  python::Module m(after, python::parse(after, &t));
  CHECK(python::analyze(m).findings.empty());
  CHECK(python::analyze(before).findings.size() == 1);
}

TEST_CASE("suppressions: line, noqa, file level, and selection") {
  CHECK(codes("import torch\nx = torch.load(p)  # denpex: ignore[DPX008]\n").empty());
  CHECK(codes("import torch\nx = torch.load(p)  # noqa: DPX008\n").empty());
  CHECK(codes("import torch\nx = torch.load(p)  # NOQA\n").empty());
  CHECK(codes("# denpex: ignore-file[DPX008]\nimport torch\nx = torch.load(p)\ny = torch.load(q)\n").empty());
  CHECK(codes("import torch\nx = torch.load(p)  # denpex: ignore[DPX001]\n") ==
        std::vector<std::string>{"DPX008@2", "DPX100@2"});
  python::AnalyzeOptions o;
  o.ignore = {"DPX008"};
  CHECK(python::analyze("import torch\nx = torch.load(p)\n", o).findings.empty());
  o = {};
  o.select = {"DPX00"};
  o.severity["DPX008"] = core::Severity::Error;
  auto a = python::analyze("import torch\nx = torch.load(p)\n", o);
  REQUIRE(a.findings.size() == 1);
  CHECK(a.findings[0].severity == core::Severity::Error);
}

TEST_CASE("grad mode: a helper called only under no_grad runs with grad off, for every rule") {
  const char* helper =
      "import torch\n"
      "def run_eval(model, loader):\n"
      "    model.eval()\n"
      "    for x in loader:\n"
      "        y = model(x)\n";
  // Called only inside `with torch.no_grad():`: silent.
  CHECK(codes(std::string(helper) + "with torch.no_grad():\n    run_eval(m, l)\n").empty());
  // Called once with grad on as well: the forward records a graph there, reported.
  CHECK(codes(std::string(helper) + "with torch.no_grad():\n    run_eval(m, l)\nrun_eval(m, l)\n") ==
        std::vector<std::string>{"DPX010@5"});
  // Never called in this file: grad mode unknown, reported as before.
  CHECK(codes(helper) == std::vector<std::string>{"DPX010@5"});
  // Through a chain: a helper called only from a function that is itself only called under no_grad.
  CHECK(codes(std::string(helper) + "def outer(m, l):\n    run_eval(m, l)\nwith torch.inference_mode():\n    outer(m, l)\n")
            .empty());
  python::Module m(std::string(helper) + "@torch.no_grad()\ndef report(m, l):\n    return run_eval(m, l)\n");
  REQUIRE(m.functions().size() == 2);
  CHECK(m.functions()[0].no_grad);
}

TEST_CASE("positions: a lone CR is a line end for findings and fixes alike (found by fuzzing)") {
  const std::string src = "import torch\rfrom torch.utils.checkpoint import checkpoint\ny = checkpoint(f, x)\n";
  auto a = python::analyze(src, testing::all_rules());
  REQUIRE(a.findings.size() == 1);
  CHECK(a.findings[0].range.start.line == 2);  // LF and the lone CR both end a line
  auto fixed = python::fix_all(src, testing::all_rules(), /*unsafe=*/true);
  CHECK(fixed.text == "import torch\rfrom torch.utils.checkpoint import checkpoint\ny = checkpoint(f, x, use_reentrant=False)\n");
  CHECK(python::fix_all(fixed.text, testing::all_rules(), true).applied == 0);
}
