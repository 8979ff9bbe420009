#pragma once
// Levenshtein distance, for "did you mean" suggestions (unknown keys, ids, rule codes).
#include <string_view>

namespace denpex::core {

size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace denpex::core
