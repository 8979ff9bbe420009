#include "denpex/logs/attribution.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "denpex/logs/normalize.h"
#include "find_literal.h"

namespace denpex::logs {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
// std::isalnum and std::isupper as the "C" locale answers them (denpex never sets another), inline:
// these run on every walked line.
bool ascii_alnum(unsigned char c) { return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'); }
bool ascii_upper(unsigned char c) { return c >= 'A' && c <= 'Z'; }

std::optional<double> timestamp_at(std::string_view s, size_t i);

// Parses up to 7 digits at `i`; false when there are none.
bool number(std::string_view s, size_t& i, int& value) {
  size_t start = i;
  value = 0;
  while (i < s.size() && is_digit(s[i]) && i - start < 7) value = value * 10 + (s[i++] - '0');
  return i > start;
}

// `[Rank 3]` or `[PG 0 Rank 3]` / `[PG ID 0 PG GUID 0(default_pg) Rank 3]` anywhere in the first
// part of the line (ProcessGroupNCCL, DeepSpeed's `[Rank 3]` and `[rank 3]`).
int bracket_rank(std::string_view line) {
  std::string_view head = line.substr(0, 512);
  for (size_t at = find_literal(head, "ank "); at != std::string_view::npos; at = find_literal(head, "ank ", at + 1)) {
    if (at < 2 || (head[at - 1] != 'R' && head[at - 1] != 'r')) continue;
    const size_t pos = at - 1;
    // Must sit inside a bracket group that opened with `[Rank` or `[PG`.
    size_t open = head.rfind('[', pos);
    if (open == std::string_view::npos) continue;
    if (head.find(']', open) < pos) continue;
    std::string_view inside = head.substr(open + 1, pos - open - 1);
    if (!inside.empty() && inside.substr(0, 2) != "PG") continue;
    size_t i = pos + 5;
    int r = 0;
    if (number(head, i, r) && i < head.size() && head[i] == ']') return r;
  }
  return -1;
}

// A launcher prefix behind a timestamp the user's log collector added:
// `2024-11-20 14:37:16 [rank3]: torch.OutOfMemoryError: ...`. Only when everything before the
// `[rankN]:` is a wall-clock stamp, so that text which merely mentions `[rank3]:` is not taken.
int stamped_rank_prefix(std::string_view line) {
  size_t at = find_literal(line, " [rank");
  if (at == std::string_view::npos || at == 0 || at > 40) return -1;
  if (!timestamp_at(line, 0)) return -1;
  size_t i = at + 6;
  int r = 0;
  if (!number(line, i, r) || line.substr(i, 2) != "]:") return -1;
  return r;
}

// Python logging's `%(levelname)s` and the space after it at the start of `s`: its length, or 0.
size_t level_word(std::string_view s) {
  for (std::string_view level : {"DEBUG ", "INFO ", "WARNING ", "WARN ", "ERROR ", "CRITICAL "})
    if (s.starts_with(level)) return level.size();
  return 0;
}

// Python `logging` with the rank in the logger's name: `2026-12-07 18:14:52,606 ERROR train.r2 ...`
// (`%(asctime)s %(levelname)s %(name)s`), the name's last part `rN` or `rankN`.
// `stamped`: the line's leading timestamp was already taken off, so it starts with the level.
int logger_name_rank(std::string_view line, bool stamped) {
  size_t after = stamped ? level_word(line) : 0;
  if (!stamped && timestamp_at(line, 0))
    for (size_t sp = line.find(' '); !after && sp != std::string_view::npos && sp < 48; sp = line.find(' ', sp + 1))
      if (size_t k = level_word(line.substr(sp + 1))) after = sp + 1 + k;
  if (!after) return -1;
  std::string_view name = line.substr(after);
  name = name.substr(0, std::min(name.find(' '), name.size()));
  if (!name.empty() && name.back() == ':') name.remove_suffix(1);
  const size_t dot = name.find_last_of("._-");
  if (dot == std::string_view::npos) return -1;
  std::string_view part = name.substr(dot + 1);
  if (part.starts_with("rank")) part.remove_prefix(4);
  else if (part.starts_with("r")) part.remove_prefix(1);
  else return -1;
  size_t i = 0;
  int r = 0;
  return number(part, i, r) && i == part.size() ? r : -1;
}

// NCCL: `host:pid:tid [dev] NCCL WARN|INFO|ERROR ...`, or with NCCL's source location between
// (older releases and NCCL_DEBUG_FILE): `host:pid:tid [dev] init.cc:981 NCCL WARN ...`.
bool nccl_prefix(std::string_view line, Attribution& a) {
  // Only the head is searched: an occurrence further on is turned down below anyway.
  size_t nccl = find_literal(line.substr(0, 256 + 7), "] NCCL ");
  if (nccl == std::string_view::npos || nccl > 256) {
    size_t word = find_literal(line.substr(0, 300 + 6), " NCCL ");
    if (word == std::string_view::npos || word == 0 || word > 300) return false;
    size_t sp = line.rfind(' ', word - 1);
    if (sp == std::string_view::npos || sp == 0 || line[sp - 1] != ']') return false;
    std::string_view where = line.substr(sp + 1, word - sp - 1);  // `init.cc:981`
    size_t colon = where.find(".cc:");
    if (colon == std::string_view::npos || colon == 0) return false;
    nccl = sp - 1;
  }
  size_t open = line.rfind('[', nccl);
  if (open == std::string_view::npos || open < 2 || line[open - 1] != ' ') return false;
  size_t i = open + 1;
  int dev = 0;
  if (!number(line, i, dev) || i != nccl) return false;
  // host:pid:tid before the bracket
  std::string_view who = line.substr(0, open - 1);
  if (size_t sp = who.rfind(' '); sp != std::string_view::npos) who = who.substr(sp + 1);
  size_t c1 = who.find(':');
  if (c1 == std::string_view::npos || c1 == 0) return false;
  a.local_rank = dev;
  a.node = std::string(who.substr(0, c1));
  size_t j = c1 + 1;
  if (int pid = 0; number(who, j, pid) && j < who.size() && who[j] == ':') a.pid = pid;
  return true;
}

// Slurm: `srun: error: node-05: task 3: Exited with exit code 1`
bool srun_prefix(std::string_view line, Attribution& a) {
  constexpr std::string_view kSrun = "srun: error: ";
  size_t p = find_literal(line.substr(0, 64 + kSrun.size()), kSrun);
  if (p == std::string_view::npos || p > 64) return false;
  std::string_view rest = line.substr(p + kSrun.size());
  size_t colon = rest.find(": task ");
  if (colon == std::string_view::npos || colon == 0 || colon > 128) return false;
  size_t i = colon + 7;
  int task = 0;
  if (!number(rest, i, task)) return false;
  a.node = std::string(rest.substr(0, colon));
  a.rank = task;
  return true;
}

int month_index(std::string_view m) {
  static constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (size_t i = 0; i < kMonths.size(); ++i)
    if (m == kMonths[i]) return static_cast<int>(i) + 1;
  return 0;
}

// HH:MM:SS[.,frac] at `i`.
std::optional<double> clock(std::string_view s, size_t i) {
  int h = 0, m = 0, sec = 0;
  if (!number(s, i, h) || i >= s.size() || s[i] != ':') return std::nullopt;
  ++i;
  if (!number(s, i, m) || i >= s.size() || s[i] != ':') return std::nullopt;
  ++i;
  if (!number(s, i, sec)) return std::nullopt;
  double frac = 0, scale = 0.1;
  if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
    ++i;
    for (int n = 0; i < s.size() && is_digit(s[i]) && n < 9; ++i, ++n, scale /= 10) frac += (s[i] - '0') * scale;
  }
  if (h > 23 || m > 59 || sec > 60) return std::nullopt;
  return h * 3600.0 + m * 60.0 + sec + frac;
}

// Days within a year are enough to order one job's events; exact calendars are not needed. The
// year is left out on purpose: glog (`E0501`) and syslog (`May  1`) stamps have none, and an
// ISO stamp of the same moment must compare equal to them (a job spanning New Year's Eve is
// ordered wrongly across it).
double day_number(int month, int day) { return month * 31.0 + day; }

std::optional<double> timestamp_at(std::string_view s, size_t i) {
  // YYYY-MM-DD[ T_]HH:MM:SS
  if (i + 19 <= s.size() && is_digit(s[i]) && s[i + 4] == '-' && s[i + 7] == '-' &&
      (s[i + 10] == ' ' || s[i + 10] == 'T' || s[i + 10] == '_')) {
    size_t j = i;
    int y = 0, mo = 0, d = 0;
    if (number(s, j, y) && j == i + 4 && ++j && number(s, j, mo) && ++j && number(s, j, d))
      if (auto c = clock(s, i + 11)) return day_number(mo, d) * 86400.0 + *c;
  }
  // glog: [IWEF]MMDD HH:MM:SS.ffffff
  if (i + 14 <= s.size() && (s[i] == 'I' || s[i] == 'W' || s[i] == 'E' || s[i] == 'F') && is_digit(s[i + 1]) &&
      s[i + 5] == ' ') {
    int mo = (s[i + 1] - '0') * 10 + (s[i + 2] - '0'), d = (s[i + 3] - '0') * 10 + (s[i + 4] - '0');
    if (mo >= 1 && mo <= 12)
      if (auto c = clock(s, i + 6)) return day_number(mo, d) * 86400.0 + *c;
  }
  // A bare clock opening the line, `17:42:14.339 INFO ...` (a logger's `%H:%M:%S` datefmt): no
  // day, so it orders one job's files only against each other's bare clocks.
  if (i == 0 && s.size() >= 8 && is_digit(s[0]) && is_digit(s[1]) && s[2] == ':' && s[5] == ':' &&
      (s.size() == 8 || s[8] == ' ' || s[8] == '.' || s[8] == ','))
    if (auto c = clock(s, 0)) return c;
  // syslog: Mon DD HH:MM:SS
  if (i + 15 <= s.size()) {
    int mo = month_index(s.substr(i, 3));
    if (mo > 0 && s[i + 3] == ' ') {
      size_t j = i + 4;
      if (j < s.size() && s[j] == ' ') ++j;
      int d = 0;
      if (number(s, j, d) && j < s.size() && s[j] == ' ')
        if (auto c = clock(s, j + 1)) return day_number(mo, d) * 86400.0 + *c;
    }
  }
  return std::nullopt;
}

// How people paste logs: behind a log viewer's box border (`│ ` from k9s, rich), with line
// numbers (`[1745] `, `  12 | `), quoted in Markdown or mail (`> `, `>> `). Returns the bytes to
// skip; 0 when there is no such prefix.
size_t paste_prefix(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && i < 8 && line[i] == ' ') ++i;
  if (i < line.size() && line[i] == '>') {
    size_t j = i;
    while (j < line.size() && j - i < 4 && line[j] == '>') ++j;
    if (j == line.size()) return j;
    if (line[j] == ' ') return j + 1;
  }
  constexpr std::string_view kBar = "\xe2\x94\x82";  // U+2502 BOX DRAWINGS LIGHT VERTICAL
  if (line.substr(i, kBar.size()) == kBar) {
    i += kBar.size();
    if (i < line.size() && line[i] == ' ') ++i;
    return i;
  }
  // The same frame in ASCII, as log viewers and benchmark runners indent a child's output
  // (`        | [rank0]: Traceback ...`).
  if (i + 1 < line.size() && line[i] == '|' && line[i + 1] == ' ') return i + 2;
  int n = 0;
  size_t j = i;
  if (j < line.size() && line[j] == '[') {
    ++j;
    if (number(line, j, n) && j + 1 < line.size() && line[j] == ']' && line[j + 1] == ' ') return j + 2;
    return 0;
  }
  if (number(line, j, n) && line.substr(j, 3) == " | ") return j + 3;
  return 0;
}

