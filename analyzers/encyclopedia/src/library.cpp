#include "denpex/encyclopedia/library.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "denpex/core/edit_distance.h"


namespace denpex::encyclopedia {
namespace fs = std::filesystem;

std::vector<std::string> Library::add_directory(const fs::path& dir, std::vector<Problem>& problems) {
  std::vector<std::string> added;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    problems.push_back({dir.string(), 0, "not a directory of entries"});
    return added;
  }
  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".yaml") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  std::unordered_map<std::string, std::string> seen;  // id -> file, duplicates within this set
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      problems.push_back({path.string(), 0, "cannot read the file"});
      continue;
    }
    std::stringstream buf;
    buf << in.rdbuf();
    auto entry = parse_entry(buf.str(), path.string(), path.stem().string(), problems);
    if (!entry) continue;
    if (auto [it, fresh] = seen.emplace(entry->id, path.string()); !fresh) {
      problems.push_back({path.string(), 1, "duplicate id '" + entry->id + "', also defined in " + it->second});
      continue;
    }
    added.push_back(entry->id);
    add(std::move(*entry));
  }
  return added;
}

void Library::add(core::Entry entry) {
  if (auto it = by_id_.find(entry.id); it != by_id_.end()) {
    entries_[it->second] = std::move(entry);
    return;
  }
  by_id_.emplace(entry.id, entries_.size());
  entries_.push_back(std::move(entry));
}

void Library::check_links(std::vector<Problem>& problems) const {
  for (const auto& e : entries_)
    for (const auto& r : e.related)
      if (!find(r)) {
        std::string msg = "`related` names '" + r + "', which is no entry";
        if (auto near = closest_ids(r, 1); !near.empty()) msg += " (did you mean '" + near[0] + "'?)";
        problems.push_back({e.source, 0, msg});
      }
}

const core::Entry* Library::find(std::string_view id) const {
  auto it = by_id_.find(std::string(id));
  return it == by_id_.end() ? nullptr : &entries_[it->second];
}

std::vector<std::string> Library::closest_ids(std::string_view id, size_t n) const {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& e : entries_) {
    size_t d = core::edit_distance(id, e.id);
    // An id that contains the query as a word is as good as a near spelling.
    if (!id.empty() && e.id.find(id) != std::string::npos) d = std::min<size_t>(d, 2);
    if (d <= std::max<size_t>(3, id.size() / 2)) scored.emplace_back(d, e.id);
  }
  std::sort(scored.begin(), scored.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < n; ++i) out.push_back(scored[i].second);
  return out;
}

}  // namespace denpex::encyclopedia
