#include "denpex/server/library_loading.h"

#include <stdexcept>

#include "denpex/logs/builtin_atoms.h"

namespace denpex::project {

LoadedLibrary load_library(const std::vector<std::string>& user_dirs) {
  LoadedLibrary out;
  out.library = encyclopedia::Library::builtin(&out.problems);
  for (const auto& dir : user_dirs) {
    auto ids = out.library.add_directory(dir, out.problems);
    out.user_ids.insert(out.user_ids.end(), ids.begin(), ids.end());
  }
  return out;
}

const core::Entry* Knowledge::find(std::string_view id) const { return loaded.library.find(id); }

std::shared_ptr<const Knowledge> load_knowledge(const std::vector<std::string>& user_dirs) {
  auto k = std::make_shared<Knowledge>();
  k->loaded = load_library(user_dirs);
  // Routed by the atoms computed at build time where they fit (the built-in library alone).
  k->matcher = std::make_unique<logs::Matcher>(k->loaded.library.entries(), &logs::builtin_prefilter_atoms());
  if (!k->matcher->ok()) throw std::runtime_error("cannot build the fingerprint matcher: " + k->matcher->error());
  return k;
}

}  // namespace denpex::project
