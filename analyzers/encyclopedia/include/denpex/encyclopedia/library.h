#pragma once
// Loading and validating encyclopedia entries. Every problem is reported as `file:line: what is
// wrong`; a broken file is skipped and never disables the rest of the library.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "denpex/core/entry.h"

namespace denpex::encyclopedia {

struct Problem {
  std::string file;
  int line = 0;  // 1-based; 0 when the problem concerns the whole file
  std::string message;
  std::string str() const;
};

// Parses and validates one entry file. `expected_id` (the file's stem) is checked when not empty.
// Returns nullopt when the entry is unusable; problems are appended either way.
std::optional<core::Entry> parse_entry(std::string_view yaml_text, const std::string& file,
                                       std::string_view expected_id, std::vector<Problem>& problems);

class Library {
 public:
  // The entries compiled into the binary.
  static Library builtin(std::vector<Problem>* problems = nullptr);

  // Adds every *.yaml under `dir` (recursively). An id already present is replaced: user
  // directories override built-in entries. Returns the ids it added or replaced.
  std::vector<std::string> add_directory(const std::filesystem::path& dir, std::vector<Problem>& problems);
  // Adds or replaces one entry.
  void add(core::Entry entry);
  // Reports `related` ids that name no entry.
  void check_links(std::vector<Problem>& problems) const;

  const std::vector<core::Entry>& entries() const { return entries_; }
  const core::Entry* find(std::string_view id) const;
  // Up to `n` ids closest to `id` (edit distance, then shared prefix), for "did you mean".
  std::vector<std::string> closest_ids(std::string_view id, size_t n = 3) const;

 private:
  std::vector<core::Entry> entries_;
  std::unordered_map<std::string, size_t> by_id_;
};

}  // namespace denpex::encyclopedia
