#include "event_stream.h"

#include <cstdint>

#include "text_lines.h"

namespace denpex::logs {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool hex4(std::string_view s, size_t at, uint32_t& out) {
  if (at + 4 > s.size()) return false;
  out = 0;
  for (size_t k = 0; k < 4; ++k) {
    const int v = hex_value(s[at + k]);
    if (v < 0) return false;
    out = out * 16 + static_cast<uint32_t>(v);
  }
  return true;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// An event object: `{"event": ...}` as Python's json.dumps writes it, keys in any order and with
// or without the spaces after separators.
bool event_line(std::string_view line) {
  return line.starts_with("{\"") && line.ends_with("}") && line.find("\"event\":") != std::string_view::npos;
}

// The offset of the opening quote of `"data"`'s string value in an event line; npos when the
// line is no event or its data is not a string (a `start` event's object).
size_t data_string(std::string_view line) {
  if (!event_line(line)) return std::string_view::npos;
  const size_t key = line.find("\"data\":");
  if (key == std::string_view::npos) return std::string_view::npos;
  size_t i = key + 7;
  while (i < line.size() && line[i] == ' ') ++i;
  return i < line.size() && line[i] == '"' ? i : std::string_view::npos;
}

}  // namespace

std::optional<std::string> json_string_at(std::string_view s, size_t at) {
  if (at >= s.size() || s[at] != '"') return std::nullopt;
  std::string out;
  for (size_t i = at + 1; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '"') return out;
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (++i >= s.size()) return std::nullopt;
    switch (s[i]) {
      case 'n': out.push_back('\n'); break;
      case 't': out.push_back('\t'); break;
      case 'r': out.push_back('\r'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case '"': case '\\': case '/': out.push_back(s[i]); break;
      case 'u': {
        uint32_t cp = 0;
        if (!hex4(s, i + 1, cp)) return std::nullopt;
        i += 4;
        // A surrogate pair (`\ud83d\ude80`) is one code point; a lone half becomes U+FFFD.
        if (cp >= 0xD800 && cp < 0xDC00) {
          uint32_t low = 0;
          if (i + 2 < s.size() && s[i + 1] == '\\' && s[i + 2] == 'u' && hex4(s, i + 3, low) && low >= 0xDC00 && low < 0xE000) {
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            i += 6;
          } else {
            cp = 0xFFFD;
          }
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          cp = 0xFFFD;
        }
        append_utf8(out, cp);
        break;
      }
      default: return std::nullopt;
    }
  }
  return std::nullopt;  // no closing quote: a line cut short
}

std::optional<std::string> unevented(std::string_view text) {
  size_t events = 0, lines = 0;
  for_each_line(text, [&](std::string_view l) {
    if (l.empty()) return;
    ++lines;
    events += event_line(l);
  });
  if (events < 3 || events * 10 < lines * 6) return std::nullopt;
  std::string out;
  out.reserve(text.size());
  for_each_line(text, [&](std::string_view l) {
    const size_t at = data_string(l);
    std::optional<std::string> data = at == std::string_view::npos ? std::nullopt : json_string_at(l, at);
    if (!data) {
      out.append(l).push_back('\n');
      return;
    }
    while (!data->empty() && (data->back() == '\n' || data->back() == '\r')) data->pop_back();
    for (char& c : *data)
      if (c == '\n' || c == '\r') c = ' ';
    out.append(*data).push_back('\n');
  });
  return out;
}

}  // namespace denpex::logs
