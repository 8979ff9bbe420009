#include "denpex/server/document.h"

#include "denpex/core/text.h"

namespace denpex::lsp {
namespace {

// Length in bytes of the UTF-8 sequence starting at `i`, and whether it encodes a code point
// outside the BMP (two UTF-16 units). Ill-formed bytes count as one byte, one unit: text comes
// from validated JSON, but conversion must never read past the line or loop forever.
struct CodePoint {
  size_t bytes;
  bool astral;
};

CodePoint code_point_at(std::string_view s, size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
  if (i + len > s.size()) return {1, false};
  for (size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return {1, false};
  return {len, len == 4};
}

bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

size_t round_down_to_code_point(std::string_view line, size_t byte) {
  size_t start = byte;
  // At most three continuation bytes precede a sequence's first byte.
  while (start > 0 && byte - start < 3 && start < line.size() && is_continuation(line[start])) --start;
  if (start < line.size() && start != byte) {
    CodePoint cp = code_point_at(line, start);
    if (start + cp.bytes > byte) return start;
  }
  return byte;
}

}  // namespace

std::string_view to_string(PositionEncoding e) { return e == PositionEncoding::Utf8 ? "utf-8" : "utf-16"; }

size_t byte_column(std::string_view line, uint32_t character, PositionEncoding enc) {
  if (enc == PositionEncoding::Utf8) {
    if (character >= line.size()) return line.size();
    return round_down_to_code_point(line, character);
  }
  uint64_t units = 0;
  size_t i = 0;
  while (i < line.size()) {
    if (units >= character) return i;
    CodePoint cp = code_point_at(line, i);
    unsigned u = cp.astral ? 2 : 1;
    if (units + u > character) return i;  // inside a surrogate pair
    units += u;
    i += cp.bytes;
  }
  return line.size();
}

uint32_t encoded_column(std::string_view line, size_t byte, PositionEncoding enc) {
  if (byte >= line.size()) byte = line.size();
  else byte = round_down_to_code_point(line, byte);
  if (enc == PositionEncoding::Utf8) return static_cast<uint32_t>(byte);
  uint32_t units = 0;
  for (size_t i = 0; i < byte;) {
    CodePoint cp = code_point_at(line, i);
    units += cp.astral ? 2 : 1;
    i += cp.bytes;
  }
  return units;
}

// Line boundaries are core::LineIndex's (\n, \r\n or a lone \r); only the column is converted.
size_t offset_of(std::string_view text, LspPosition pos, PositionEncoding enc) {
  core::LineIndex idx(text);
  if (pos.line >= idx.line_count()) return text.size();
  size_t start = idx.offset({pos.line, 0});
  return start + byte_column(idx.line(text, pos.line), pos.character, enc);
}

LspPosition position_of(std::string_view text, size_t offset, PositionEncoding enc) {
  core::LineIndex idx(text);
  core::Position p = idx.position(offset);
  // An offset between the \r and \n of a CRLF belongs to its line; encoded_column clamps it.
  return {p.line, encoded_column(idx.line(text, p.line), p.column, enc)};
}

void DocumentStore::open(std::string uri, std::string language_id, int64_t version, std::string text) {
  auto doc = std::make_shared<Document>();
  doc->uri = uri;
  doc->language_id = std::move(language_id);
  doc->version = version;
  doc->text = std::move(text);
  docs_[std::move(uri)] = std::move(doc);
}

std::optional<std::string> DocumentStore::change(const std::string& uri, int64_t version,
                                                 const std::vector<ContentChange>& changes, PositionEncoding enc) {
  auto it = docs_.find(uri);
  if (it == docs_.end()) return "didChange for a document that is not open: " + uri;
  std::string text = it->second->text;
  for (size_t k = 0; k < changes.size(); ++k) {
    const auto& c = changes[k];
    if (!c.range) {
      text = c.text;
      continue;
    }
    if (c.range->end < c.range->start)
      return "didChange for " + uri + ": change " + std::to_string(k) + " has a range whose start is after its end";
    size_t start = offset_of(text, c.range->start, enc);
    size_t end = offset_of(text, c.range->end, enc);
    if (end < start) end = start;
    text.replace(start, end - start, c.text);
  }
  auto doc = std::make_shared<Document>(*it->second);
  doc->version = version;
  doc->text = std::move(text);
  it->second = std::move(doc);
  return std::nullopt;
}

bool DocumentStore::close(const std::string& uri) { return docs_.erase(uri) > 0; }

std::shared_ptr<const Document> DocumentStore::get(const std::string& uri) const {
  auto it = docs_.find(uri);
  return it == docs_.end() ? nullptr : it->second;
}

}  // namespace denpex::lsp
