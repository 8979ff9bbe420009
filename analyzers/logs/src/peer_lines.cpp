// The ranks' healthy lines, read back from each input's head and tail, and the ways they single
// out one rank. See peer_lines.h for when they are asked.
#include "peer_lines.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "denpex/logs/attribution.h"
#include "denpex/logs/normalize.h"
#include "find_literal.h"
#include "odd_one_out.h"

namespace denpex::logs {
namespace {

constexpr size_t kMaxText = 400;  // bytes of a line compared; enough for a setup report

bool digit(std::string_view s, size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

// A digit run that is part of something larger: a clock or date (`13:51:13`, `2026-12-02`), a
// decimal or version (`0.3744`, `1.13.1`), an exponent (`1e-05`), an address (`0x7f3a`, `:29500`).
bool joined(std::string_view s, size_t begin, size_t end) {
  auto sep = [](char c) { return c == '.' || c == ':' || c == '/' || c == '-' || c == ','; };
  if (begin >= 2 && sep(s[begin - 1]) && digit(s, begin - 2)) return true;
  if (end + 1 < s.size() && sep(s[end]) && digit(s, end + 1)) return true;
  if (begin >= 1 && (s[begin - 1] == 'x' || s[begin - 1] == 'X') && begin >= 2 && s[begin - 2] == '0') return true;
  if (end < s.size() && (s[end] == 'x' || s[end] == 'X') && end - begin == 1 && s[begin] == '0') return true;
  if (begin >= 3 && (s[begin - 1] == '-' || s[begin - 1] == '+') && (s[begin - 2] == 'e' || s[begin - 2] == 'E') &&
      digit(s, begin - 3))
    return true;
  if (end + 1 < s.size() && (s[end] == 'e' || s[end] == 'E') && (s[end + 1] == '-' || s[end + 1] == '+')) return true;
  return false;
}

// An exception line is a traceback's, which the hits and events already hold.
bool is_log_head_only(std::string_view body) {
  size_t i = 0;
  while (i < body.size() && (std::isalnum(static_cast<unsigned char>(body[i])) || body[i] == '_' || body[i] == '.')) ++i;
  const std::string_view name = body.substr(0, i);
  return i < body.size() && body[i] == ':' &&
         (name.ends_with("Error") || name.ends_with("Exception") || name.ends_with("Interrupt"));
}

bool starts_with_level(std::string_view body) {
  // glog's E/F heads, and the level words loggers write.
  if (body.size() > 5 && (body[0] == 'E' || body[0] == 'F') && digit(body, 1) && digit(body, 2) && digit(body, 3) &&
      digit(body, 4) && body[5] == ' ')
    return true;
  for (std::string_view level : {"ERROR", "CRITICAL", "FATAL"}) {
    for (size_t at = body.find(level); at != std::string_view::npos; at = body.find(level, at + 1)) {
      const bool word_before = at == 0 || !std::isalnum(static_cast<unsigned char>(body[at - 1]));
      const size_t end = at + level.size();
      const bool word_after = end >= body.size() || !std::isalnum(static_cast<unsigned char>(body[end]));
      if (word_before && word_after) return true;
    }
  }
  return false;
}

// Lines of a traceback or of code: not what a rank reports about itself.
bool traceback_line(std::string_view body) {
  return body.empty() || body[0] == ' ' || body[0] == '\t' || body.starts_with("Traceback (most recent call last)") ||
         body.starts_with("During handling of the above exception") || body.starts_with("The above exception was");
}

// A job's own logger that gives each line its worker's label as a column of its own, after the
// clock: `08:04:56.217  worker-0  shard-0.pt has 800 rows`, `2026-12-03T08:33:16.467Z w3 loaded`.
// `at` is the label's number's offset in `body`. Which word is a rank is decided per input
// (ColumnWords), never from one line. `stamped`: the reader already took a clock (a collector's
// stamp) off the line's front.
struct ColumnLabel {
  std::string word;
  int number = -1;
  size_t at = 0;
};

// Past the level column a logging format puts between the clock and the label, from `at`:
// `INFO `, `[INFO] `, `- WARNING - `, `| ERROR | ` (`%(asctime)s %(levelname)s [r%(rank)d] ...`).
// `at` itself when there is none.
size_t past_level(std::string_view body, size_t at) {
  size_t i = at;
  auto spaces = [&] { while (i < body.size() && body[i] == ' ') ++i; };
  auto separator = [&] {
    spaces();
    if (i + 1 < body.size() && (body[i] == '-' || body[i] == '|') && body[i + 1] == ' ') ++i;
    spaces();
  };
  separator();
  const bool bracket = i < body.size() && body[i] == '[';
  if (bracket) ++i;
  size_t e = i;
  while (e < body.size() && std::isupper(static_cast<unsigned char>(body[e]))) ++e;
  static constexpr std::string_view kLevels[] = {"DEBUG", "INFO", "WARNING", "WARN", "ERROR", "CRITICAL", "FATAL", "NOTICE", "TRACE"};
  if (std::find(std::begin(kLevels), std::end(kLevels), body.substr(i, e - i)) == std::end(kLevels)) return at;
  i = e;
  if (bracket) {
    if (i >= body.size() || body[i] != ']') return at;
    ++i;
  }
  if (i < body.size() && body[i] == ':') ++i;
  if (i < body.size() && body[i] != ' ') return at;
  separator();
  return i;
}

std::optional<ColumnLabel> column_label(std::string_view body, bool stamped) {
  auto stampish = [](char c) { return (c >= '0' && c <= '9') || std::string_view(":.,-TZ[]+").find(c) != std::string_view::npos; };
  size_t i = 0;
  for (int tokens = 0; tokens < 3; ++tokens) {
    while (i < body.size() && body[i] == ' ') ++i;
    size_t e = i;
    while (e < body.size() && body[e] != ' ' && stampish(body[e])) ++e;
    if (e == i || (e < body.size() && body[e] != ' ')) break;
    // A run of digits alone (a count, a step) is not a clock: the label must come first then.
    if (body.substr(i, e - i).find_first_of(":-") == std::string_view::npos) return std::nullopt;
    i = e;
  }
  if (i == 0 && !stamped) return std::nullopt;  // no clock before it: the text's own words, not a column
  i = past_level(body, i);
  while (i < body.size() && body[i] == ' ') ++i;
  const bool bracket = i < body.size() && body[i] == '[';
  if (bracket) ++i;
  size_t w = i;
  while (w < body.size() && w - i < 8 && std::isalpha(static_cast<unsigned char>(body[w]))) ++w;
  if (w == i) return std::nullopt;
  ColumnLabel l;
  for (size_t k = i; k < w; ++k) l.word += static_cast<char>(std::tolower(static_cast<unsigned char>(body[k])));
  static constexpr std::string_view kWords[] = {"w", "worker", "rank", "r", "proc", "process", "task", "trainer"};
  if (std::find(std::begin(kWords), std::end(kWords), l.word) == std::end(kWords)) return std::nullopt;
  size_t d = w;
  if (d < body.size() && (body[d] == '-' || body[d] == '_' || body[d] == '#')) ++d;
  size_t e = d;
  while (digit(body, e) && e - d < 5) ++e;
  if (e == d || digit(body, e)) return std::nullopt;
  l.number = std::atoi(std::string(body.substr(d, e - d)).c_str());
  if (e < body.size() && body[e] == '/') {  // of the world size: `r1/3`, `[worker2/4]`
    int world = 0;
    const size_t from = ++e;
    while (digit(body, e) && e - from < 5) world = world * 10 + (body[e++] - '0');
    if (e == from || world <= l.number) return std::nullopt;
  }
  if (bracket && (e >= body.size() || body[e] != ']')) return std::nullopt;
  if (bracket) ++e;
  if (e < body.size() && body[e] == ':') ++e;
  if (e < body.size() && body[e] != ' ') return std::nullopt;
  l.at = d;
  return l;
}

// Counts an input's column labels; word() is the one its lines use for their ranks: one word,
// on 4 lines or more, with two numbers or more among them and 0 one of them (ranks count from 0).
struct ColumnWords {
  std::map<std::string, std::pair<int, std::set<int>>> seen;  // word -> lines, numbers

  void add(std::string_view body, bool stamped) {
    if (auto l = column_label(body, stamped)) {
      auto& [count, numbers] = seen[l->word];
      ++count;
      if (numbers.size() < 64) numbers.insert(l->number);
    }
  }
  std::string word() const {
    std::string word;
    for (const auto& [w, v] : seen)
      if (v.first >= 4 && v.second.size() >= 2 && v.second.count(0)) {
        if (!word.empty()) return {};  // two words compete: neither is trusted
        word = w;
      }
    return word;
  }
};

int name_rank_at(const InputState& in, uint64_t line) {
  int rank = -1;
  for (const auto& [from, r] : in.name_ranks) {
    if (from > line) break;
    rank = r;
  }
  return rank;
}

template <typename F>
void each_line(std::string_view text, uint64_t first, F&& f) {
  uint64_t n = first;
  for (size_t pos = 0; pos < text.size(); ++n) {
    const void* nl = std::memchr(text.data() + pos, '\n', text.size() - pos);
    const size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data()) : text.size();
    f(n, text.substr(pos, std::min(end - pos, Diagnoser::kMaxLine)));
    pos = end + 1;
  }
}

// Both stretches an input kept, each line once: the head from line 1, then the tail's lines past it.
template <typename F>
void kept_lines(const InputState& in, F&& f) {
  each_line(in.head, 1, f);
  const uint64_t read = in.physical.empty() ? in.summary.lines : in.physical.size();
  const uint64_t tail_lines = static_cast<uint64_t>(std::count(in.tail.begin(), in.tail.end(), '\n'));
  const uint64_t tail_first = read >= tail_lines ? read - tail_lines + 1 : 1;
  each_line(in.tail, tail_first, [&](uint64_t n, std::string_view line) {
    if (n > in.head_lines) f(n, line);
  });
}

// a after b: by their clocks when both have one, else by position in one input whose line order
// is the order of writing; nullopt when neither tells.
std::optional<bool> after(const PeerLine& a, std::optional<double> b_time, uint32_t b_input, uint64_t b_line,
                          bool b_blocked) {
  if (a.time && b_time) return *a.time > *b_time;
  if (a.input == b_input && !a.blocked && !b_blocked) return a.line > b_line;
  return std::nullopt;
}
std::optional<bool> after(const PeerLine& a, const PeerLine& b) {
  if (!(a.time && b.time) && a.input == b.input && a.line == b.line && !a.blocked) return a.seg > b.seg;
  return after(a, b.time, b.input, b.line, b.blocked);
}

std::string quote(const PeerLine& l) { return "`" + l.text.substr(0, 160) + "`"; }

std::string join(const std::vector<int>& ranks) {
  std::string s;
  for (size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s;
}

std::set<int> ranks_of(const std::vector<PeerLine>& lines) {
  std::set<int> ranks;
  for (const auto& l : lines) ranks.insert(l.rank);
  return ranks;
}

}  // namespace

std::vector<PeerLine> collect_peer_lines(const Diagnoser::State& st, std::vector<PeerLine>* unranked) {
  // Pids first: a line that names its rank and its pid ties the two, for lines that name only the
  // pid (glog heads, `[pid 12872]`), wherever in the kept text either comes.
  std::map<int, int> pid_rank = st.pid_rank;
  std::string norm;
  auto normalized = [&](std::string_view raw) -> std::string_view {
    if (!has_esc_or_cr(raw)) return raw;
    normalize_line(raw, norm);
    return norm;
  };
  // The same pass finds each input's column label word.
  // And whether a bare `[N] ` heading its lines is each rank's own print or a paste's line number.
  std::vector<std::string> label_words;
  std::vector<bool> bracket_ranks;
  for (const auto& in : st.inputs) {
    ColumnWords words;
    BracketRanks brackets;
    kept_lines(in, [&](uint64_t, std::string_view raw) {
      std::string_view line = normalized(raw);
      const Attribution a = attribute_line(line);
      const std::string_view body = a.body(line);
      if (a.rank < 0) words.add(body, a.strip > 0);
      if (a.rank < 0) brackets.see(bracket_number(line));
      const int pid = logged_pid(body);
      if (pid <= 0 || pid_rank.size() >= 4096) return;
      const int rank = a.rank >= 0 && !a.rank_local_to_node() ? a.rank : logged_rank(body);
      if (rank >= 0) pid_rank.try_emplace(pid, rank);
    });
    label_words.push_back(words.word());
    bracket_ranks.push_back(brackets.ranks());
  }

  // A local rank behind a host's prefix: the global rank the diagnoser found for it (node_ranks.h).
  std::map<std::tuple<uint32_t, std::string, int>, int> node_local;
  for (const auto& s : st.sources)
    if (s.node_local && s.rank >= 0) node_local.try_emplace({s.input, s.node, s.local_rank}, s.rank);
  auto line_rank = [&](uint32_t input, const Attribution& a) {
    if (!a.rank_local_to_node()) return a.rank;
    auto it = node_local.find({input, a.node, a.local_rank});
    return it == node_local.end() ? -1 : it->second;
  };

  std::vector<PeerLine> out;
  for (uint32_t i = 0; i < st.inputs.size(); ++i) {
    const InputState& in = st.inputs[i];
    const bool blocked = in.name_ranks.size() > 1;
    const std::string& label_word = label_words[i];
    auto take = [&](uint64_t n, uint32_t seg, std::string_view raw) {
      std::string_view line = normalized(raw);
      const Attribution a = attribute_line(line);
      std::string_view body = a.body(line);
      if (traceback_line(body)) return;
      body = body.substr(0, kMaxText);
      int rank = a.rank >= 0 ? line_rank(i, a) : name_rank_at(in, n);
      if (rank < 0 && bracket_ranks[i]) rank = bracket_number(line);
      std::pair<size_t, size_t> label{std::string_view::npos, 0};
      const int named = logged_rank(body, &label);
      if (rank < 0) rank = named;
      // Every `rank N` of the line's own rank is its name (`rank 1/3: Added key ... for rank: 1`).
      std::set<size_t> own;
      if (rank < 0 && !label_word.empty())
        if (auto l = column_label(body, a.strip > 0); l && l->word == label_word) {
          rank = l->number;
          own.insert(l->at);
        }
      if (named == rank && named >= 0)
        for (size_t from = 0; from < body.size() && own.size() < 8;) {
          std::pair<size_t, size_t> at{0, 0};
          const int r = logged_rank(body.substr(from), &at);
          if (r < 0) break;
          if (r == rank) own.insert(from + at.first);
          from += at.first + at.second;
        }
      const int pid = logged_pid(body);
      if (rank < 0)
        if (auto owner = pid_rank.find(pid); owner != pid_rank.end()) rank = owner->second;
      if (rank < 0) {
        if (unranked && unranked->size() < 256 && looks_like_error_record(body) && !is_log_head_only(body)) {
          PeerLine u;
          u.input = i;
          u.line = n;
          u.where = in.summary.file + ":" + std::to_string(shown_line(in, n));
          u.blocked = blocked;
          if (may_hold_clock(line)) u.time = parse_timestamp(line);
          u.text = std::string(body);
          unranked->push_back(std::move(u));
        }
        return;
      }
      // A pid differs on every rank like the rank itself: it is not part of what a line says.
      size_t pid_at = std::string_view::npos;
      if (pid > 0) {
        const std::string digits = std::to_string(pid);
        for (size_t at = body.find(digits); at != std::string_view::npos; at = body.find(digits, at + 1))
          if ((at == 0 || !digit(body, at - 1)) && !digit(body, at + digits.size())) {
            pid_at = at;
            break;
          }
      }
      PeerLine l;
      l.rank = rank;
      l.input = i;
      l.line = n;
      l.seg = seg;
      l.where = in.summary.file + ":" + std::to_string(shown_line(in, n));
      l.blocked = blocked;
      if (a.node_prefix) l.node = a.node;
      if (may_hold_clock(line)) l.time = parse_timestamp(line);
      l.error = looks_like_error_record(body);
      l.record = starts_with_level(body);
      l.text = std::string(body);
      for (size_t p = 0; p < body.size();) {
        if (!digit(body, p)) {
          l.shape += body[p++];
          continue;
        }
        size_t e = p;
        while (digit(body, e)) ++e;
        if (own.count(p)) {
          l.shape += 'R';
        } else if (p == pid_at) {
          l.shape += 'P';
        } else {
          l.shape += '#';
          if (!joined(body, p, e)) l.numbers.emplace_back(body.substr(p, e - p));
        }
        p = e;
      }
      out.push_back(std::move(l));
    };
    kept_lines(in, [&](uint64_t n, std::string_view raw) {
      // A progress bar redrawn with `\r` is many writes on one line, each its rank's line in turn
      // (a trailing `\r` is a CRLF's, no redraw).
      while (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      uint32_t seg = 0;
      constexpr uint32_t kMaxRedraws = 4096;
      for (size_t cr; (cr = raw.find('\r')) != std::string_view::npos && seg < kMaxRedraws; raw.remove_prefix(cr + 1))
        if (cr > 0) take(n, seg++, raw.substr(0, cr));
      if (!raw.empty()) take(n, seg, raw);
    });
  }
  return out;
}

std::optional<PeerFinding> node_rank(const std::vector<PeerLine>& lines, const std::string& node) {
  if (node.empty()) return std::nullopt;
  std::map<int, const PeerLine*> named;
  for (const auto& l : lines)
    if (l.node == node) named.try_emplace(l.rank, &l);
  if (named.size() != 1) return std::nullopt;
  const auto& [rank, l] = *named.begin();
  return PeerFinding{rank, node + "'s lines name one rank, " + std::to_string(rank) + ": " + quote(*l) + " (" + l->where +
                               "); the failure printed there is that rank's.",
                     "failed on " + node};
}

namespace {
// The first line of the only rank whose lines `pick` chooses before `first`; null when no rank's
// or several ranks' are.
template <typename Pick>
const PeerLine* lone_before(const std::vector<PeerLine>& lines, const PeerPos& first, Pick&& pick) {
  if (ranks_of(lines).size() < 2) return nullptr;
  std::set<int> ranks;
  const PeerLine* shown = nullptr;
  for (const auto& l : lines) {
    if (!pick(l)) continue;
    auto later = after(l, first.time, first.input, first.line, false);
    if (!later || *later || (l.input == first.input && l.line == first.line)) continue;
    ranks.insert(l.rank);
    if (!shown) shown = &l;
  }
  return ranks.size() == 1 ? shown : nullptr;
}

bool line_says_leaving(const PeerLine& l) { return says_leaving(std::string_view(l.text)); }
}  // namespace

bool says_leaving(std::string_view text) {
  std::string low(text);
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view w : {"shutting down", "early stopping", "early-stopping", "stopping early", "exiting",
                             "stopping training", "training finished", "training complete", "training done",
                             "finished training", "destroy_process_group"})
    if (low.find(w) != std::string::npos) return true;
  return false;
}

std::optional<PeerFinding> lone_departure(const std::vector<PeerLine>& lines, const PeerPos& first) {
  const PeerLine* shown = lone_before(lines, first, [](const PeerLine& l) { return !l.error && line_says_leaving(l); });
  if (!shown) return std::nullopt;
  return PeerFinding{shown->rank, "Rank " + std::to_string(shown->rank) + " said it was stopping before its peers lost "
                                  "a connection, and no other rank did: " + quote(*shown) + " (" + shown->where +
                                  "). It left while the others were still in a collective: end every rank together "
                                  "(agree on the stop with an all_reduce of the flag) or call destroy_process_group "
                                  "on all of them.",
                     "left the job early, as its own line says"};
}

std::optional<PeerFinding> lone_error_record(const std::vector<PeerLine>& lines, const PeerPos& first) {
  const PeerLine* shown = lone_before(lines, first, [](const PeerLine& l) { return l.record; });
  if (!shown) return std::nullopt;
  return PeerFinding{shown->rank, "Rank " + std::to_string(shown->rank) + " logged an error of its own before any rank "
                                  "reported a symptom, and no other rank did: " + quote(*shown) + " (" + shown->where + ").",
                     "logged an error of its own before any rank reported a symptom"};
}

namespace {
// A file's name alone (`shard-00003.npy`): 8 bytes or more, a stem, and an extension of up to 5
// letters and digits with a letter among them (not a version such as `1.13.1`).
bool names_file(std::string_view w) {
  const size_t dot = w.rfind('.');
  if (w.size() < 8 || w.find('/') != std::string_view::npos || dot == std::string_view::npos || dot < 3 ||
      w.size() - dot - 1 == 0 || w.size() - dot - 1 > 5)
    return false;
  const std::string_view ext = w.substr(dot + 1);
  return std::all_of(ext.begin(), ext.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); }) &&
         std::any_of(ext.begin(), ext.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}

// The paths a message names: words holding a '/', or a file's name alone, without quotes and
// trailing punctuation.
std::vector<std::string> paths_in(std::string_view text) {
  std::vector<std::string> out;
  auto stop = [](char c) { return c == ' ' || c == '\'' || c == '"' || c == '`' || c == '(' || c == ')' || c == ','; };
  for (size_t i = 0; i < text.size() && out.size() < 8;) {
    while (i < text.size() && stop(text[i])) ++i;
    size_t e = i;
    while (e < text.size() && !stop(text[e])) ++e;
    std::string_view w = text.substr(i, e - i);
    while (!w.empty() && (w.back() == '.' || w.back() == ':' || w.back() == ';')) w.remove_suffix(1);
    if (w.size() >= 6 && w.find('/') != std::string_view::npos && w.find("://") == std::string_view::npos)
      out.emplace_back(w);
    else if (names_file(w))
      out.emplace_back(w);
    i = e;
  }
  return out;
}
}  // namespace

std::optional<PeerFinding> path_owner(const std::vector<PeerLine>& lines, std::string_view message) {
  if (ranks_of(lines).size() < 2) return std::nullopt;
  const std::vector<std::string> named = paths_in(message);
  if (named.empty()) return std::nullopt;
  std::map<int, const PeerLine*> owners;
  for (const auto& l : lines)
    for (const std::string& mine : paths_in(l.text)) {
      // The same path, a directory it lies in (a job logs where it writes, then a file there
      // fails), the same path with another extension, or its file name alone.
      auto stem = [](std::string_view p) {
        const size_t dot = p.rfind('.'), slash = p.rfind('/');
        return dot != std::string_view::npos && (slash == std::string_view::npos || dot > slash) ? p.substr(0, dot) : p;
      };
      const bool holds = std::any_of(named.begin(), named.end(), [&](const std::string& p) {
        return p == mine ||
               (mine.size() >= 8 && p.size() > mine.size() && p.starts_with(mine) &&
                (mine.back() == '/' || p[mine.size()] == '/')) ||
               (stem(p).size() >= 8 && stem(p) == stem(mine)) ||
               // A message that names the file alone (`checksum mismatch for shard-00003.npy`)
               // of a path the rank logged whole (`verifying data/shard-00003.npy`).
               (p.size() >= 8 && p.find('/') == std::string::npos && mine.size() > p.size() && mine.ends_with(p) &&
                mine[mine.size() - p.size() - 1] == '/');
      });
      if (holds) owners.try_emplace(l.rank, &l);
    }
  if (owners.size() != 1) return std::nullopt;
  const auto& [rank, l] = *owners.begin();
  return PeerFinding{rank, "The failure names a path that rank " + std::to_string(rank) + ", and no other rank, named in its "
                           "own lines: " + quote(*l) + " (" + l->where + ").",
                     "was working on the path the failure names"};
}

namespace {
// The number a path's file name ends in (`part-00005.npy` -> "5"), "" when it ends in none or the
// name is only a number.
std::string trailing_number(std::string_view path) {
  std::string_view name = path.substr(path.rfind('/') + 1);
  if (const size_t dot = name.find('.'); dot != std::string_view::npos) name = name.substr(0, dot);
  size_t b = name.size();
  while (b > 0 && digit(name, b - 1)) --b;
  if (b == name.size() || b == 0 || name.size() - b > 9) return "";
  while (b + 1 < name.size() && name[b] == '0') ++b;
  return std::string(name.substr(b));
}

// Whether `text` names a piece of data numbered `number` (`shard 5`, `part_05`, `chunk #5`).
bool names_piece(std::string_view text, const std::string& number) {
  std::string low(text);
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view w : {"shard", "part", "chunk", "file", "split", "partition", "segment", "piece", "block"})
    for (size_t at = low.find(w); at != std::string::npos; at = low.find(w, at + 1)) {
      if (at > 0 && std::isalpha(static_cast<unsigned char>(low[at - 1]))) continue;
      size_t i = at + w.size();
      if (i < low.size() && low[i] == 's') ++i;
      while (i < low.size() && (low[i] == ' ' || low[i] == '#' || low[i] == '_' || low[i] == '-' || low[i] == ':' || low[i] == '=')) ++i;
      const size_t d = i;
      while (digit(low, i)) ++i;
      if (i == d || (i < low.size() && std::isalnum(static_cast<unsigned char>(low[i])))) continue;
      size_t z = d;
      while (z + 1 < i && low[z] == '0') ++z;
      if (low.compare(z, i - z, number) == 0) return true;
    }
  return false;
}
}  // namespace

