#include "snapshot.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace denpex::testing {
namespace fs = std::filesystem;

std::string source_path(const std::string& relative) { return std::string(DENPEX_SOURCE_DIR) + "/" + relative; }

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string check_snapshot(const std::string& name, const std::string& actual) {
  fs::path snap = source_path("tests/snapshots/" + name + ".snap");
  fs::path fresh = snap;
  fresh += ".new";
  const char* update = std::getenv("UPDATE_SNAPSHOTS");
  if (update && std::string(update) == "1") {
    fs::create_directories(snap.parent_path());
    std::ofstream(snap, std::ios::binary) << actual;
    fs::remove(fresh);
    return {};
  }
  if (!fs::exists(snap)) {
    fs::create_directories(snap.parent_path());
    std::ofstream(fresh, std::ios::binary) << actual;
    return "no snapshot " + snap.string() + "; wrote " + fresh.string() + " (accept with UPDATE_SNAPSHOTS=1)";
  }
  std::string expected = read_file(snap.string());
  if (expected == actual) {
    fs::remove(fresh);
    return {};
  }
  std::ofstream(fresh, std::ios::binary) << actual;
  // Point at the first differing line so the failure is readable without a diff tool.
  std::istringstream a(expected), b(actual);
  std::string la, lb;
  int line = 0;
  while (true) {
    ++line;
    bool ga = static_cast<bool>(std::getline(a, la)), gb = static_cast<bool>(std::getline(b, lb));
    if (!ga && !gb) break;
    if (!ga || !gb || la != lb)
      return "snapshot " + snap.string() + " differs at line " + std::to_string(line) + ":\n  expected: " + la +
             "\n  actual:   " + lb + "\nwrote " + fresh.string() + " (accept with UPDATE_SNAPSHOTS=1)";
  }
  return "snapshot " + snap.string() + " differs (line endings?)";
}

}  // namespace denpex::testing
