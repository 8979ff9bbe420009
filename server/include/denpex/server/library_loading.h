#pragma once
// The built-in encyclopedia plus the user's directories (`--signatures DIR`), as every face
// (CLI subcommands, the language server) loads it. Problems in user files are returned, never
// printed here: each face reports them its own way (stderr, window/showMessage).
#include <memory>
#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/matcher.h"

namespace denpex::project {

struct LoadedLibrary {
  encyclopedia::Library library;
  std::vector<encyclopedia::Problem> problems;
  std::vector<std::string> user_ids;  // ids added or replaced by the user's directories
};

// Dangling `related` links are an author's concern: `signatures test|validate` check them.
LoadedLibrary load_library(const std::vector<std::string>& user_dirs);

// The library and its fingerprint matcher, built once and then shared read-only between threads
// (the Matcher compiles patterns lazily under std::call_once, so sharing it is safe).
struct Knowledge {
  LoadedLibrary loaded;
  std::unique_ptr<logs::Matcher> matcher;  // refers to loaded.library's entries: never move them

  const std::vector<core::Entry>& entries() const { return loaded.library.entries(); }
  const core::Entry* find(std::string_view id) const;
};

// Throws std::runtime_error when the matcher cannot be built (a pattern set RE2 rejects).
std::shared_ptr<const Knowledge> load_knowledge(const std::vector<std::string>& user_dirs);

}  // namespace denpex::project