std::optional<PeerFinding> numbered_owner(const std::vector<PeerLine>& lines, std::string_view message) {
  if (ranks_of(lines).size() < 2) return std::nullopt;
  std::set<std::string> numbers;
  for (const std::string& p : paths_in(message))
    if (std::string n = trailing_number(p); !n.empty()) numbers.insert(n);
  if (numbers.size() != 1) return std::nullopt;
  const std::string& number = *numbers.begin();
  std::map<int, const PeerLine*> owners;
  for (const auto& l : lines)
    if (!l.error && names_piece(l.text, number)) owners.try_emplace(l.rank, &l);
  if (owners.size() != 1) return std::nullopt;
  const auto& [rank, l] = *owners.begin();
  return PeerFinding{rank, "The failure names a file numbered " + number + ", and rank " + std::to_string(rank) +
                               ", and no other rank, said it was taking piece " + number + ": " + quote(*l) + " (" +
                               l->where + ").",
                     "was reading the numbered piece the failure names"};
}

namespace {
bool non_finite(std::string_view text) {
  auto word = [&](size_t at, size_t n) {
    const bool before = at == 0 || !std::isalnum(static_cast<unsigned char>(text[at - 1]));
    const bool after = at + n >= text.size() || !std::isalnum(static_cast<unsigned char>(text[at + n]));
    return before && after;
  };
  std::string low(text);
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view w : {"nan", "inf", "infinity"})
    for (size_t at = low.find(w); at != std::string::npos; at = low.find(w, at + 1))
      if (word(at, w.size())) return true;
  return false;
}
}  // namespace

