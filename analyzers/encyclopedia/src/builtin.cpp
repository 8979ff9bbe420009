#include "builtin_entries.h"
#include "denpex/encyclopedia/library.h"

namespace denpex::encyclopedia {

Library Library::builtin(std::vector<Problem>* /*problems: validated at build time*/) {
  Library lib;
  for (auto& e : builtin_entries()) lib.add(std::move(e));
  return lib;
}

}  // namespace denpex::encyclopedia
