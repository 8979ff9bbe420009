#pragma once
// Open documents as the client sees them, and the LSP position encodings. Text is kept as UTF-8;
// LSP columns arrive in the negotiated encoding (UTF-16 code units unless the client offers
// UTF-8) and are converted at this boundary so everything below works in bytes.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace denpex::lsp {

enum class PositionEncoding { Utf8, Utf16 };

std::string_view to_string(PositionEncoding e);  // "utf-8", "utf-16"

// A position as LSP sends it: 0-based line, column in the negotiated encoding.
struct LspPosition {
  uint32_t line = 0;
  uint32_t character = 0;
  friend bool operator==(const LspPosition&, const LspPosition&) = default;
  friend auto operator<=>(const LspPosition&, const LspPosition&) = default;
};

struct LspRange {
  LspPosition start;
  LspPosition end;
};

// Byte offset within `line` (UTF-8, no terminator) of the column `character`. A column past the
// line's end means the end (as the LSP spec asks); one inside a code point (the middle of a
// UTF-16 surrogate pair or of a UTF-8 sequence) rounds down to the code point's start.
size_t byte_column(std::string_view line, uint32_t character, PositionEncoding enc);
// The column in `enc` of byte offset `byte` within `line`; offsets inside a code point round down.
uint32_t encoded_column(std::string_view line, size_t byte, PositionEncoding enc);

// Byte offset in `text` of an LSP position. Lines end at \n, \r\n or a lone \r, as in the spec.
// A line past the end maps to the end of the text.
size_t offset_of(std::string_view text, LspPosition pos, PositionEncoding enc);
LspPosition position_of(std::string_view text, size_t offset, PositionEncoding enc);

// Immutable once stored: analysis may hold a snapshot while the main loop applies newer edits.
struct Document {
  std::string uri;
  std::string language_id;
  int64_t version = 0;
  std::string text;
};

struct ContentChange {
  std::optional<LspRange> range;  // absent: `text` replaces the whole document
  std::string text;
};

class DocumentStore {
 public:
  void open(std::string uri, std::string language_id, int64_t version, std::string text);
  // Applies the changes in order, all or nothing. Returns an error message (and leaves the
  // document unchanged) for an unknown uri or a range whose start is after its end.
  std::optional<std::string> change(const std::string& uri, int64_t version, const std::vector<ContentChange>& changes,
                                    PositionEncoding enc);
  bool close(const std::string& uri);

  std::shared_ptr<const Document> get(const std::string& uri) const;
  size_t size() const { return docs_.size(); }

 private:
  std::map<std::string, std::shared_ptr<const Document>> docs_;
};

}  // namespace denpex::lsp
