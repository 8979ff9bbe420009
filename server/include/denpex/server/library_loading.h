#pragma once
// The built-in encyclopedia plus the user's directories (`--signatures DIR`), as every
// subcommand loads it. Problems in user files are printed as `file:line: ...` and skipped.
#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"

namespace denpex::cli {

struct LoadedLibrary {
  encyclopedia::Library library;
  std::vector<encyclopedia::Problem> problems;
  std::vector<std::string> user_ids;  // ids added or replaced by the user's directories
};

// Dangling `related` links are an author's concern: `signatures test|validate` check them.
LoadedLibrary load_library(const std::vector<std::string>& user_dirs);
// Prints problems to stderr, one per line, prefixed with `command: `.
void report_problems(const std::string& command, const std::vector<encyclopedia::Problem>& problems);

}  // namespace denpex::cli