// moreutils `ts`' default stamp, `Dec 06 12:23:35 ` (`%b %d %H:%M:%S`, day zero-padded, which
// tells it from syslog's `Dec  6`; a syslog line's host and tag come after its stamp, so a
// `host tag: ` after it is left alone).
static size_t ts_stamp(std::string_view line) {
  if (line.size() < 17 || month_index(line.substr(0, 3)) < 0 || line[3] != ' ' || !is_digit(line[4]) ||
      !is_digit(line[5]) || line[6] != ' ' || line[9] != ':' || line[12] != ':' || line[15] != ' ')
    return 0;
  for (size_t i : {7, 8, 10, 11, 13, 14})
    if (!is_digit(line[i])) return 0;
  std::string_view rest = line.substr(16);
  const size_t sp = rest.find(' ');
  if (sp == std::string_view::npos || sp == 0 || rest.substr(0, sp).find(':') != std::string_view::npos) return 16;
  const std::string_view after = rest.substr(sp + 1);
  const std::string_view tag = after.substr(0, after.find(": "));
  const bool syslog_tag = tag.size() < after.size() && tag.find(' ') == std::string_view::npos &&
                          (tag == "kernel" || (tag.ends_with(']') && tag.find('[') != std::string_view::npos));
  return syslog_tag ? 0 : 16;
}

