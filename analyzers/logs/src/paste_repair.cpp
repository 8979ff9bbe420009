#include "denpex/logs/paste_repair.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "event_stream.h"
#include "newest_first.h"
#include "text_lines.h"

namespace denpex::logs {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool word_char(char c) { return is_digit(c) || is_alpha(c) || c == '_'; }

bool digits_at(std::string_view s, size_t i, size_t n) {
  if (i + n > s.size()) return false;
  for (size_t k = 0; k < n; ++k)
    if (!is_digit(s[i + k])) return false;
  return true;
}

// A terminal wraps by columns: UTF-8 continuation bytes take none.
size_t columns(std::string_view s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

bool box_drawing_at(std::string_view s, size_t i) {  // U+2500..U+257F
  return i + 3 <= s.size() && s[i] == '\xe2' && (s[i + 1] == '\x94' || s[i + 1] == '\x95');
}

// `-----`, `=====`, `────`: table rules are often exactly as wide as the widest line.
bool rule_line(std::string_view s) {
  if (s.empty()) return false;
  for (size_t i = 0; i < s.size();) {
    if (box_drawing_at(s, i)) {
      i += 3;
    } else if (std::string_view("-=_*~#+ ").find(s[i]) != std::string_view::npos) {
      ++i;
    } else {
      return false;
    }
  }
  return true;
}

bool glog_at(std::string_view s, size_t i) {  // E0227 23:25:08
  return i + 14 <= s.size() && std::string_view("IWEF").find(s[i]) != std::string_view::npos && digits_at(s, i + 1, 4) &&
         s[i + 5] == ' ' && digits_at(s, i + 6, 2) && s[i + 8] == ':' && digits_at(s, i + 9, 2) && s[i + 11] == ':';
}

bool iso_at(std::string_view s, size_t i) {  // 2024-05-01 12:34:56, 2024-05-01T12:34:56
  return i + 19 <= s.size() && digits_at(s, i, 4) && s[i + 4] == '-' && digits_at(s, i + 5, 2) && s[i + 7] == '-' &&
         digits_at(s, i + 8, 2) && (s[i + 10] == ' ' || s[i + 10] == 'T') && digits_at(s, i + 11, 2) && s[i + 13] == ':';
}

bool rank_prefix_at(std::string_view s, size_t i) {  // [rank3]: / [default3]:
  std::string_view rest = s.substr(i);
  size_t k = rest.starts_with("[rank") ? 5 : rest.starts_with("[default") ? 8 : 0;
  if (k == 0 || k >= rest.size() || !is_digit(rest[k])) return false;
  while (k < rest.size() && is_digit(rest[k])) ++k;
  return rest.substr(k).starts_with("]:");
}

// mpirun's `[1,3]<stderr>:` and horovodrun's `[3]<stdout>:`.
bool mpi_prefix_at(std::string_view s, size_t i) {
  if (i >= s.size() || s[i] != '[') return false;
  size_t k = i + 1;
  while (k < s.size() && (is_digit(s[k]) || s[k] == ',')) ++k;
  std::string_view rest = s.substr(k);
  return k > i + 1 && (rest.starts_with("]<stderr>:") || rest.starts_with("]<stdout>:"));
}

// Python logging's default format, `WARNING:torch.distributed.elastic...:text`.
bool logging_head_at(std::string_view s, size_t i) {
  std::string_view rest = s.substr(i);
  for (std::string_view level : {"DEBUG:", "INFO:", "WARNING:", "ERROR:", "CRITICAL:"})
    if (rest.starts_with(level) && rest.size() > level.size() && (std::islower(static_cast<unsigned char>(rest[level.size()])) || rest[level.size()] == '_'))
      return true;
  return false;
}

constexpr std::string_view kTraceback = "Traceback (most recent call last):";

// `File "PATH", line N, in NAME`: the end of the header (after NAME), or 0.
size_t frame_header_end(std::string_view s, size_t i) {
  if (!s.substr(i).starts_with("File \"")) return 0;
  // Paths are short: looking no further keeps a line of many `File "` linear.
  size_t q = s.substr(0, std::min(s.size(), i + 1024)).find("\", line ", i + 6);
  if (q == std::string_view::npos) return 0;
  size_t k = q + 8;
  if (k >= s.size() || !is_digit(s[k])) return 0;
  while (k < s.size() && is_digit(s[k])) ++k;
  if (!s.substr(k).starts_with(", in ")) return 0;
  k += 5;
  while (k < s.size() && s[k] != ' ') ++k;
  return k;
}

// `KeyError: 'x'`, `torch.OutOfMemoryError: ...`, a bare `KeyboardInterrupt` at the end.
bool exception_at(std::string_view s, size_t i) {
  size_t k = i;
  while (k < s.size() && (word_char(s[k]) || s[k] == '.')) ++k;
  if (k == i || !is_alpha(s[i])) return false;
  std::string_view name = s.substr(i, k - i);
  bool named = false;
  for (std::string_view tail : {"Error", "Exception", "Interrupt", "Exit", "Failure"}) named = named || name.ends_with(tail);
  return named && (k == s.size() || s[k] == ':');
}

bool chain_message_at(std::string_view s, size_t i) {
  std::string_view rest = s.substr(i);
  return rest.starts_with("During handling of the above exception") ||
         rest.starts_with("The above exception was the direct cause");
}

bool table_index_at(std::string_view s, size_t i) {  // torchrun's failure table: `[0]:`
  if (i >= s.size() || s[i] != '[') return false;
  size_t k = i + 1;
  while (k < s.size() && is_digit(s[k])) ++k;
  return k > i + 1 && s.substr(k).starts_with("]:");
}

// The head of a line a program began (as opposed to the tail of a wrapped one).
bool record_start(std::string_view s) {
  if (rule_line(s)) return true;
  size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  if (glog_at(s, i) || iso_at(s, i) || rank_prefix_at(s, i) || mpi_prefix_at(s, i) || logging_head_at(s, i) ||
      table_index_at(s, i) || exception_at(s, i) || frame_header_end(s, i) > 0)
    return true;
  std::string_view rest = s.substr(i);
  for (std::string_view head : {kTraceback, std::string_view("[pod/")})
    if (rest.starts_with(head)) return true;
  return false;
}

// Letters, digits and the rest told apart over a line's first bytes: two lines a program
// began alike (`W0227 23:`, `W0227 23:`) share it, a wrapped tail rarely shares its head's.
std::string head_shape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size() && i < 6; ++i) out.push_back(is_digit(s[i]) ? '9' : is_alpha(s[i]) ? 'a' : s[i]);
  return out;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> out;
  for_each_line(text, [&](std::string_view line) { out.push_back(line); });
  return out;
}

