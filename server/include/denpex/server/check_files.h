#pragma once
// Which files `denpex check` looks at: Python files under the given paths, skipping VCS metadata,
// virtual environments, node_modules and caches, and honouring .gitignore files (plain patterns,
// `dir/`, `/anchored`, globs; negations are not supported and are ignored).
#include <string>
#include <vector>

namespace denpex::project {

struct Discovered {
  std::vector<std::string> files;   // sorted, deduplicated
  std::vector<std::string> errors;  // paths that do not exist
  // Directories of the tree that could not be read, as `DIR: reason`; skipped, never fatal to
  // the walk.
  std::vector<std::string> unreadable_dirs;
};

// Files named explicitly are always checked; `exclude` holds extra glob patterns like .gitignore's.
Discovered discover_python_files(const std::vector<std::string>& paths, const std::vector<std::string>& exclude);

}  // namespace denpex::project
