#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "snapshot.h"

namespace fs = std::filesystem;
using denpex::testing::check_snapshot;
using denpex::testing::source_path;

// The snapshot helper must fail on a difference and leave the new text for review; otherwise
// every snapshot test in the suite could not fail.
TEST_CASE("snapshot helper: a mismatch fails and writes .snap.new; UPDATE_SNAPSHOTS=1 accepts") {
  const std::string name = "harness-selftest-" + std::to_string(::getpid());
  const fs::path snap = source_path("tests/snapshots/" + name + ".snap");
  const fs::path fresh = source_path("tests/snapshots/" + name + ".snap.new");
  ::unsetenv("UPDATE_SNAPSHOTS");

  CHECK(check_snapshot(name, "first\n").find("no snapshot") == 0);  // missing: fails
  CHECK(fs::exists(fresh));
  CHECK_FALSE(fs::exists(snap));

  ::setenv("UPDATE_SNAPSHOTS", "1", 1);
  CHECK(check_snapshot(name, "first\n").empty());  // accepted
  ::unsetenv("UPDATE_SNAPSHOTS");
  CHECK(fs::exists(snap));
  CHECK_FALSE(fs::exists(fresh));

  CHECK(check_snapshot(name, "first\n").empty());  // same text: passes, leaves nothing behind
  std::string msg = check_snapshot(name, "first\nsecond\n");
  CHECK(msg.find("differs at line 2") != std::string::npos);
  CHECK(fs::exists(fresh));
  CHECK(denpex::testing::read_file(snap.string()) == "first\n");  // never overwritten silently

  fs::remove(snap);
  fs::remove(fresh);
}
