#pragma once
// Shared by the python analyzer tests: fixture paths and a stable text form of findings.
#include <string>
#include <vector>

#include "denpex/core/finding.h"
#include "denpex/python/analyze.h"

namespace denpex::testing {

std::string python_fixture(const std::string& name);  // tests/fixtures/python/<name>
// One line per finding (1-based positions), plus its fix: the snapshot format.
std::string render_findings(const std::vector<core::Finding>& findings);
// 0-based line of a `# --- name ---` marker, or -1.
int marker_line(const std::string& source, const std::string& name);
// Every rule, the opt-in ones included (`--select ALL,<each opt-in code>`).
const python::AnalyzeOptions& all_rules();

}  // namespace denpex::testing
