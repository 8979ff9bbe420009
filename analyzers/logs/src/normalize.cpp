#include "denpex/logs/normalize.h"

#include <cctype>

namespace denpex::logs {

void normalize_line(std::string_view raw, std::string& out) {
  out.clear();
  // A trailing '\r' (CRLF) is a line end, not a rewrite.
  while (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
  size_t last_cr = raw.rfind('\r');
  if (last_cr != std::string_view::npos) raw.remove_prefix(last_cr + 1);
  out.reserve(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\x1b') {
      out.push_back(c);
      continue;
    }
    if (i + 1 >= raw.size()) break;
    char kind = raw[i + 1];
    if (kind == '[') {  // CSI: parameters and intermediates, then one final byte 0x40-0x7e
      size_t j = i + 2;
      while (j < raw.size() && !(raw[j] >= 0x40 && raw[j] <= 0x7e)) ++j;
      i = j;
    } else if (kind == ']') {  // OSC: until BEL or ESC backslash
      size_t j = i + 2;
      while (j < raw.size() && raw[j] != '\x07' && !(raw[j] == '\x1b' && j + 1 < raw.size() && raw[j + 1] == '\\'))
        ++j;
      i = (j < raw.size() && raw[j] == '\x1b') ? j + 1 : j;
    } else {
      i += 1;  // two-byte sequence
    }
  }
}

namespace {
bool digits(std::string_view s, size_t& i, int& value) {
  size_t start = i;
  value = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - start < 7) value = value * 10 + (s[i++] - '0');
  return i > start;
}
bool eat(std::string_view s, size_t& i, std::string_view lit) {
  if (s.substr(i, lit.size()) != lit) return false;
  i += lit.size();
  return true;
}
// The length of the role name in a `[{role}{N}]:` prefix at the start of `line`, 0 when there is
// none. A role is a word torchrun took from `--role` (`default` unless set); words that a
// script's own progress lines put in brackets (`[epoch3]:`, `[step12]:`) are no role.
size_t role_length(std::string_view line) {
  if (line.empty() || line[0] != '[') return 0;
  size_t i = 1;
  while (i < line.size() && i <= 33 && (std::isalpha(static_cast<unsigned char>(line[i])) || line[i] == '_' || line[i] == '-')) ++i;
  const std::string_view role = line.substr(1, i - 1);
  if (role.empty() || i > 33 || i >= line.size() || !std::isdigit(static_cast<unsigned char>(line[i]))) return 0;
  std::string low(role);
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view progress : {"epoch", "ep", "e", "step", "steps", "iter", "iteration", "it", "batch", "b", "s",
                                    "round", "stage", "phase", "layer", "block", "sample", "example", "line", "v"})
    if (low == progress) return 0;
  return role.size();
}
// A wrapper's own rank tag at the head of every line (a launcher's pump, a `sed` or `awk` in the
// pipe): `[rank: 2] `, `[worker-2] `, `(rank=2) `, `[r2] `, `[rank 2/4] `, `rank2 | `, `Rank 2: `.
// The word says whose process it is; torch's own `[Rank 2] ` (its messages, matched whole) is left
// to the in-text reading.
std::optional<RankPrefix> rank_tag(std::string_view line) {
  size_t i = 0;
  const char open = !line.empty() && (line[0] == '[' || line[0] == '(') ? line[0] : '\0';
  if (open) ++i;
  const size_t word_at = i;
  while (i < line.size() && i - word_at < 8 && std::isalpha(static_cast<unsigned char>(line[i]))) ++i;
  std::string word(line.substr(word_at, i - word_at));
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool known = false;
  for (std::string_view w : {"rank", "worker", "proc", "process", "trainer", "task"}) known = known || word == w;
  if (open) known = known || word == "r" || word == "w";
  if (!known) return std::nullopt;
  const size_t sep_at = i;
  while (i < line.size() && i - sep_at < 2 && (line[i] == ' ' || line[i] == ':' || line[i] == '=' || line[i] == '-' ||
                                               line[i] == '_' || line[i] == '#'))
    ++i;
  int rank = 0;
  const size_t digits_at = i;
  if (!digits(line, i, rank)) return std::nullopt;
  if (open == '[' && line.substr(0, sep_at) == "[Rank" && line.substr(sep_at, digits_at - sep_at) == " ") return std::nullopt;
  if (open && i < line.size() && line[i] == '/') {  // of world size
    int world = 0;
    ++i;
    if (!digits(line, i, world) || rank >= world) return std::nullopt;
  }
  if (open) {
    if (i >= line.size() || line[i] != (open == '[' ? ']' : ')')) return std::nullopt;
    ++i;
    if (i < line.size() && line[i] == ':') ++i;
    if (i < line.size() && line[i] != ' ') return std::nullopt;
  } else if (eat(line, i, ": ") || eat(line, i, " | ") || eat(line, i, "| ")) {
    return RankPrefix{rank, i};
  } else {
    return std::nullopt;
  }
  if (i < line.size()) ++i;
  return RankPrefix{rank, i};
}
// Horovod's stall report (stall_inspector.cc, 0.20 on) prints `Missing ranks:` and then one row per
// missing rank, `1: [tensor, tensor ...]`, which reads like an srun label. A row is the bracketed
// list of tensor names alone: srun's own lines go on after a bracket (`0: [rank0]: ...`, `0: [W ...`).
bool horovod_missing_row(std::string_view body) {
  if (body.empty() || body[0] != '[') return false;
  size_t i = 1;
  auto name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' || c == '-';
  };
  while (i < body.size() && name_char(body[i])) ++i;
  if (i == 1) return false;
  const std::string_view rest = body.substr(i);
  return rest.starts_with(", ") || rest == "]" || rest == " ...]";
}
}  // namespace

