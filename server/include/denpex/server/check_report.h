#pragma once
// `denpex check` results rendered for people and programs: text, JSON (a stable, documented array,
// see docs/check.md), SARIF 2.1.0 for code scanning, GitHub Actions annotations, unified diffs of
// fixes, and the rule reference (`--list-rules`). Pure functions: no I/O.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "denpex/core/finding.h"

namespace denpex::features {

struct CheckedFile {
  std::string path;     // as shown to the user (relative when given relative)
  std::string source;   // the text the findings refer to
  std::vector<core::Finding> findings;
  std::string error;    // I/O or write error; findings may still be present
  int fixes_applied = 0;
};

// 1-based line and column in Unicode code points (what editors and SARIF count by default).
struct HumanPosition {
  uint32_t line, column;
};
HumanPosition human_position(std::string_view source, const core::LineIndex& index, const core::Position& p);

std::string check_text(const std::vector<CheckedFile>& files, bool color, bool show_fixes);
nlohmann::json check_json(const std::vector<CheckedFile>& files);
nlohmann::json check_json_file(const CheckedFile& file);
// The same array rendered one finding per line, built per file so workers can render in parallel:
// join_json_lines({check_json_lines(a), check_json_lines(b)}) is a valid JSON array.
std::string check_json_lines(const CheckedFile& file);
// The same text built through nlohmann::json (check_json_file + dump()): the reference that
// check_json_lines' direct writer must match byte for byte (tests compare them).
std::string check_json_lines_generic(const CheckedFile& file);
std::string join_json_lines(const std::vector<std::string>& chunks);
nlohmann::json check_sarif(const std::vector<CheckedFile>& files, const std::string& version);
std::string check_github(const std::vector<CheckedFile>& files);
// Per code: count, code, name, fixable count. Sorted by count, descending.
std::string check_statistics(const std::vector<CheckedFile>& files);

// A unified diff between two versions of a file, 3 lines of context.
std::string unified_diff(const std::string& path, std::string_view before, std::string_view after);

std::string rules_markdown();
std::string rules_text();
nlohmann::json rules_json();

}  // namespace denpex::features
