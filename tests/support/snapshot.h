#pragma once
// Snapshot testing: compare text against tests/snapshots/<name>.snap. A mismatch writes
// <name>.snap.new next to it and fails; UPDATE_SNAPSHOTS=1 accepts the new text instead.
#include <filesystem>
#include <string>

namespace denpex::testing {

std::string source_path(const std::string& relative);  // DENPEX_SOURCE_DIR/relative
// A whole file's bytes ("" when it cannot be read).
std::string read_file(const std::filesystem::path& path);
// Returns an empty string when the snapshot matches (or was updated), else a diff-like message.
std::string check_snapshot(const std::string& name, const std::string& actual);

}  // namespace denpex::testing

#define CHECK_SNAPSHOT(name, actual)                                          \
  do {                                                                        \
    std::string denpex_snapshot_msg = ::denpex::testing::check_snapshot(name, actual); \
    CHECK_MESSAGE(denpex_snapshot_msg.empty(), denpex_snapshot_msg);          \
  } while (0)
