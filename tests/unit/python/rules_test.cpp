// Every rule: documented, with a stable code, fixtures that prove it fires (positive and tricky
// cases) and stays silent (negative file), and fixes that parse, remove their finding, and are
// idempotent.
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "denpex/python/analyze.h"
#include "denpex/python/rule.h"
#include "fixture_support.h"
#include "snapshot.h"

using namespace denpex;
using denpex::testing::python_fixture;
using denpex::testing::read_file;

namespace {

size_t count_code(const std::vector<core::Finding>& fs, std::string_view code, int from_line = 0, int to_line = 1 << 30) {
  size_t n = 0;
  for (const auto& f : fs)
    if (f.code == code && static_cast<int>(f.range.start.line) >= from_line && static_cast<int>(f.range.start.line) < to_line) ++n;
  return n;
}

}  // namespace

TEST_CASE("meta: every rule has a stable code, a documented rationale and fixtures") {
  const auto& all = python::rules();
  REQUIRE(all.size() >= 19);
  std::set<std::string_view> codes, names;
  const std::regex code_re("DPX[0-9]{3}");
  for (const python::RuleInfo* r : all) {
    CAPTURE(r->code);
    CHECK(std::regex_match(std::string(r->code), code_re));
    CHECK(codes.insert(r->code).second);
    CHECK(names.insert(r->name).second);
    CHECK(!r->summary.empty());
    for (const char* heading : {"## What it does", "## Why it matters", "## Example", "## Fix and its safety"})
      CHECK_MESSAGE(r->doc.find(heading) != std::string_view::npos, "missing '", heading, "'");
    std::string stem(python::rule_stem(*r));
    REQUIRE(!stem.empty());
    CHECK_MESSAGE(std::filesystem::exists(python_fixture(stem + ".py")), "no fixture for ", stem);
    CHECK_MESSAGE(std::filesystem::exists(python_fixture(stem + "_negative.py")), "no negative fixture for ", stem);
  }
  // The codes of docs/entry-format.md are fixed: DPX001..DPX018 all exist.
  for (int i = 1; i <= 18; ++i) {
    char code[8];
    std::snprintf(code, sizeof code, "DPX%03d", i);
    CHECK_MESSAGE(python::find_rule(code) != nullptr, code);
  }
}

TEST_CASE("rules fire on positive and tricky fixtures and stay silent on negative ones") {
  for (const python::RuleInfo* r : python::rules()) {
    std::string stem(python::rule_stem(*r));
    CAPTURE(stem);
    std::string src = read_file(python_fixture(stem + ".py"));
    auto a = python::analyze(src, testing::all_rules());
    CHECK_FALSE(a.syntax_errors);
    int pos = testing::marker_line(src, "positive"), tricky = testing::marker_line(src, "tricky");
    REQUIRE(pos >= 0);
    REQUIRE(tricky > pos);
    CHECK_MESSAGE(count_code(a.findings, r->code, pos, tricky) >= 1, "no ", r->code, " in the positive section");
    CHECK_MESSAGE(count_code(a.findings, r->code, tricky) >= 1, "no ", r->code, " in the tricky section");
    CHECK_SNAPSHOT("python/" + stem, testing::render_findings(a.findings));

    std::string neg = read_file(python_fixture(stem + "_negative.py"));
    auto n = python::analyze(neg, testing::all_rules());
    CHECK_MESSAGE(count_code(n.findings, r->code) == 0, testing::render_findings(n.findings));
  }
}

TEST_CASE("every fix re-parses cleanly, removes its finding, and is idempotent") {
  size_t fixes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(python_fixture(""))) {
    if (entry.path().extension() != ".py") continue;
    CAPTURE(entry.path().filename().string());
    std::string src = read_file(entry.path().string());
    auto a = python::analyze(src, testing::all_rules());
    for (const auto& f : a.findings) {
      if (!f.fix) continue;
      ++fixes;
      CAPTURE(f.code);
      CAPTURE(f.range.start.line + 1);
      auto once = python::apply_fixes(src, {f}, true);
      REQUIRE(once.applied == 1);
      auto after = python::analyze(once.text, testing::all_rules());
      CHECK_FALSE(after.syntax_errors);
      CHECK(count_code(after.findings, f.code) < count_code(a.findings, f.code));
    }
    const python::AnalyzeOptions& opts = testing::all_rules();
    auto all = python::fix_all(src, opts, true);
    auto again = python::fix_all(all.text, opts, true);
    CHECK(again.text == all.text);
    CHECK(again.applied == 0);
  }
  CHECK(fixes >= 10);
}

TEST_CASE("fix fixtures: X.in.py becomes X.out.py (safe fixes, then safe and unsafe)") {
  size_t cases = 0;
  for (const auto& entry : std::filesystem::directory_iterator(python_fixture("fix"))) {
    std::string name = entry.path().filename().string();
    if (name.size() < 6 || name.substr(name.size() - 6) != ".in.py") continue;
    ++cases;
    CAPTURE(name);
    std::string stem = name.substr(0, name.size() - 6);
    bool unsafe = stem.size() > 7 && stem.substr(stem.size() - 7) == ".unsafe";
    std::string in = read_file(entry.path().string());
    std::string expected = read_file(python_fixture("fix/" + stem + ".out.py"));
    auto out = python::fix_all(in, testing::all_rules(), unsafe);
    CHECK(out.text == expected);
    CHECK_FALSE(python::analyze(out.text).syntax_errors);
    CHECK(python::fix_all(out.text, testing::all_rules(), unsafe).applied == 0);
  }
  CHECK(cases >= 6);
}