std::optional<RankPrefix> rank_prefix(std::string_view line) {
  size_t i = 0;
  int rank = 0;
  if (eat(line, i, "[rank") && digits(line, i, rank) && eat(line, i, "]:")) {
    if (i < line.size() && line[i] == ' ') ++i;
    return RankPrefix{rank, i};
  }
  i = 1 + role_length(line);
  if (i > 1 && digits(line, i, rank) && eat(line, i, "]:")) {
    // torchrun's `--tee` prefix, `[{role}{local_rank}]:` (`[default3]:`, `[trainer3]:` with
    // `--role trainer`), names the local rank; the `[rankN]:` torch prints behind it (its
    // excepthook, c10d's logger) names the global one.
    const size_t after = i;
    int global = 0;
    if (i < line.size() && line[i] == ' ') ++i;
    if (eat(line, i, "[rank") && digits(line, i, global) && eat(line, i, "]:")) {
      if (i < line.size() && line[i] == ' ') ++i;
      return RankPrefix{global, i, rank};
    }
    i = after;
    if (i < line.size() && line[i] == ' ') ++i;
    return RankPrefix{rank, i, rank, true};
  }
  i = 0;
  int job = 0;
  if (eat(line, i, "[") && digits(line, i, job) && eat(line, i, ",") && digits(line, i, rank) && eat(line, i, "]<")) {
    if ((eat(line, i, "stdout>:") || eat(line, i, "stderr>:"))) {
      if (i < line.size() && line[i] == ' ') ++i;
      return RankPrefix{rank, i};
    }
  }
  if (auto tag = rank_tag(line)) return tag;
  // `srun --label`: the task id, right-aligned to the width of the largest one, then `: `
  // (`0: `, ` 3: `, `12: `). Only small ids with the exact spacing srun prints.
  i = 0;
  while (i < line.size() && i < 4 && line[i] == ' ') ++i;
  const size_t start = i;
  if (digits(line, i, rank) && i - start <= 5 && i <= 6 && eat(line, i, ": ") && i < line.size() &&
      !horovod_missing_row(line.substr(i)))
    return RankPrefix{rank, i};
  // GNU parallel's `--tag` over rank arguments (`parallel --tag 'RANK={} python ...' ::: 0 1 2 3`):
  // the argument, then a TAB, at the very start (`cat -n` pads its numbers with spaces).
  i = 0;
  if (digits(line, i, rank) && i <= 3 && eat(line, i, "\t") && i < line.size()) return RankPrefix{rank, i};
  return std::nullopt;
}

}  // namespace denpex::logs