// Hard wrapping shows as many lines exactly as wide as the widest one, most of them followed by
// a line that no program would begin that way. Padding (two spaces at either side of the cut)
// is a program's layout, not a cut.
size_t wrap_width(std::string_view text) {
  size_t width = 0;
  for_each_line(text, [&](std::string_view l) {
    // A frame's top and bottom edges (`┌── Logs(...) ──┐`) are wider than the text inside it.
    if (l.size() > width && !box_drawing_at(l, 0)) width = std::max(width, columns(l));  // columns <= bytes
  });
  if (width < 60 || width > 1000) return 0;
  size_t full = 0, cut = 0;
  std::string_view prev;
  bool prev_full = false;
  for_each_line(text, [&](std::string_view next) {
    if (prev_full) {
      const bool padded = prev.ends_with("  ") || next.starts_with("  ") || (prev.back() == ' ' && next.starts_with(" "));
      if (!next.empty() && !padded && !record_start(next) && head_shape(next) != head_shape(prev)) ++cut;
    }
    prev = next;
    prev_full = next.size() >= width && columns(next) == width && !rule_line(next) &&
                !box_drawing_at(next, next.size() >= 3 ? next.size() - 3 : 0);
    full += prev_full;
  });
  return full >= 3 && cut >= 3 && cut * 5 >= full * 3 ? width : 0;
}

struct Piece {
  size_t begin;
  int indent;
};