// A log collector's stamp before every printed line: `2022-03-22 17:53:44.193 `, kubectl
// `--timestamps`' `2024-05-01T12:34:56.123456789Z `, `ts`' `Dec 06 12:23:35 `. Returns the
// bytes to skip; 0 when none.
size_t collector_stamp(std::string_view line) {
  if (size_t k = ts_stamp(line)) return k;
  if (line.size() < 21 || !is_digit(line[0]) || line[4] != '-' || !timestamp_at(line, 0)) return 0;
  size_t i = 19;
  if (line[i] == '.' || line[i] == ',') {
    ++i;
    while (i < line.size() && is_digit(line[i])) ++i;
  }
  if (i < line.size() && line[i] == 'Z') ++i;
  return i < line.size() && line[i] == ' ' ? i + 1 : 0;
}

// pdsh / DeepSpeed's multi-node runner: `worker-1: text`, `10.0.0.7: text`, `trn-b: text`. A
// host name holds a `-` or `.`, and a digit or a lettered last label of one or two lowercase
// letters (so that `RuntimeError: `, `INFO: ` and `x-axis: ` are not taken for hosts).
size_t host_prefix(std::string_view line, std::string& host) {
  size_t i = 0;
  bool digit = false, sep = false, upper = false;
  while (i < line.size() && i < 64 &&
         (ascii_alnum(static_cast<unsigned char>(line[i])) || line[i] == '-' || line[i] == '.' || line[i] == '_')) {
    digit = digit || is_digit(line[i]);
    sep = sep || line[i] == '-' || line[i] == '.';
    upper = upper || std::isupper(static_cast<unsigned char>(line[i]));
    ++i;
  }
  // pdsh's `host: `, or GNU parallel's `--tag` (the argument, here a host, then a TAB), or its
  // `--tagstring '{} {#}'` (the host, then more short words, then the TAB).
  size_t after = line.substr(i, 2) == ": " ? 2 : (i < line.size() && line[i] == '\t') ? 1 : 0;
  if (after == 0 && i < line.size() && line[i] == ' ') {
    const size_t tab = line.find('\t', i);
    if (tab != std::string_view::npos && tab < 64) {
      const std::string_view words = line.substr(i, tab - i);
      const bool printable = std::all_of(words.begin(), words.end(), [](char c) { return c >= ' ' && c <= '~'; });
      if (printable && words.find(": ") == std::string_view::npos) after = tab + 1 - i;
    }
  }
  if (i == 0 || !sep || after == 0 || !ascii_alnum(static_cast<unsigned char>(line[0]))) return 0;
  if (!digit) {
    const std::string_view name = line.substr(0, i);
    const size_t dash = name.rfind('-');
    const size_t last = dash == std::string_view::npos ? 0 : name.size() - dash - 1;
    if (upper || dash == std::string_view::npos || dash < 2 || last == 0 || last > 2 ||
        name.find_first_of("._") != std::string_view::npos)
      return 0;
  }
  std::string_view name = line.substr(0, i);
  // Slurm's step daemon names itself with its host (`slurmstepd-node-07: error: ...`): the
  // message's own head, which fingerprints match, not a pdsh prefix.
  if (name.starts_with("slurmstepd-")) return 0;
  // An IPv4 address, or a first label like `worker-1` / `gpu-node-05` (letters, a `-`, ending in
  // a digit): not `libc10.so` or `model.py`.
  std::string_view label = name.substr(0, name.find('.'));
  bool ipv4 = std::count(name.begin(), name.end(), '.') == 3 &&
              std::all_of(name.begin(), name.end(), [](char c) { return is_digit(c) || c == '.'; });
  bool named = std::isalpha(static_cast<unsigned char>(label.front())) && label.find('-') != std::string_view::npos &&
               (is_digit(label.back()) || !digit);
  if (!ipv4 && !named) return 0;
  for (std::string_view tail : {"Error", "Exception", "Warning"})
    if (name.ends_with(tail)) return 0;
  // `2024-05-01: ` is a date, not a host.
  if (name.size() == 10 && name[4] == '-' && name[7] == '-' && is_digit(name[0])) return 0;
  host = std::string(name);
  return i + after;
}

