#pragma once
// Positions, ranges and the line index of a document. Lines and columns are 0-based here;
// columns count UTF-8 bytes. Renderers convert (1-based for humans, UTF-16 for LSP).
#include <cstdint>
#include <string_view>
#include <vector>

namespace denpex::core {

struct Position {
  uint32_t line = 0;
  uint32_t column = 0;
  friend bool operator==(const Position&, const Position&) = default;
  friend auto operator<=>(const Position&, const Position&) = default;
};

struct Range {
  Position start;
  Position end;
  friend bool operator==(const Range&, const Range&) = default;
};

// Maps byte offsets to line/column and back. Recognises \n, \r\n and a lone \r as line ends.
class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  size_t line_count() const { return starts_.size(); }
  Position position(size_t offset) const;
  size_t offset(Position pos) const;  // clamped to the line's end and to the text's size
  // The text of a line without its terminator.
  std::string_view line(std::string_view text, size_t line) const;

 private:
  std::vector<size_t> starts_;
  size_t size_ = 0;
};

}  // namespace denpex::core