std::optional<PeerFinding> lone_nonfinite(const std::vector<PeerLine>& lines) {
  if (ranks_of(lines).size() < 2) return std::nullopt;
  std::map<int, const PeerLine*> bad;
  for (const auto& l : lines)
    if (!l.error && non_finite(l.text)) bad.try_emplace(l.rank, &l);
  if (bad.size() != 1) return std::nullopt;
  const auto& [rank, l] = *bad.begin();
  return PeerFinding{rank, "Rank " + std::to_string(rank) + ", and no other rank, logged a non-finite number: " + quote(*l) +
                               " (" + l->where + "). Its data or its numbers went bad first.",
                     "logged a non-finite number before the failure"};
}

std::optional<PeerFinding> went_quiet_first(const std::vector<PeerLine>& lines) {
  const std::set<int> ranks = ranks_of(lines);
  if (ranks.size() < 3) return std::nullopt;
  std::map<int, const PeerLine*> last;
  for (const auto& l : lines) {
    auto& at = last[l.rank];
    if (!at || after(l, *at).value_or(l.line > at->line && l.input == at->input)) at = &l;
  }
  // Each line a rank logged, by its text and numbers: the same event on every rank.
  std::map<std::string, std::map<int, std::vector<const PeerLine*>>> events;
  for (const auto& l : lines) {
    if (l.error) continue;
    std::string key = l.shape;
    for (const auto& n : l.numbers) key += "|" + n;
    events[key][l.rank].push_back(&l);
  }
  // The quiet rank must log the same kinds of lines as its peers: one line all ranks logged.
  const bool alike = std::any_of(events.begin(), events.end(), [&](const auto& e) { return e.second.size() == ranks.size(); });
  if (!alike) return std::nullopt;
  std::map<int, std::pair<const PeerLine*, std::vector<int>>> found;  // quiet rank -> an event it missed
  for (const auto& [key, by_rank] : events) {
    if (by_rank.size() + 1 != ranks.size() || by_rank.size() < 2) continue;
    int quiet = -1;
    for (int r : ranks)
      if (!by_rank.count(r)) quiet = r;
    const PeerLine& stop = *last[quiet];
    std::vector<int> holders;
    const PeerLine* shown = nullptr;  // one that came after the quiet rank's last line, to quote
    bool all_after = true;
    for (const auto& [r, ls] : by_rank) {
      holders.push_back(r);
      auto later = std::find_if(ls.begin(), ls.end(), [&](const PeerLine* l) { return after(*l, stop).value_or(false); });
      all_after = all_after && later != ls.end();
      if (later != ls.end() && !shown) shown = *later;
    }
    if (all_after) found.try_emplace(quiet, shown, holders);
  }
  if (found.size() != 1) return std::nullopt;
  const auto& [quiet, what] = *found.begin();
  return PeerFinding{quiet, "Ranks " + join(what.second) + " logged " + quote(*what.first) + " (" + what.first->where + ") after rank " + std::to_string(quiet) +
                                "'s last line, " + quote(*last[quiet]) + " (" + last[quiet]->where + "), and rank " + std::to_string(quiet) +
                                " never did: its output stopped first (an inference from the ranks' own lines).",
                     "its output stopped before the other ranks' did"};
}

