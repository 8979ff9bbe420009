#pragma once
// Walking a text's lines, for the passes over a whole paste (paste repair and the reshapings
// before it).
#include <cstring>
#include <string_view>

namespace denpex::logs {

// f(line) for each line of `text`, without its '\n' and a '\r' before it; a last line without a
// '\n' counts too.
template <class F>
void for_each_line(std::string_view text, F&& f) {
  size_t pos = 0;
  while (pos < text.size()) {
    const void* nl = std::memchr(text.data() + pos, '\n', text.size() - pos);
    const size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
    std::string_view line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    f(line);
    pos = end + 1;
  }
}

}  // namespace denpex::logs
