#include "fixture_support.h"

#include <sstream>

#include "denpex/python/rule.h"
#include "snapshot.h"

namespace denpex::testing {

std::string python_fixture(const std::string& name) { return source_path("tests/fixtures/python/" + name); }

std::string render_findings(const std::vector<core::Finding>& findings) {
  std::ostringstream out;
  auto pos = [](const core::Position& p) { return std::to_string(p.line + 1) + ":" + std::to_string(p.column + 1); };
  for (const auto& f : findings) {
    out << pos(f.range.start) << "-" << pos(f.range.end) << " " << f.code << " " << core::to_string(f.severity)
        << (f.entry.empty() ? "" : " [" + f.entry + "]") << " " << f.message << "\n";
    if (f.fix) {
      out << "  fix (" << (f.fix->safe ? "safe" : "unsafe") << "): " << f.fix->title << "\n";
      for (const auto& e : f.fix->edits)
        out << "    " << pos(e.range.start) << "-" << pos(e.range.end) << " -> \"" << e.new_text << "\"\n";
    }
  }
  return out.str();
}

int marker_line(const std::string& source, const std::string& name) {
  std::istringstream in(source);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (line == "# --- " + name + " ---") return n;
    ++n;
  }
  return -1;
}

const python::AnalyzeOptions& all_rules() {
  static const python::AnalyzeOptions o = [] {
    python::AnalyzeOptions opts;
    opts.select.push_back("ALL");
    for (const python::RuleInfo* r : python::rules())
      if (r->opt_in) opts.select.emplace_back(r->code);
    return opts;
  }();
  return o;
}

}  // namespace denpex::testing