std::optional<PeerFinding> odd_report(const std::vector<PeerLine>& lines) {
  std::map<std::string, std::map<int, std::vector<const PeerLine*>>> by_shape;
  for (const auto& l : lines)
    if (!l.error) by_shape[l.shape][l.rank].push_back(&l);
  std::optional<PeerFinding> chosen;
  for (const auto& [shape, by_rank] : by_shape) {
    if (by_rank.size() < 3) continue;
    const size_t width = by_rank.begin()->second.front()->numbers.size();
    bool once = true;
    for (const auto& [r, ls] : by_rank) once = once && ls.size() == 1 && ls.front()->numbers.size() == width;
    if (!once) continue;
    for (size_t k = 0; k < width; ++k) {
      std::map<int, std::string> held;
      bool rank_valued = true;
      for (const auto& [r, ls] : by_rank) {
        held[r] = ls.front()->numbers[k];
        rank_valued = rank_valued && held[r] == std::to_string(r);
      }
      if (rank_valued) continue;
      auto odd = odd_value(held, shape);
      // Counts that all differ (`55 sequences`, `46 sequences`) but one that is none: an empty
      // shard, split or batch list is a setup apart even when no two peers agree.
      bool empty = false;
      if (!odd) {
        std::vector<int> zero, counted;
        for (const auto& [r, v] : held) (v == "0" ? zero : counted).push_back(r);
        if (zero.size() != 1 || counted.size() < 2) continue;
        odd = OddOneOut{zero.front(), shape, "0", "", counted};
        empty = true;
      }
      if (chosen && chosen->rank != odd->rank) return std::nullopt;  // two lines single out two ranks
      if (chosen) continue;
      const PeerLine& mine = *by_rank.at(odd->rank).front();
      const PeerLine& theirs = *by_rank.at(odd->others.front()).front();
      const std::string usual = empty ? "counts above 0" : odd->usual;
      chosen = PeerFinding{odd->rank, "Rank " + std::to_string(odd->rank) + " reported " + odd->value + " where ranks " +
                                          join(odd->others) + " all reported " + usual + ": " + quote(mine) + " (" +
                                          mine.where + ") against " + quote(theirs) + " (" + theirs.where +
                                          "); the rank whose setup differs is taken as the one that failed first (an "
                                          "inference from the ranks' own lines).",
                          empty ? "it had none of what every other rank had some of" : "its setup differed from every other rank's"};
    }
  }
  return chosen;
}

