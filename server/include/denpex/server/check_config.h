#pragma once
// `[tool.denpex]` in pyproject.toml, read with toml++. Unknown keys and bad values are reported as
// `file:line:column: what is wrong`, never silently ignored.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "denpex/core/entry.h"
#include "denpex/python/analyze.h"

namespace denpex::project {

struct CheckConfig {
  std::string file;  // the pyproject.toml read, empty if none
  std::vector<std::string> select, ignore, exclude, signature_dirs;
  std::vector<std::string> extend_select;  // added to `select` (or to the default rules)
  std::map<std::string, core::Severity, std::less<>> severity;
  std::vector<std::string> warnings;  // unknown keys: reported, not fatal
  std::vector<std::string> errors;    // unreadable file or wrong types: exit 2
};

// Reads `file`; a file without a [tool.denpex] table yields an empty configuration.
CheckConfig read_check_config(const std::filesystem::path& file);
// The nearest pyproject.toml with a [tool.denpex] table in `start` or its parents.
std::optional<std::filesystem::path> find_check_config(const std::filesystem::path& start);

// The rule options for a file: its [tool.denpex] table, then the caller's overrides (command-line
// flags, editor settings): a non-empty `select` replaces the file's `select` and `extend-select`,
// `ignore` and `extend_select` add to the file's. Extending an empty selection extends the default
// rules: that is how a project turns on an opt-in rule and keeps the rest.
python::AnalyzeOptions analyze_options(const CheckConfig& cfg, const std::vector<std::string>& select,
                                       const std::vector<std::string>& ignore,
                                       const std::vector<std::string>& extend_select = {});
// The entries of `codes` that name no rule: neither a code, a code prefix ("DPX0") nor "ALL".
std::vector<std::string> unknown_codes(const std::vector<std::string>& codes);

}  // namespace denpex::project