// Where a line that holds several printed lines joined by spaces is to be cut, with each
// piece's indentation as Python printed it. Empty when the line does not clearly hold several
// (two or more line heads that a program prints only at the start of a line).
std::vector<Piece> flattened_pieces(std::string_view s) {
  std::vector<Piece> pieces{{0, 0}};
  int strong = 0;
  int last_indent = 0;
  // What a line head can begin with: `[rank`, `[1,3]<`, a glog letter, a digit (ISO), a logging
  // level, `Traceback`, `File`, `During`/`The above`; after a frame's source line any letter (an
  // exception). Other bytes after a space are skipped without further tests.
  static constexpr std::string_view kHeads = "[IWEFDCT0123456789";
  for (size_t i = 1; i < s.size(); ++i) {
    if (s[i - 1] != ' ') continue;
    if (last_indent != 4 && kHeads.find(s[i]) == std::string_view::npos) continue;
    size_t prev = i - 1;
    while (prev > 0 && s[prev] == ' ') --prev;
    const bool after_colon = s[prev] == ':';
    // A launcher prefix stays with the text it was printed before: `[rank2]:   File ...`.
    const size_t from = pieces.back().begin;
    if ((rank_prefix_at(s, from) || mpi_prefix_at(s, from)) && s.find(':', from) == prev) continue;
    if (glog_at(s, i) || (iso_at(s, i) && !after_colon) || rank_prefix_at(s, i) || mpi_prefix_at(s, i) ||
        logging_head_at(s, i) || s.substr(i).starts_with(kTraceback)) {
      pieces.push_back({i, 0});
      ++strong;
      last_indent = 0;
    } else if (size_t end = frame_header_end(s, i)) {
      pieces.push_back({i, 2});
      ++strong;
      last_indent = 2;
      if (end + 1 < s.size() && s[end] == ' ' && !frame_header_end(s, end + 1)) {
        pieces.push_back({end + 1, 4});  // the frame's source line
        last_indent = 4;
      }
      i = end;
    } else if ((last_indent == 4 && exception_at(s, i)) || chain_message_at(s, i)) {
      pieces.push_back({i, 0});
      last_indent = 0;
    }
  }
  if (strong < 2) return {};
  return pieces;
}

// A log viewer's frame (k9s, a TUI pager): every line between two bars, `│ text    │`, padded to
// the frame's width, and lines longer than it wrapped inside it. Its lines without the frame
// and the padding, one for one; nullopt when most lines are not framed so.
std::optional<std::string> unframed(std::string_view text) {
  constexpr std::string_view kBar = "\xe2\x94\x82";  // U+2502 BOX DRAWINGS LIGHT VERTICAL
  auto inner = [&](std::string_view l) -> std::optional<std::string_view> {
    while (!l.empty() && (l.back() == ' ' || l.back() == '\r')) l.remove_suffix(1);
    if (l.size() < 2 * kBar.size() || !l.starts_with(kBar) || !l.ends_with(kBar)) return std::nullopt;
    l = l.substr(kBar.size(), l.size() - 2 * kBar.size());
    if (l.starts_with(' ')) l.remove_prefix(1);
    while (!l.empty() && l.back() == ' ') l.remove_suffix(1);
    return l;
  };
  size_t framed = 0, lines = 0;
  for_each_line(text, [&](std::string_view l) {
    if (l.empty()) return;
    ++lines;
    framed += inner(l).has_value();
  });
  if (framed < 3 || framed * 10 < lines * 6) return std::nullopt;
  std::string out;
  out.reserve(text.size());
  for_each_line(text, [&](std::string_view l) {
    out.append(inner(l).value_or(l)).push_back('\n');
  });
  return out;
}

// A test harness's stream label in front of every line it relayed from a child process:
// accelerate's `execute_subprocess_async` (behind `accelerate test`) prints each line of the
// child's stdout after `stdout: ` and of its stderr after `stderr: `. Its lines without the
// label, one for one; nullopt when most lines carry none.
std::optional<std::string> unlabelled(std::string_view text) {
  auto label = [](std::string_view l) -> size_t {
    for (std::string_view k : {"stderr: ", "stdout: "})
      if (l.starts_with(k)) return k.size();
    if (l == "stderr:" || l == "stdout:") return l.size();
    return 0;
  };
  size_t labelled = 0, lines = 0;
  for_each_line(text, [&](std::string_view l) {
    if (l.empty()) return;
    ++lines;
    labelled += label(l) > 0;
  });
  if (labelled < 3 || labelled * 10 < lines * 6) return std::nullopt;
  std::string out;
  out.reserve(text.size());
  for_each_line(text, [&](std::string_view l) { out.append(l.substr(label(l))).push_back('\n'); });
  return out;
}

}  // namespace