std::optional<PeerFinding> alive_after(const std::vector<PeerLine>& lines, const PeerPos& first,
                                       const std::set<int>& timed_out) {
  if (ranks_of(lines).size() < 2) return std::nullopt;
  std::map<int, const PeerLine*> later;
  for (const auto& l : lines) {
    if (l.error || timed_out.count(l.rank)) continue;
    if (after(l, first.time, first.input, first.line, false).value_or(false)) later.try_emplace(l.rank, &l);
  }
  if (later.size() != 1) return std::nullopt;
  const auto& [rank, l] = *later.begin();
  return PeerFinding{rank, "Rank " + std::to_string(rank) + " went on logging after the first timeout (" + quote(*l) + ", " +
                               l->where + ") while the ranks that timed out had stopped: it was busy elsewhere while they waited for "
                               "it.",
                     "still busy elsewhere while the others timed out waiting for it"};
}

namespace {
// Of three or more ranks, the one whose last healthy line before `first` has a shape no other
// rank's last line has, while all the others share one: (that rank, its line, another's line).
struct OddLast {
  int rank;
  const PeerLine* mine;
  const PeerLine* theirs;
  std::vector<int> usual;
};
std::optional<OddLast> odd_last_line(const std::vector<PeerLine>& lines, const PeerPos& first) {
  if (ranks_of(lines).size() < 3) return std::nullopt;
  std::map<int, const PeerLine*> last;
  for (const auto& l : lines)
    if (!l.error && !after(l, first.time, first.input, first.line, false).value_or(false)) last[l.rank] = &l;
  std::map<std::string, std::vector<int>> by_shape;
  for (const auto& [rank, l] : last) by_shape[l->shape].push_back(rank);
  if (last.size() < 3 || by_shape.size() != 2) return std::nullopt;
  const auto& [odd_shape, odd] = by_shape.begin()->second.size() == 1 ? *by_shape.begin() : *by_shape.rbegin();
  const auto& usual = odd_shape == by_shape.begin()->first ? by_shape.rbegin()->second : by_shape.begin()->second;
  if (odd.size() != 1 || usual.size() < 2) return std::nullopt;
  return OddLast{odd.front(), last.at(odd.front()), last.at(usual.front()), usual};
}
}  // namespace