// `kubectl logs --prefix`: `[pod/train-worker-3/pytorch] text`.
size_t pod_prefix(std::string_view line, std::string& pod) {
  if (!line.starts_with("[pod/")) return 0;
  size_t close = line.find("] ");
  if (close == std::string_view::npos || close > 256) return 0;
  std::string_view inside = line.substr(5, close - 5);
  size_t slash = inside.find('/');
  pod = std::string(inside.substr(0, slash));
  return close + 2;
}

// `docker compose logs`: the container's name, padded, then `| `: `trainer-4  | text`
// (v2's `project-service-N`, v1's `service_N`). The name must end in the container's index.
// A script's own tag piped through `sed "s/^/w2v-w$r| /"` has the same shape, unpadded; its
// index may follow a letter (`w0`) when the name has a `-` or `_` elsewhere.
size_t compose_prefix(std::string_view line, std::string& name) {
  size_t i = 0;
  while (i < line.size() && i < 64 &&
         (ascii_alnum(static_cast<unsigned char>(line[i])) || line[i] == '-' || line[i] == '_' || line[i] == '.'))
    ++i;
  if (i < 3 || !std::isalpha(static_cast<unsigned char>(line[0])) || !is_digit(line[i - 1])) return 0;
  size_t d = i;
  while (d > 0 && is_digit(line[d - 1])) --d;
  if (d < 2) return 0;
  const std::string_view stem = line.substr(0, d - 1);
  const bool joined = line[d - 1] == '-' || line[d - 1] == '_';
  if (!joined && !(std::isalpha(static_cast<unsigned char>(line[d - 1])) &&
                   (stem.find('-') != std::string_view::npos || stem.find('_') != std::string_view::npos)))
    return 0;
  size_t j = i;
  while (j < line.size() && line[j] == ' ') ++j;
  if (j >= line.size() || line[j] != '|') return 0;
  if (j + 1 < line.size() && line[j + 1] != ' ') return 0;
  name = std::string(line.substr(0, i));
  return std::min(line.size(), j + 2);
}