// Markdown bold around a whole line, as issue authors mark the error they mean
// (`> **RuntimeError: Address already in use**`): the offsets of the two `**`, after an optional
// quote (`> `) and indent; nullopt when the line is not wrapped so.
std::optional<std::pair<size_t, size_t>> bold_line(std::string_view l) {
  size_t i = 0;
  while (i < l.size() && i < 8 && (l[i] == '>' || l[i] == ' ')) ++i;
  while (!l.empty() && (l.back() == ' ' || l.back() == '\r')) l.remove_suffix(1);
  if (l.size() < i + 6 || l.substr(i, 2) != "**" || !l.ends_with("**")) return std::nullopt;
  const std::string_view inner = l.substr(i + 2, l.size() - i - 4);
  if (inner.front() == ' ' || inner.front() == '*' || inner.back() == ' ' || inner.find("**") != std::string_view::npos)
    return std::nullopt;
  return std::make_pair(i, l.size() - 2);
}

// Two processes printing to one pipe at once: `print` writes its text and its newline apart, so
// one process's line lands glued to another's and the two newlines follow as an empty line
// (`rank 3: eval split has 11 batchesrank 0: eval split has 5 batches`, then ``). Where the line
// begins again with its own head (the words before its first number, the number masked, and
// the punctuation after it), glued to text with no space between: the cut, else 0.
size_t glued_at(std::string_view l) {
  size_t d = 0;
  while (d < l.size() && d < 24 && !is_digit(l[d])) ++d;
  if (d == 0 || d >= l.size() || d >= 24) return 0;
  if (std::none_of(l.begin(), l.begin() + static_cast<std::ptrdiff_t>(d), is_alpha)) return 0;
  size_t e = d;
  while (e < l.size() && is_digit(l[e])) ++e;
  size_t h = e;
  while (h < l.size() && h - e < 3 && (l[h] == ':' || l[h] == ']' || l[h] == ')' || l[h] == ' ')) ++h;
  if (h == e) return 0;  // `step 12 ...`: a number, not a head
  const std::string_view words = l.substr(0, d), after = l.substr(e, h - e);
  for (size_t k = l.find(words, h); k != std::string_view::npos; k = l.find(words, k + 1)) {
    if (l[k - 1] == ' ' || (k + d < l.size() && !is_digit(l[k + d]))) continue;
    size_t j = k + d;
    while (j < l.size() && is_digit(l[j])) ++j;
    if (l.substr(j, after.size()) == after) return k;
  }
  return 0;
}