std::optional<PeerFinding> stuck_elsewhere(const std::vector<PeerLine>& lines, const PeerPos& first,
                                           const std::set<int>& timed_out) {
  if (timed_out.empty()) return std::nullopt;
  const auto odd = odd_last_line(lines, first);
  if (!odd || timed_out.count(odd->rank)) return std::nullopt;
  return PeerFinding{odd->rank, "Peers timed out waiting; rank " + std::to_string(odd->rank) + " did not, and its last line before "
                                "the first error, " + quote(*odd->mine) + " (" + odd->mine->where + "), is unlike the last line of ranks " +
                                join(odd->usual) + " (" + quote(*odd->theirs) + "): it was still in that work while they waited for it.",
                     "still in its own work (" + quote(*odd->mine) + ") when the others timed out waiting for it"};
}

std::optional<PeerFinding> busy_elsewhere(const std::vector<PeerLine>& lines, const PeerPos& error) {
  const auto odd = odd_last_line(lines, error);
  if (!odd) return std::nullopt;
  return PeerFinding{odd->rank, "The error names no rank; rank " + std::to_string(odd->rank) + "'s last line before it, " +
                                quote(*odd->mine) + " (" + odd->mine->where + "), is unlike the last line of ranks " +
                                join(odd->usual) + " (" + quote(*odd->theirs) + "): it was doing other work when the error "
                                "came, so the error is most likely its (an inference from the ranks' own lines).",
                     "was doing other work (" + quote(*odd->mine) + ") when the error came"};
}

