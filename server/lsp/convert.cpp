#include "convert.h"

namespace denpex::lsp {
namespace {

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
      out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

LspPosition Positions::to_lsp(core::Position p) const {
  if (p.line >= index_.line_count()) {
    // Past the end: the end of the last line.
    uint32_t last = static_cast<uint32_t>(index_.line_count() - 1);
    std::string_view l = index_.line(text_, last);
    return {last, encoded_column(l, l.size(), enc_)};
  }
  return {p.line, encoded_column(index_.line(text_, p.line), p.column, enc_)};
}

core::Position Positions::from_lsp(LspPosition p) const {
  if (p.line >= index_.line_count()) return index_.position(text_.size());
  return {p.line, static_cast<uint32_t>(byte_column(index_.line(text_, p.line), p.character, enc_))};
}

LspRange Positions::line_range(uint32_t line) const {
  if (line >= index_.line_count()) line = static_cast<uint32_t>(index_.line_count() - 1);
  std::string_view l = index_.line(text_, line);
  return {{line, 0}, {line, encoded_column(l, l.size(), enc_)}};
}

int lsp_severity(core::Severity s) {
  switch (s) {
    case core::Severity::Fatal:
    case core::Severity::Error: return 1;
    case core::Severity::Warning: return 2;
    case core::Severity::Info: return 3;
  }
  return 2;
}

json to_json(const Positions& pos, const core::TextEdit& e) {
  return {{"range", to_json(pos.to_lsp(e.range))}, {"newText", e.new_text}};
}

std::optional<std::string> uri_to_path(std::string_view uri) {
  if (uri.substr(0, 7) != "file://") return std::nullopt;
  std::string_view rest = uri.substr(7);
  // file://host/path: only the local host (empty or "localhost") names a local file.
  size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  std::string_view host = rest.substr(0, slash);
  if (!host.empty() && host != "localhost") return std::nullopt;
  return percent_decode(rest.substr(slash));
}

std::string path_to_uri(std::string_view path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out = "file://";
  for (unsigned char c : path) {
    bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '-' ||
                c == '.' || c == '_' || c == '~';
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string uri_basename(std::string_view uri) {
  size_t cut = uri.find_last_of("/:");
  return percent_decode(cut == std::string_view::npos ? uri : uri.substr(cut + 1));
}

}  // namespace denpex::lsp