// Ray's prefix on every line an actor or task prints: `(RayTrainWorker pid=7410, ip=10.0.59.242) `,
// `(pid=34272) `, `(TorchTrainer pid=7236) `, also behind torchx's `ray/0 `. The process is the
// pid; the line's rank comes from what that pid said (Diagnoser::note_pid).
size_t ray_prefix(std::string_view line, Attribution& a) {
  size_t i = 0;
  if (line.starts_with("ray/")) {
    i = 4;
    while (i < line.size() && is_digit(line[i])) ++i;
    if (i == 4 || i >= line.size() || line[i] != ' ') return 0;
    ++i;
  }
  if (i >= line.size() || line[i] != '(') return 0;
  const size_t close = line.find(") ", i);
  const size_t end = close == std::string_view::npos && line.ends_with(')') ? line.size() - 1 : close;
  if (end == std::string_view::npos || end - i > 160) return 0;
  const std::string_view inside = line.substr(i + 1, end - i - 1);
  const size_t at = inside.find("pid=");
  if (at == std::string_view::npos || (at > 0 && inside[at - 1] != ' ')) return 0;
  // Before `pid=`: the actor's class name and a space, or nothing.
  for (size_t k = 0; k + 1 < at; ++k)
    if (!ascii_alnum(static_cast<unsigned char>(inside[k])) && inside[k] != '_' && inside[k] != ':' && inside[k] != '.') return 0;
  size_t d = at + 4;
  int pid = 0;
  if (!number(inside, d, pid) || pid <= 0 || (d < inside.size() && inside[d] != ',')) return 0;
  a.pid = pid;
  a.node = std::string(inside);
  a.node_prefix = true;
  // Ray's log deduplication prints one copy of a line many workers printed, marked at its end:
  // `... [repeated 3x across cluster]`, the first time followed by its note `(Ray deduplicates
  // logs by default. ...)`. The marker is Ray's, not the worker's.
  if (const size_t mark = line.rfind(" [repeated "); mark != std::string_view::npos && mark > end) {
    size_t k = mark + 11;
    int times = 0;
    if (number(line, k, times) && line.substr(k, 17) == "x across cluster]") a.strip_tail = line.size() - mark;
  }
  return std::min(line.size(), end + 2);
}

}  // namespace

int ray_rank(std::string_view body, int* worker_pid) {
  // `Setting up process group for: env:// [rank=0, world_size=4]`, and the trainer's table
  // `- (ip=10.0.59.242, pid=7410) rank=0, local_rank=0, node_rank=0` (`world_rank=0` in Train v2).
  if (worker_pid) *worker_pid = -1;
  for (std::string_view key : {"world_rank=", "rank="})
    for (size_t at = body.find(key); at != std::string_view::npos; at = body.find(key, at + 1)) {
      if (at > 0 && (ascii_alnum(static_cast<unsigned char>(body[at - 1])) || body[at - 1] == '_')) continue;
      size_t i = at + key.size();
      int r = 0;
      if (!number(body, i, r) || (i < body.size() && ascii_alnum(static_cast<unsigned char>(body[i])))) continue;
      if (worker_pid && body.starts_with("- (")) {
        const std::string_view row = body.substr(0, at);
        if (const size_t p = row.find("pid="); p != std::string_view::npos) {
          size_t k = p + 4;
          int pid = 0;
          if (number(row, k, pid) && pid > 0) *worker_pid = pid;
        }
      }
      return r;
    }
  return -1;
}

// A syslog/journal kernel line names its host: `Mar  3 04:05:06 gpu-7 kernel: NVRM: Xid ...`
// (kern.log, /var/log/messages, `journalctl -k`). The line is kept whole: fingerprints see it all.
static void syslog_host(std::string_view line, std::string& node) {
  if (line.size() < 24 || line[3] != ' ' || line[6] != ' ' || line[9] != ':' || line[12] != ':' || line[15] != ' ') return;
  if (!std::isupper(static_cast<unsigned char>(line[0]))) return;
  std::string_view rest = line.substr(16);
  size_t sp = rest.find(' ');
  if (sp == std::string_view::npos || sp == 0 || sp > 253 || rest.substr(sp + 1, 7) != "kernel:") return;
  node = std::string(rest.substr(0, sp));
}

int json_rank(std::string_view line) {
  if (!line.starts_with('{')) return -1;
  std::string_view head = line.substr(0, 256);
  size_t at = find_literal(head, "\"rank\":");
  if (at == std::string_view::npos) return -1;
  size_t i = at + 7;
  while (i < head.size() && head[i] == ' ') ++i;
  const bool quoted = i < head.size() && head[i] == '"';  // `"rank": "3"` from a str() of the env
  i += quoted;
  int r = 0;
  if (!number(head, i, r)) return -1;
  if (quoted && (i >= head.size() || head[i++] != '"')) return -1;
  // Also turns down a number longer than the 7 digits `number` reads.
  if (i < head.size() && head[i] != ',' && head[i] != '}' && head[i] != ' ') return -1;
  return r;
}

