#pragma once
#include <vector>

#include "denpex/core/entry.h"

namespace denpex::encyclopedia {
// Defined in the generated builtin_entries.cpp (see embed_entries.cpp).
std::vector<core::Entry> builtin_entries();
}  // namespace denpex::encyclopedia