std::optional<PeerFinding> pid_owner(const std::vector<PeerLine>& lines, int pid) {
  if (pid <= 0) return std::nullopt;
  const std::string digits = std::to_string(pid);
  const PeerLine* named = nullptr;
  for (const auto& l : lines) {
    if (std::find(l.numbers.begin(), l.numbers.end(), digits) == l.numbers.end()) continue;
    if (named && named->rank != l.rank) return std::nullopt;
    if (!named) named = &l;
  }
  if (!named) return std::nullopt;
  return PeerFinding{named->rank, "Process " + digits + " is rank " + std::to_string(named->rank) + "'s: only that rank's lines name the number (" +
                                      quote(*named) + ", " + named->where + ").",
                     "its process " + digits + " was the one reported"};
}

std::optional<PeerFinding> silent_after_traceback(const std::vector<PeerLine>& lines, uint32_t input,
                                                  uint64_t traceback_line, uint64_t exception_line) {
  std::map<int, const PeerLine*> before, after;  // each rank's last line before, first line after
  for (const auto& l : lines) {
    if (l.input != input || l.blocked) continue;
    if (l.line < traceback_line) {
      auto& b = before[l.rank];
      if (!b || l.line >= b->line) b = &l;  // the line's last redraw
    } else if (l.line > exception_line && !l.error) {  // working, not failing in turn
      auto& a = after[l.rank];
      if (!a || l.line < a->line) a = &l;
    }
  }
  if (before.size() < 2 || after.empty()) return std::nullopt;
  const PeerLine* silent = nullptr;
  for (const auto& [r, l] : before) {
    if (after.count(r)) continue;
    if (silent) return std::nullopt;
    silent = l;
  }
  if (!silent) return std::nullopt;
  std::vector<int> alive;
  for (const auto& [r, l] : after) alive.push_back(r);
  const PeerLine& shown = *after.begin()->second;
  return PeerFinding{silent->rank, "The traceback names no rank; of the ranks whose lines share its file, rank " +
                                       std::to_string(silent->rank) + " logged nothing after it (its last line: " +
                                       quote(*silent) + ", " + silent->where + "), while " +
                                       (alive.size() == 1 ? "rank " : "ranks ") + join(alive) + " went on (" + quote(shown) +
                                       ", " + shown.where + "): the traceback ended rank " + std::to_string(silent->rank) +
                                       " (an inference from the order of the lines).",
                     "its output ended with the traceback while its peers went on"};
}

}  // namespace denpex::logs