namespace {
// glog's head names the writing thread's id, the pid for a process's main thread (Python's glog
// formatters print the pid there): `I1202 13:51:13.753002   14764 trainer.py:18] ...`.
int glog_pid(std::string_view line) {
  auto digits = [&](size_t from, size_t n) {
    for (size_t i = from; i < from + n; ++i)
      if (i >= line.size() || !is_digit(line[i])) return false;
    return true;
  };
  if (line.size() < 20 || std::string_view("IWEF").find(line[0]) == std::string_view::npos || !digits(1, 4) ||
      line[5] != ' ' || !digits(6, 2) || line[8] != ':' || !digits(9, 2) || line[11] != ':' || !digits(12, 2))
    return -1;
  size_t i = 14;
  if (i < line.size() && line[i] == '.')
    for (++i; i < line.size() && is_digit(line[i]);) ++i;
  const size_t spaces = i;
  while (i < line.size() && line[i] == ' ') ++i;
  int pid = 0;
  if (i == spaces || !number(line, i, pid) || pid <= 0 || i >= line.size() || line[i] != ' ') return -1;
  return pid;
}
}  // namespace

// Python logging's `%(process)d` right behind the clock, bare or bracketed, then the level:
// `6783 INFO step 0 ...`, `[25281] INFO trainer: ...` (the clock already taken off). A smaller
// number there is more likely a rank than a pid.
int logging_head_pid(std::string_view line) {
  size_t i = line.starts_with('[') ? 1 : 0;
  int pid = 0;
  if (!number(line, i, pid) || pid < kMaxLauncherWorker) return -1;
  if (line[0] == '[') {
    if (i >= line.size() || line[i] != ']') return -1;
    ++i;
  }
  return i < line.size() && line[i] == ' ' && level_word(line.substr(i + 1)) ? pid : -1;
}

int logged_pid(std::string_view line) {
  if (int pid = glog_pid(line); pid > 0) return pid;
  if (int pid = logging_head_pid(line); pid > 0) return pid;
  std::string_view head = line.substr(0, 160);
  for (size_t at = 0; at + 4 < head.size(); ++at) {
    if ((head[at] | 0x20) != 'p' || (head[at + 1] | 0x20) != 'i' || (head[at + 2] | 0x20) != 'd') continue;
    if (at > 0 && (ascii_alnum(static_cast<unsigned char>(head[at - 1])) || head[at - 1] == '_')) continue;
    size_t i = at + 3;
    size_t seps = 0;
    while (i < head.size() && seps < 2 && (head[i] == ' ' || head[i] == '=' || head[i] == ':')) ++i, ++seps;
    if (seps == 0) continue;
    int pid = 0;
    if (!number(head, i, pid) || pid <= 0) continue;
    // A word of its own, and no longer than the 7 digits `number` reads (Linux pids have 7 at most).
    if (i < head.size() && (ascii_alnum(static_cast<unsigned char>(head[i])) || head[i] == '.')) continue;
    return pid;
  }
  return -1;
}

namespace {
// A logger's `[R/W]` (rank of world size) at the head of a line, alone or behind a clock:
// `2026-12-02 18:53:10,765 [2/4] ERROR ...`. Not behind words (`Epoch [1/5]`), and R < W.
int rank_of_world(std::string_view line, std::pair<size_t, size_t>* digits_at) {
  const size_t open = line.find('[');
  if (open == std::string_view::npos || open > 40) return -1;
  for (size_t i = 0; i < open; ++i)
    if (std::isalpha(static_cast<unsigned char>(line[i])) && line[i] != 'T' && line[i] != 'Z') return -1;
  const size_t close = line.find(']', open);
  if (close == std::string_view::npos || close - open > 80 || (close + 1 < line.size() && line[close + 1] != ' ')) return -1;
  // The bracket alone (`[2/4]`), or one of its words, bare or as `r2/4` (a job's own head,
  // `[trn-b02 r3/4 l1]`: host, rank of world, local rank). A bare `rN` word counts behind a name
  // (`[ctr r0] start: ...`), a job's tag of its own, not alone (`[r2]` is rank_prefix's).
  int tagged = -1;
  std::pair<size_t, size_t> tagged_at{0, 0};
  size_t words = 0;
  for (size_t word = open + 1; word < close; ++words) {
    const size_t end = std::min(close, line.find(' ', word));
    size_t i = word + (line[word] == 'r' && word + 1 < end && is_digit(line[word + 1]));
    int r = 0, w = 0;
    const size_t digits = i;
    if (number(line, i, r) && i < end && line[i] == '/') {
      const size_t length = i - digits;
      ++i;
      if (number(line, i, w) && i == end && w >= 2 && r < w) {
        if (digits_at) *digits_at = {digits, length};
        return r;
      }
    } else if (digits == word + 1 && i > digits && i == end && i - digits <= 5 && words > 0 && tagged < 0) {
      tagged = r;
      tagged_at = {digits, i - digits};
    }
    word = end + 1;
  }
  if (tagged >= 0 && words <= 3) {
    if (digits_at) *digits_at = tagged_at;
    return tagged;
  }
  return -1;
}
}  // namespace

