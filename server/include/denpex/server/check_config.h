#pragma once
// `[tool.denpex]` in pyproject.toml, read with toml++. Unknown keys and bad values are reported as
// `file:line:column: what is wrong`, never silently ignored.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "denpex/core/entry.h"

namespace denpex::cli {

struct CheckConfig {
  std::string file;  // the pyproject.toml read, empty if none
  std::vector<std::string> select, ignore, exclude, signature_dirs;
  std::map<std::string, core::Severity, std::less<>> severity;
  std::vector<std::string> warnings;  // unknown keys: reported, not fatal
  std::vector<std::string> errors;    // unreadable file or wrong types: exit 2
};

// Reads `file`; a file without a [tool.denpex] table yields an empty configuration.
CheckConfig read_check_config(const std::filesystem::path& file);
// The nearest pyproject.toml with a [tool.denpex] table in `start` or its parents.
std::optional<std::filesystem::path> find_check_config(const std::filesystem::path& start);

}  // namespace denpex::cli
