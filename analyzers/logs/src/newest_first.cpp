#include "newest_first.h"

#include <cstring>
#include <vector>

namespace denpex::logs {
namespace {

// Without the launcher's prefix (`[rank2]:`, `[default2]:`, srun's `2: `) and the indentation.
std::string_view trimmed(std::string_view l) {
  while (!l.empty() && (l.back() == '\r' || l.back() == ' ')) l.remove_suffix(1);
  if (size_t close = l.find("]:"); l.starts_with('[') && close != std::string_view::npos && close < 16 && close + 2 < l.size() &&
                                   l.substr(1, close - 1).find_first_of(" [") == std::string_view::npos)
    l.remove_prefix(close + 2);
  size_t digits = 0;
  while (digits < l.size() && digits < 6 && l[digits] >= '0' && l[digits] <= '9') ++digits;
  if (digits > 0 && l.substr(digits).starts_with(": ")) l.remove_prefix(digits + 2);
  while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
  return l;
}

bool frame_line(std::string_view l) { return l.starts_with("File \"") && l.find("\", line ") != std::string_view::npos; }
bool traceback_header(std::string_view l) { return l.starts_with("Traceback (most recent call last):"); }
bool root_cause_header(std::string_view l) { return l.starts_with("Root Cause (first observed failure):"); }

bool caret_line(std::string_view l) {  // Python 3.11's `^^^^^` / `~~~~^^^^` under a frame's code
  if (l.size() < 3 || l.find('^') == std::string_view::npos) return false;
  for (char c : l)
    if (c != '^' && c != '~') return false;
  return true;
}

bool table_rank_line(std::string_view l) {  // `[0]:` opening a torchrun table entry
  if (l.size() < 4 || l.front() != '[' || !l.ends_with("]:")) return false;
  for (char c : l.substr(1, l.size() - 3))
    if (c < '0' || c > '9') return false;
  return true;
}

// `2025-12-02 13:14:06` / `2025-12-02T13:14:06,361` at the line start, as one comparable string.
std::string_view stamp(std::string_view l) {
  if (l.size() < 19) return {};
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18})
    if (l[i] < '0' || l[i] > '9') return {};
  if (l[4] != '-' || l[7] != '-' || (l[10] != ' ' && l[10] != 'T') || l[13] != ':' || l[16] != ':') return {};
  size_t end = 19;  // with its fraction (`,361`, `.361204`): lines a millisecond apart still compare
  if (end < l.size() && (l[end] == ',' || l[end] == '.')) {
    size_t k = end + 1;
    while (k < l.size() && k < 29 && l[k] >= '0' && l[k] <= '9') ++k;
    if (k > end + 1) end = k;
  }
  return l.substr(0, end);
}

}  // namespace

std::optional<std::string> oldest_first(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t pos = 0; pos < text.size();) {
    const void* nl = std::memchr(text.data() + pos, '\n', text.size() - pos);
    const size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  int upside_down = 0, upright = 0, back_in_time = 0, forward = 0;
  std::string_view last_stamp;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view l = trimmed(lines[i]);
    if (l.empty()) continue;
    const std::string_view next = i + 1 < lines.size() ? trimmed(lines[i + 1]) : std::string_view{};
    if (frame_line(l) && (traceback_header(next) || caret_line(next))) ++upside_down;
    if (traceback_header(l) && frame_line(next)) ++upright;
    if (caret_line(l) && frame_line(next)) ++upright;
    if (table_rank_line(l) && root_cause_header(next)) ++upside_down;
    if (root_cause_header(l) && table_rank_line(next)) ++upright;
    if (const std::string_view s = stamp(l); !s.empty()) {
      if (!last_stamp.empty() && s < last_stamp) ++back_in_time;
      if (!last_stamp.empty() && s > last_stamp) ++forward;
      last_stamp = s;
    }
    if (upright > 0) return std::nullopt;
  }
  // Ranks writing to one stream put a few lines out of order: the clock decides by a wide margin.
  if (forward > 0 && back_in_time < 4 * forward) {
    if (forward > back_in_time) return std::nullopt;
  } else {
    upside_down += back_in_time;
  }
  if (upside_down < 2) return std::nullopt;
  std::string out;
  out.reserve(text.size() + 1);
  for (size_t i = lines.size(); i-- > 0;) {
    std::string_view l = lines[i];
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    out.append(l).push_back('\n');
  }
  return out;
}

}  // namespace denpex::logs