std::optional<RepairedPaste> repair_paste(std::string_view paste) {
  // The frame goes first: the wrapping inside it shows only once the padding is gone.
  const std::optional<std::string> unframed_text = unframed(paste);
  if (unframed_text) paste = *unframed_text;
  const std::optional<std::string> unlabelled_text = unlabelled(paste);
  if (unlabelled_text) paste = *unlabelled_text;
  const std::optional<std::string> unevented_text = unevented(paste);
  if (unevented_text) paste = *unevented_text;
  const std::optional<std::string> upright = oldest_first(paste);
  if (upright) paste = *upright;
  // Most inputs are neither: tell that without building anything.
  const size_t width = wrap_width(paste);
  if (width == 0 && !unframed_text && !unlabelled_text && !unevented_text && !upright) {
    bool flattened = false;
    for_each_line(paste, [&](std::string_view l) {
      if (!flattened && l.size() >= 160) flattened = !flattened_pieces(l).empty();
    });
    bool bold = false;
    for_each_line(paste, [&](std::string_view l) { bold = bold || bold_line(l); });
    bool glued = false;
    std::string_view before;
    for_each_line(paste, [&](std::string_view l) {
      glued = glued || (l.empty() && !before.empty() && glued_at(before));
      before = l;
    });
    if (!flattened && !bold && !glued) return std::nullopt;
  }
  const std::vector<std::string_view> lines = split_lines(paste);
  RepairedPaste out;
  out.physical_lines = lines.size();
  out.text.reserve(paste.size() + 64);
  size_t joins = 0, flattened = 0, unbolded = 0, unglued = 0;
  std::string line;
  for (size_t i = 0; i < lines.size(); ++i) {
    const uint64_t physical = i + 1;
    line.assign(lines[i]);
    if (auto b = bold_line(line)) {
      line.erase(b->second, 2);
      line.erase(b->first, 2);
      ++unbolded;
    }
    if (width > 0) {
      std::string_view piece = lines[i];
      while (columns(piece) == width && !rule_line(piece) && i + 1 < lines.size() && !lines[i + 1].empty() &&
             !record_start(lines[i + 1])) {
        piece = lines[++i];
        line.append(piece);
        ++joins;
      }
    }
    if (i + 1 < lines.size() && lines[i + 1].empty())
      if (const size_t cut = glued_at(line)) {
        out.text.append(line, 0, cut).push_back('\n');
        out.text.append(line, cut).push_back('\n');
        out.physical.push_back(physical);
        out.physical.push_back(physical);
        ++i;  // the empty line is the second newline
        ++unglued;
        continue;
      }
    std::vector<Piece> pieces = line.size() >= 160 ? flattened_pieces(line) : std::vector<Piece>{};
    if (pieces.empty()) {
      out.text.append(line).push_back('\n');
      out.physical.push_back(physical);
      continue;
    }
    ++flattened;
    for (size_t k = 0; k < pieces.size(); ++k) {
      size_t end = k + 1 < pieces.size() ? pieces[k + 1].begin : line.size();
      std::string_view text = std::string_view(line).substr(pieces[k].begin, end - pieces[k].begin);
      while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
      if (text.empty()) continue;
      out.text.append(static_cast<size_t>(pieces[k].indent), ' ').append(text).push_back('\n');
      out.physical.push_back(physical);
    }
  }
  if (joins == 0 && flattened == 0 && unbolded == 0 && unglued == 0 && !unframed_text && !unlabelled_text &&
      !unevented_text && !upright)
    return std::nullopt;
  if (unframed_text) out.what = "a log viewer's frame (`│ ... │`) taken off";
  if (unlabelled_text) {
    if (!out.what.empty()) out.what += "; ";
    out.what += "a test harness's `stderr: `/`stdout: ` labels taken off";
  }
  if (unevented_text) {
    if (!out.what.empty()) out.what += "; ";
    out.what += "a harness's JSON event lines (`{\"event\": \"line\", \"data\": ...}`) read for the output they carry";
  }
  if (upright) {
    for (uint64_t& p : out.physical) p = out.physical_lines + 1 - p;
    if (!out.what.empty()) out.what += "; ";
    out.what += "lines pasted newest first (as a log viewer lists them) put back in the order they were printed";
  }
  if (joins > 0) {
    if (!out.what.empty()) out.what += "; ";
    out.what += "lines hard-wrapped at " + std::to_string(width) + " columns rejoined (" + std::to_string(joins) +
                (joins == 1 ? " join)" : " joins)");
  }
  if (flattened > 0) {
    if (!out.what.empty()) out.what += "; ";
    out.what += std::to_string(flattened) + (flattened == 1 ? " line" : " lines") +
                " holding a flattened log split at its line heads";
  }
  if (unglued > 0) {
    if (!out.what.empty()) out.what += "; ";
    out.what += std::to_string(unglued) + (unglued == 1 ? " line" : " lines") +
                " where two processes' prints landed glued together split";
  }
  if (unbolded > 0) {
    if (!out.what.empty()) out.what += "; ";
    out.what += "Markdown bold taken off " + std::to_string(unbolded) + (unbolded == 1 ? " line" : " lines");
  }
  return out;
}

}  // namespace denpex::logs
