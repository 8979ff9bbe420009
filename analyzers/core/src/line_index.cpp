#include "denpex/core/text.h"

#include <algorithm>

namespace denpex::core {

LineIndex::LineIndex(std::string_view text) : size_(text.size()) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      starts_.push_back(i + 1);
    } else if (text[i] == '\r') {
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
      starts_.push_back(i + 1);
    }
  }
}

Position LineIndex::position(size_t offset) const {
  offset = std::min(offset, size_);
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  size_t line = static_cast<size_t>(it - starts_.begin()) - 1;
  return {static_cast<uint32_t>(line), static_cast<uint32_t>(offset - starts_[line])};
}

size_t LineIndex::offset(Position pos) const {
  if (pos.line >= starts_.size()) return size_;
  size_t start = starts_[pos.line];
  size_t next = pos.line + 1 < starts_.size() ? starts_[pos.line + 1] : size_;
  return std::min(start + pos.column, next);
}

std::string_view LineIndex::line(std::string_view text, size_t line) const {
  if (line >= starts_.size()) return {};
  size_t start = starts_[line];
  size_t end = line + 1 < starts_.size() ? starts_[line + 1] : text.size();
  while (end > start && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  return text.substr(start, end - start);
}

}  // namespace denpex::core
