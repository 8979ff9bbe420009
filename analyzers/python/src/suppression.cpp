#include "suppression.h"

#include <algorithm>
#include <cctype>

#include "denpex/python/analyze.h"

namespace denpex::python {
namespace {

std::string_view skip_space(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

// Codes look like `DPX001` or `E501`: letters then digits.
std::vector<std::string> read_codes(std::string_view s) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ',' || s[i] == ' ' || s[i] == '\t')) ++i;
    size_t b = i;
    while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
    size_t letters = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (letters == b || i == letters) break;
    out.emplace_back(s.substr(b, i - b));
  }
  return out;
}

bool parse_denpex(std::string_view text, Suppression& s) {
  size_t at = text.find("denpex:");
  if (at == std::string_view::npos) return false;
  std::string_view rest = skip_space(text.substr(at + 7));
  if (rest.substr(0, 11) == "ignore-file") {
    s.file_level = true;
    rest.remove_prefix(11);
  } else if (rest.substr(0, 6) == "ignore") {
    rest.remove_prefix(6);
  } else {
    return false;
  }
  rest = skip_space(rest);
  if (!rest.empty() && rest.front() == '[') {
    size_t close = rest.find(']');
    s.codes = read_codes(rest.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1));
  }
  s.all = s.codes.empty();
  return true;
}

bool parse_noqa(std::string_view text, Suppression& s) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  size_t at = lower.find("noqa");
  if (at == std::string::npos) return false;
  // Only `# noqa` as a directive, not the word inside prose.
  size_t b = at;
  while (b > 0 && (lower[b - 1] == ' ' || lower[b - 1] == '\t')) --b;
  if (b == 0 || lower[b - 1] != '#') return false;
  s.noqa = true;
  std::string_view rest = skip_space(text.substr(at + 4));
  if (!rest.empty() && rest.front() == ':') s.codes = read_codes(skip_space(rest.substr(1)));
  s.all = s.codes.empty();
  return true;
}

}  // namespace

std::vector<Suppression> read_suppressions(const Module& m) {
  std::vector<Suppression> out;
  for (TSNode c : m.comments()) {
    std::string_view t = m.text(c);
    Suppression s;
    s.comment = c;
    s.line = m.start(c).line;
    if (!parse_denpex(t, s) && !parse_noqa(t, s)) continue;
    s.used.assign(s.all ? 1 : s.codes.size(), false);
    out.push_back(std::move(s));
  }
  return out;
}

void apply_suppressions(std::vector<Suppression>& sups, std::vector<core::Finding>& findings) {
  if (sups.empty()) return;
  auto suppressed = [&](const core::Finding& f) {
    bool hit = false;
    for (auto& s : sups) {
      // A finding is suppressed from its first line or its last (where a call's `)` sits).
      if (!s.file_level && s.line != f.range.start.line && s.line != f.range.end.line) continue;
      if (s.all) {
        s.used[0] = true;
        hit = true;
        continue;
      }
      for (size_t i = 0; i < s.codes.size(); ++i)
        if (s.codes[i] == f.code) {
          s.used[i] = true;
          hit = true;
        }
    }
    return hit;
  };
  findings.erase(std::remove_if(findings.begin(), findings.end(), suppressed), findings.end());
}

std::optional<core::TextEdit> suppression_edit(const Module& m, const core::Finding& f) {
  const core::LineIndex& lines = m.lines();
  uint32_t line = f.range.start.line;
  auto ends_with_backslash = [&](uint32_t l) {
    std::string_view t = lines.line(m.source(), l);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
    return !t.empty() && t.back() == '\\';
  };
  if (ends_with_backslash(line)) line = f.range.end.line;
  if (ends_with_backslash(line)) return std::nullopt;
  std::string_view text = lines.line(m.source(), line);
  const core::Position eol{line, static_cast<uint32_t>(text.size())};
  for (TSNode c : m.comments()) {
    if (m.start(c).line != line) continue;
    Suppression s;
    std::string_view t = m.text(c);
    if (!parse_denpex(t, s) || s.file_level) continue;
    if (s.all) return std::nullopt;
    for (const auto& code : s.codes)
      if (code == f.code) return std::nullopt;
    // Join the list: `# denpex: ignore[A]` -> `# denpex: ignore[A, CODE]`.
    size_t open = t.find('[', t.find("denpex:"));
    size_t close = open == std::string_view::npos ? open : t.find(']', open);
    if (close == std::string_view::npos) continue;
    core::Position at = m.start(c);
    at.column += static_cast<uint32_t>(close);
    return core::TextEdit{{at, at}, ", " + f.code};
  }
  return core::TextEdit{{eol, eol}, "  # denpex: ignore[" + f.code + "]"};
}

}  // namespace denpex::python