int logged_rank(std::string_view line, std::pair<size_t, size_t>* digits_at) {
  if (int r = rank_of_world(line, digits_at); r >= 0) return r;
  std::string_view head = line.substr(0, 120);
  for (size_t at = 0; at + 4 < head.size(); ++at) {
    if ((head[at] | 0x20) != 'r' || (head[at + 1] | 0x20) != 'a' || (head[at + 2] | 0x20) != 'n' ||
        (head[at + 3] | 0x20) != 'k')
      continue;
    // A word of its own: not `local_rank`, `ranks`, `Frank`.
    if (at > 0 && (ascii_alnum(static_cast<unsigned char>(head[at - 1])) || head[at - 1] == '_')) continue;
    size_t i = at + 4;
    size_t seps = 0;
    while (i < head.size() && seps < 2 && (head[i] == ' ' || head[i] == '=' || head[i] == ':')) ++i, ++seps;
    int r = 0;
    const size_t digits = i;
    if (!number(head, i, r) || i - digits > 5) continue;
    if (i < head.size() && (ascii_alnum(static_cast<unsigned char>(head[i])) || head[i] == '.')) continue;
    if (digits_at) *digits_at = {digits, i - digits};
    return r;
  }
  return -1;
}

int bracket_number(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && i < 8 && line[i] == ' ') ++i;
  if (i >= line.size() || line[i] != '[') return -1;
  int n = 0;
  ++i;
  if (!number(line, i, n) || line.substr(i, 2) != "] ") return -1;
  return n;
}

void BracketRanks::see(int n) {
  if (n < 0) return;
  if (lines_ > 0 && n <= last_) ++not_rising_;
  ++lines_;
  last_ = n;
  if (n >= 64) {
    large_ = true;
  } else {
    seen_ |= uint64_t{1} << n;
  }
}

bool BracketRanks::ranks() const {
  const auto distinct = static_cast<uint32_t>(__builtin_popcountll(seen_));
  return !large_ && lines_ >= 4 && 2 * distinct <= lines_ && 4 * not_rising_ >= lines_ - 1;
}

Attribution attribute_line(std::string_view line) {
  Attribution a;
  if (line.size() > 24 && line[3] == ' ' && line[15] == ' ') syslog_host(line, a.node);
  if (size_t k = paste_prefix(line)) {
    a.strip += k;
    line.remove_prefix(k);
  }
  const size_t stamp = collector_stamp(line);
  if (stamp) {
    a.strip += stamp;
    line.remove_prefix(stamp);
  }
  if (size_t k = ray_prefix(line, a)) {
    a.strip += k;
    line.remove_prefix(k);
  } else if (size_t k = pod_prefix(line, a.node)) {
    a.strip += k;
    a.node_prefix = true;
    line.remove_prefix(k);
  } else if (size_t h = host_prefix(line, a.node)) {
    a.strip += h;
    a.node_prefix = true;
    line.remove_prefix(h);
  } else if (size_t c = compose_prefix(line, a.node)) {
    a.strip += c;
    a.node_prefix = true;
    line.remove_prefix(c);
  }
  if (auto p = rank_prefix(line)) {
    a.rank = p->rank;
    a.local_rank = p->local_rank;
    a.rank_is_local = p->local_only;
    a.strip += p->length;
    line.remove_prefix(p->length);
  }
  if (a.rank < 0) a.rank = stamped_rank_prefix(line);
  if (a.rank < 0) a.rank = bracket_rank(line);
  if (a.rank < 0) a.rank = json_rank(line);
  if (a.rank < 0) a.rank = logger_name_rank(line, stamp > 0);
  if (!nccl_prefix(line, a)) srun_prefix(line, a);
  return a;
}

namespace {
// torchrun's `--log_dir` keeps each worker's output as `<run_id>/attempt_<restart>/<local_rank>/
// stdout.log` (and stderr.log, error.json): the directory above the file is the local rank.
int torchrun_log_dir_rank(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string_view::npos) return -1;
  const std::string_view file = path.substr(slash + 1);
  if (file != "stdout.log" && file != "stderr.log" && file != "error.json") return -1;
  const std::string_view dirs = path.substr(0, slash);
  const size_t up = dirs.find_last_of('/');
  if (up == std::string_view::npos) return -1;
  const std::string dir(dirs.substr(up + 1));
  const std::string_view parent = dirs.substr(0, up);
  const size_t pslash = parent.find_last_of('/');
  const std::string_view attempt = pslash == std::string_view::npos ? parent : parent.substr(pslash + 1);
  if (!attempt.starts_with("attempt_") || dir.empty() || dir.size() > 5) return -1;
  int r = 0;
  size_t i = 0;
  return number(dir, i, r) && i == dir.size() ? r : -1;
}

