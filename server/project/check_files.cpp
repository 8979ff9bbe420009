#include "denpex/server/check_files.h"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace denpex::project {
namespace fs = std::filesystem;
namespace {

struct Pattern {
  std::string glob;
  bool dir_only = false;
  bool anchored = false;  // matched against the path relative to the ignore file's directory
  bool negated = false;   // `!pattern`: re-includes what an earlier pattern excluded
  fs::path base;
};

std::vector<Pattern> read_ignore(const fs::path& dir, std::istream& in) {
  std::vector<Pattern> out;
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    Pattern p;
    p.base = dir;
    if (line[0] == '!') {
      p.negated = true;
      line.erase(0, 1);
      if (line.empty()) continue;
    }
    if (line.back() == '/') {
      p.dir_only = true;
      line.pop_back();
    }
    if (line.find('/') != std::string::npos) {
      p.anchored = true;
      if (line[0] == '/') line.erase(0, 1);
    }
    p.glob = line;
    if (!p.glob.empty()) out.push_back(std::move(p));
  }
  return out;
}

// As git: the last pattern that matches decides, so `!pattern` re-includes what an earlier one
// excluded. A file under an excluded directory stays excluded whatever its own patterns say:
// the walk never enters that directory (git's rule too).
bool ignored(const std::vector<Pattern>& pats, const fs::path& path, bool is_dir) {
  std::string name = path.filename().string();
  for (auto p = pats.rbegin(); p != pats.rend(); ++p) {
    if (p->dir_only && !is_dir) continue;
    bool match;
    if (p->anchored) {
      std::string rel = path.lexically_relative(p->base).generic_string();
      match = fnmatch(p->glob.c_str(), rel.c_str(), FNM_PATHNAME) == 0;
    } else {
      match = fnmatch(p->glob.c_str(), name.c_str(), 0) == 0;
    }
    if (match) return !p->negated;
  }
  return false;
}

bool skipped_dir(const fs::path& dir) {
  static const std::set<std::string> kSkip = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv",
                                              "venv", ".tox", ".nox", ".mypy_cache", ".pytest_cache",
                                              ".ruff_cache", "site-packages", ".eggs"};
  std::error_code ec;
  return kSkip.count(dir.filename().string()) || fs::exists(dir / "pyvenv.cfg", ec);
}

void walk(const fs::path& dir, std::vector<Pattern> pats, Discovered& d, int depth) {
  if (depth > 64) return;
  std::error_code ec;
  fs::path gi = dir / ".gitignore";
  if (fs::is_regular_file(gi, ec)) {
    std::ifstream in(gi);
    auto more = read_ignore(dir, in);
    pats.insert(pats.end(), more.begin(), more.end());
  }
  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(*it);
  // Said, not silently dropped: a check that skipped part of the tree must not look clean.
  if (ec) d.unreadable_dirs.push_back(dir.string() + ": " + ec.message());
  for (const auto& e : entries) {
    std::error_code e2;
    // Symlinks are not followed, to directories or files: they loop and lead outside the tree
    // (where `--fix` must never write); a target inside the tree is checked as itself.
    if (e.is_symlink(e2)) continue;
    bool is_dir = e.is_directory(e2);
    if (ignored(pats, e.path(), is_dir)) continue;
    if (is_dir) {
      if (!skipped_dir(e.path())) walk(e.path(), pats, d, depth + 1);
    } else if (e.path().extension() == ".py" && e.is_regular_file(e2)) {
      d.files.push_back(e.path().string());
    }
  }
}

}  // namespace

Discovered discover_python_files(const std::vector<std::string>& paths, const std::vector<std::string>& exclude) {
  Discovered d;
  for (const auto& p : paths) {
    std::error_code ec;
    fs::path path(p);
    if (fs::is_directory(path, ec)) {
      std::vector<Pattern> pats;
      for (const auto& x : exclude) {
        std::istringstream in(x);
        auto more = read_ignore(path, in);
        pats.insert(pats.end(), more.begin(), more.end());
      }
      const size_t first = d.files.size();
      walk(path, pats, d, 0);
      // `./x.py` reads worse than `x.py` in every report.
      for (size_t i = first; i < d.files.size(); ++i)
        if (d.files[i].rfind("./", 0) == 0) d.files[i].erase(0, 2);
    } else if (fs::exists(path, ec)) {
      d.files.push_back(p);
    } else {
      d.errors.push_back(p);
    }
  }
  std::sort(d.files.begin(), d.files.end());
  d.files.erase(std::unique(d.files.begin(), d.files.end()), d.files.end());
  return d;
}

}  // namespace denpex::project