// Open MPI's `--output-filename DIR` keeps each process's output as `DIR/<job>/rank.<N>/stdout`
// (and stderr, stddiag): the directory above the file is the MPI_COMM_WORLD rank.
int openmpi_output_rank(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string_view::npos) return -1;
  const std::string_view file = path.substr(slash + 1);
  if (file != "stdout" && file != "stderr" && file != "stddiag") return -1;
  const std::string_view dirs = path.substr(0, slash);
  const std::string_view dir = dirs.substr(dirs.find_last_of('/') == std::string_view::npos ? 0 : dirs.find_last_of('/') + 1);
  if (!dir.starts_with("rank.") || dir.size() > 10) return -1;
  int r = 0;
  size_t i = 5;
  return number(dir, i, r) && i == dir.size() ? r : -1;
}
}  // namespace

Attribution attribute_file(std::string_view path) {
  Attribution a;
  if (const int local = torchrun_log_dir_rank(path); local >= 0) {
    a.rank = local;  // one node: the local rank is the rank
    a.local_rank = local;
    return a;
  }
  if (const int rank = openmpi_output_rank(path); rank >= 0) {
    a.rank = rank;
    return a;
  }
  std::string_view name = path;
  if (size_t slash = name.find_last_of('/'); slash != std::string_view::npos) name = name.substr(slash + 1);
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view key : {"rank", "worker", "proc"}) {
    size_t p = lower.find(key);
    if (p == std::string::npos) continue;
    size_t i = p + key.size();
    if (i < lower.size() && (lower[i] == '-' || lower[i] == '_' || lower[i] == '.')) ++i;
    int r = 0;
    if (number(lower, i, r)) {
      // `worker-22186.log` numbers the file by its process id; a file named for a rank says `rank`.
      if (key != "rank" && r >= kMaxLauncherWorker) break;
      a.rank = r;
      break;
    }
  }
  // A short stem of one letter and the rank: `w1.log`, `r3.out`.
  if (a.rank < 0 && lower.size() >= 2 && (lower[0] == 'w' || lower[0] == 'r') && is_digit(lower[1])) {
    size_t i = 1;
    int r = 0;
    if (number(lower, i, r) && (i == lower.size() || lower[i] == '.')) a.rank = r;
  }
  for (std::string_view key : {"node-", "node_", "node", "host-", "host_"}) {
    size_t p = lower.find(key);
    if (p == std::string::npos) continue;
    size_t end = p;
    while (end < name.size() && (std::isalnum(static_cast<unsigned char>(name[end])) || name[end] == '-' ||
                                 name[end] == '_'))
      ++end;
    // `node-05.out`, `node05.log`, `host-a.log`, not the bare word (`agent-second-node.log`).
    std::string_view node = name.substr(p, end - p);
    while (!node.empty() && (node.back() == '-' || node.back() == '_')) node.remove_suffix(1);
    if (node.size() <= 4) continue;
    // A host's name numbers or letters it (`node-05`, `host-a`); a word after it is a description
    // (`two-node-demand.log`, `single_host_run.log`).
    const std::string_view suffix = node.substr(std::min(node.size(), node.find_first_not_of("-_", 4)));
    if (suffix.size() > 2 && std::none_of(suffix.begin(), suffix.end(), [](char c) { return is_digit(c); })) continue;
    a.node = std::string(node);
    break;
  }
  return a;
}

bool is_kernel_log_name(std::string_view path) {
  std::string_view name = path;
  if (size_t slash = name.find_last_of('/'); slash != std::string_view::npos) name = name.substr(slash + 1);
  return name.starts_with("dmesg") || name.starts_with("kern.log") || name.starts_with("syslog") ||
         name.starts_with("messages");
}

namespace {
// torchrun's failure table gives each failure's time as a field (`  time      : 2024-10-02_18:06:40`):
// when that process failed, not when the table was printed (at the end, after the collateral).
bool is_time_field(std::string_view line, size_t stamp) {
  std::string_view before = line.substr(0, stamp);
  while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
  if (before.empty() || before.back() != ':') return false;
  before.remove_suffix(1);
  while (!before.empty() && before.back() == ' ') before.remove_suffix(1);
  if (!before.ends_with("time")) return false;
  before.remove_suffix(4);
  return before.empty() || before.back() == ' ' || before.back() == '|';
}
}  // namespace

std::optional<double> parse_timestamp(std::string_view line) {
  // The stamp sits at the start or after a few bracketed/prefix characters (`[rank0]:[E0501 ...`).
  size_t limit = std::min<size_t>(line.size(), 48);
  for (size_t i = 0; i < limit; ++i) {
    char c = line[i];
    if (i > 0 && ascii_alnum(static_cast<unsigned char>(line[i - 1]))) continue;
    if (is_digit(c) || c == 'I' || c == 'W' || c == 'E' || c == 'F' || ascii_upper(static_cast<unsigned char>(c)))
      if (auto t = timestamp_at(line, i)) return is_time_field(line, i) ? std::nullopt : t;
  }
  return std::nullopt;
}

}  // namespace denpex::logs
