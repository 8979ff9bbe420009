#include "denpex/logs/diagnoser.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "denpex/logs/normalize.h"
#include "denpex/logs/paste_repair.h"
#include "diagnoser_state.h"
#include "node_ranks.h"
#include "self_named_files.h"
#include "find_literal.h"
#include "line_cache.h"
#include "prefilter.h"

namespace denpex::logs {
namespace {

std::string_view cap(std::string_view s, size_t n) { return s.substr(0, std::min(s.size(), n)); }

}  // namespace

Diagnoser::Diagnoser(const Matcher& matcher, DiagnoseOptions options)
    : matcher_(matcher),
      options_(options),
      screened_(std::make_unique<LineCache>()),
      error_like_(std::make_unique<LineCache>()),
      state_(std::make_unique<State>(matcher)) {
  // The matcher's Set answers the screen (Matcher::screen) unless it cannot: then a Set of the
  // screen patterns is compiled here.
  if (matcher.has_screen() && !options_.own_screen) {
    has_screen_ = true;
    return;
  }
  RE2::Options o;
  o.set_log_errors(false);
  o.set_max_mem(32 << 20);
  screen_ = std::make_unique<RE2::Set>(o, RE2::UNANCHORED);
  bool ok = true;
  for (const auto& p : matcher.screen_patterns())
    if (screen_->Add(p, nullptr) < 0) ok = false;
  // A pattern the screen cannot hold would make it blind to that pattern: walk every line then.
  if (!ok || !screen_->Compile()) {
    screen_.reset();
    return;
  }
  has_screen_ = true;
}

Diagnoser::~Diagnoser() = default;

uint32_t Diagnoser::open(std::string name) {
  InputState in;
  in.file_attr = attribute_file(name);
  in.kernel = is_kernel_log_name(name);
  in.summary.file = std::move(name);
  in.summary.rank = in.file_attr.rank;
  in.summary.node = in.file_attr.node;
  in.name_ranks.emplace_back(0, in.file_attr.rank);
  // A live callback wants lines as they come: nothing is held back for it.
  in.holding = options_.repair_pastes_up_to > 0 && !live_;
  state_->inputs.push_back(std::move(in));
  return static_cast<uint32_t>(state_->inputs.size() - 1);
}

bool Diagnoser::screen(std::string_view text) const {
  if (!has_screen_) return true;
  if (!screen_) {
    bool failed = false;
    const bool hit = matcher_.screen(text, &failed);
    return hit || failed;
  }
  RE2::Set::ErrorInfo info;
  bool hit = screen_->Match(re2::StringPiece(text.data(), text.size()), nullptr, &info);
  // The DFA can run out of memory on adversarial input: then look at every line.
  return hit || info.kind != RE2::Set::kNoError;
}

bool Diagnoser::screen_line(std::string_view line) {
  const auto& hit = screened_->get(line, [&](std::string_view t, std::vector<int>* out) {
    out->assign(screen(t) ? 1 : 0, 1);
  });
  return !hit.empty();
}

bool Diagnoser::error_like(std::string_view body) {
  // Asked of every walked line until the first error: a warning repeated on every step is
  // answered once.
  return !error_like_->get(body, [](std::string_view t, std::vector<int>* out) { out->assign(looks_like_error(t) ? 1 : 0, 1); }).empty();
}

void Diagnoser::feed(uint32_t input, std::string_view bytes) {
  InputState& in = state_->inputs[input];
  in.summary.bytes += bytes.size();
  if (!in.summary.binary && std::memchr(bytes.data(), '\0', bytes.size()) != nullptr) in.summary.binary = true;
  if (in.holding) {
    if (in.held.size() + bytes.size() <= options_.repair_pastes_up_to) {
      in.held.append(bytes.data(), bytes.size());
      return;
    }
    // Too long for a paste: read as it comes.
    in.holding = false;
    std::string held;
    held.swap(in.held);
    stream(input, held);
  }
  stream(input, bytes);
}

void Diagnoser::stream(uint32_t input, std::string_view bytes) {
  InputState& in = state_->inputs[input];
  fed_ += bytes.size();
  if (!prefilter_built_ && has_screen_ && fed_ >= options_.prefilter_after) {
    // The bytes at hand are the sample that tells which literal windows this log repeats.
    prefilter_built_ = true;
    prefilter_ = options_.atoms && options_.atoms->fit(matcher_.screen_patterns())
                     ? LiteralPrefilter::from_atoms(options_.atoms->atoms, bytes)
                     : LiteralPrefilter::build(matcher_.screen_patterns(), bytes);
  }
  if (!in.partial.empty()) {
    // Finish the line in progress; beyond kMaxLine its bytes are counted but not kept.
    const char* nl = static_cast<const char*>(std::memchr(bytes.data(), '\n', bytes.size()));
    size_t take = nl ? static_cast<size_t>(nl - bytes.data()) : bytes.size();
    size_t room = kMaxLine > in.partial.size() ? kMaxLine - in.partial.size() : 0;
    in.partial.append(bytes.data(), std::min(room, take));
    if (nl == nullptr) return;
    in.partial.push_back('\n');
    std::string line;
    line.swap(in.partial);
    process_chunk(input, line);
    bytes.remove_prefix(take + 1);
  }
  if (bytes.empty()) return;
  const char* last = static_cast<const char*>(memrchr(bytes.data(), '\n', bytes.size()));
  size_t complete = last ? static_cast<size_t>(last - bytes.data()) + 1 : 0;
  if (complete > 0) process_chunk(input, bytes.substr(0, complete));
  std::string_view rest = bytes.substr(complete);
  in.partial.assign(rest.data(), std::min(rest.size(), kMaxLine));
}

void Diagnoser::feed_last(uint32_t input, std::string_view bytes) {
  InputState& in = state_->inputs[input];
  if (!in.holding || !in.held.empty() || bytes.size() > options_.repair_pastes_up_to) {
    feed(input, bytes);
    close(input);
    return;
  }
  // The whole input at once: read where it lies, without a held copy.
  in.summary.bytes += bytes.size();
  if (!in.summary.binary && std::memchr(bytes.data(), '\0', bytes.size()) != nullptr) in.summary.binary = true;
  in.holding = false;
  read_whole(input, bytes);
  close(input);
}

void Diagnoser::read_whole(uint32_t input, std::string_view text) {
  InputState& in = state_->inputs[input];
  std::optional<RepairedPaste> fixed;
  if (!in.summary.binary) fixed = repair_paste(text);
  // Small enough to look at whole first: whether it is one buffered block per process.
  constexpr size_t kBlockScan = 1u << 20;
  const std::string_view whole = fixed ? std::string_view(fixed->text) : text;
  if (!in.summary.binary && in.file_attr.rank < 0 && whole.size() <= kBlockScan) in.blocks = buffered_block_lines(whole);
  if (!fixed) return stream(input, text);
  in.physical = std::move(fixed->physical);
  in.summary.reshaped = std::move(fixed->what);
  stream(input, fixed->text);  // ends with '\n': nothing is left partial
  // Read by repaired lines; counted as the paste's.
  in.summary.lines = fixed->physical_lines;
  in.closed = true;
}

void Diagnoser::close(uint32_t input) {
  InputState& in = state_->inputs[input];
  if (in.closed) return;
  if (in.holding) {
    in.holding = false;
    std::string held;
    held.swap(in.held);
    read_whole(input, held);
    if (in.closed) return;
  }
  if (!in.partial.empty()) {
    std::string line;
    line.swap(in.partial);
    line.push_back('\n');
    process_chunk(input, line);
  }
  in.closed = true;
}

void Diagnoser::process_chunk(uint32_t input, std::string_view chunk) {
  state_->inputs[input].clock_from = 0;
  state_->inputs[input].clock_tail_read = false;
  hits_.clear();
  if (prefilter_ && chunk.size() < (uint64_t(1) << 32) && prefilter_->find(chunk, &hits_)) {
    walk_candidates(input, chunk);
  } else {
    scan_range(input, chunk, 0, chunk.size());
  }
  update_head(input, chunk);
  update_tail(input, chunk);
}

void Diagnoser::update_head(uint32_t input, std::string_view chunk) {
  InputState& in = state_->inputs[input];
  if (in.head_done) return;
  // Whole lines only (the chunk ends with '\n'), within both caps; the first line that does not
  // fit ends the head, so that it stays the input's first lines without a gap.
  const size_t room = std::min(kHeadBytes - in.head.size(), kHeadBudget - state_->head_bytes);
  size_t end = 0;
  while (end < chunk.size()) {
    const void* nl = std::memchr(chunk.data() + end, '\n', chunk.size() - end);
    const size_t next = nl ? static_cast<size_t>(static_cast<const char*>(nl) - chunk.data()) + 1 : chunk.size();
    if (next > room || in.head_lines >= kHeadLines) {
      in.head_done = true;
      break;
    }
    end = next;
    ++in.head_lines;
  }
  in.head.append(chunk.data(), end);
  state_->head_bytes += end;
}

void Diagnoser::visit_line(uint32_t input, std::string_view chunk, size_t begin, size_t end, bool likely_hit) {
  // The one rule both paths share, so that the prefilter never changes a report: a line is
  // walked when the screen hits its raw bytes (or some event tracker needs every line); any
  // other line is only counted and its rank noted.
  if (state_->busy > 0) return process_line(input, chunk, begin, end - begin);
  std::string_view raw = chunk.substr(begin, std::min(end - begin, kMaxLine));
  if (likely_hit && !has_esc_or_cr(raw)) {
    // A walk runs the matcher's Set on the line without its launcher prefix anyway; where that
    // finds a pattern whose match holds inside any longer text, the screen would hit the whole
    // line too and need not run. Worth it where most lines hit: lines the prefilter picked.
    Attribution a = attribute_line(raw);
    const std::vector<int>& ids = state_->scanner.ids(a.body(raw));
    for (int id : ids)
      if (matcher_.matches_inside(id)) return process_line(input, chunk, begin, end - begin, &a, &ids);
  }
  if (screen_line(raw)) {
    process_line(input, chunk, begin, end - begin);
  } else {
    skip_range(input, chunk.substr(begin, end + 1 - begin));
  }
}

void Diagnoser::walk_candidates(uint32_t input, std::string_view chunk) {
  // Only lines holding a literal occurrence (hits_) can hit the screen; the stretches between
  // them are counted in one pass each.
  const char* p = chunk.data();
  const size_t n = chunk.size();
  // Chunks end with '\n' (feed() keeps the partial line back); n stands for a missing one.
  auto line_end = [&](size_t from) {
    const void* nl = std::memchr(p + from, '\n', n - from);
    return nl ? static_cast<size_t>(static_cast<const char*>(nl) - p) : n;
  };
  size_t pos = 0, next_hit = 0;
  while (pos < n) {
    if (state_->busy > 0) {
      const size_t end = line_end(pos);
      process_line(input, chunk, pos, end - pos);
      pos = end + 1;
      continue;
    }
    while (next_hit < hits_.size() && hits_[next_hit].first < pos) ++next_hit;
    const size_t cand = next_hit < hits_.size() ? size_t(hits_[next_hit].first) : n;
    if (cand >= n) {
      skip_range(input, chunk.substr(pos));
      return;
    }
    const void* nl = cand > pos ? memrchr(p + pos, '\n', cand - pos) : nullptr;
    const size_t begin = nl ? static_cast<size_t>(static_cast<const char*>(nl) - p) + 1 : pos;
    if (begin > pos) skip_range(input, chunk.substr(pos, begin - pos));
    const size_t end = line_end(begin);
    visit_line(input, chunk, begin, end, true);
    pos = end + 1;
  }
}

void Diagnoser::scan_range(uint32_t input, std::string_view chunk, size_t lo, size_t hi) {
  // Screened in blocks of about kWalk bytes, each once, and the lines of a hit block one by
  // one: an interesting line costs a screen of its block and of its block's lines. (Halving a
  // hit range instead screened the text before a late hit again at every level.)
  constexpr size_t kWalk = 16 * 1024;
  while (lo < hi) {
    size_t end = hi;
    if (hi - lo > kWalk) {
      const char* nl = static_cast<const char*>(std::memchr(chunk.data() + lo + kWalk, '\n', hi - lo - kWalk));
      end = nl ? static_cast<size_t>(nl - chunk.data()) + 1 : hi;
    }
    std::string_view range = chunk.substr(lo, end - lo);
    if (state_->busy == 0 && !screen(range)) {
      skip_range(input, range);
    } else {
      for (size_t pos = lo; pos < end;) {
        const char* nl = static_cast<const char*>(std::memchr(chunk.data() + pos, '\n', end - pos));
        const size_t line_end = nl ? static_cast<size_t>(nl - chunk.data()) : end;
        visit_line(input, chunk, pos, line_end, false);
        pos = line_end + 1;
      }
    }
    lo = end;
  }
}

void Diagnoser::update_tail(uint32_t input, std::string_view chunk) {
  InputState& in = state_->inputs[input];
  const size_t n = options_.context;
  if (n == 0) return;
  // The suffix of the chunk holding its last n lines (the chunk ends with '\n').
  size_t start = chunk.size(), count = 0;
  while (start > 0 && count < n) {
    const char* nl = start >= 2 ? static_cast<const char*>(memrchr(chunk.data(), '\n', start - 1)) : nullptr;
    start = nl ? static_cast<size_t>(nl - chunk.data()) + 1 : 0;
    ++count;
  }
  std::string_view recent = chunk.substr(start);
  if (start == 0 && count < n) {
    in.tail.append(recent.data(), recent.size());
  } else {
    in.tail.assign(recent.data(), recent.size());
  }
  size_t lines = static_cast<size_t>(std::count(in.tail.begin(), in.tail.end(), '\n'));
  size_t drop = 0;
  while (lines > n) {
    drop = in.tail.find('\n', drop) + 1;
    --lines;
  }
  if (drop > 0) in.tail.erase(0, drop);
  // Bounded even for pathological line lengths.
  const size_t max_bytes = n * kMaxContextLine * 4;
  if (in.tail.size() > max_bytes) {
    size_t cut = in.tail.find('\n', in.tail.size() - max_bytes);
    in.tail.erase(0, cut == std::string::npos ? in.tail.size() : cut + 1);
  }
}

uint32_t Diagnoser::note_rank(uint32_t input, int rank) {
  State& st = *state_;
  // Every walked line asks: the usual ranks are answered from a vector, the map is for the rest.
  constexpr int kFastRanks = 4096;
  auto& fast = st.inputs[input].source_by_rank;
  if (rank >= -1 && rank < kFastRanks && static_cast<size_t>(rank + 1) < fast.size() && fast[static_cast<size_t>(rank + 1)] != 0)
    return fast[static_cast<size_t>(rank + 1)] - 1;
  // Garbage that looks like rank prefixes must not grow the source table without bound.
  constexpr size_t kMaxSources = 8192;
  if (st.sources.size() >= kMaxSources && !st.source_of.count({input, rank})) rank = -1;
  auto [it, added] = st.source_of.try_emplace({input, rank}, static_cast<uint32_t>(st.sources.size()));
  if (added) {
    SourceInfo s;
    s.input = input;
    s.rank = rank < -1 ? -1 : rank;
    s.node = rank < -1 ? st.prefix_nodes[static_cast<size_t>(-2 - rank)] : st.inputs[input].file_attr.node;
    if (rank < -1 && st.prefix_locals[static_cast<size_t>(-2 - rank)] >= 0) {
      s.local_rank = st.prefix_locals[static_cast<size_t>(-2 - rank)];
      s.node_local = true;
    }
    st.sources.push_back(std::move(s));
  }
  if (rank >= -1 && rank < kFastRanks) {
    if (static_cast<size_t>(rank + 1) >= fast.size()) fast.resize(static_cast<size_t>(rank + 2), 0);
    fast[static_cast<size_t>(rank + 1)] = it->second + 1;
  }
  return it->second;
}

int Diagnoser::source_key(uint32_t input, const Attribution& a, std::string_view body) {
  State& st = *state_;
  if (a.rank_local_to_node()) {
    // torchrun's `[default1]:` behind a host's prefix: local rank 1 of that node, global rank 1
    // only on the first node. The process's own head may say its global rank
    // (`[gpu-b02 r2/4 l0] joined ...`, `rank 2: ...`); else node_ranks.h places it at the end.
    const std::pair<std::string, int> key{a.node, a.local_rank};
    auto it = st.node_local_rank.find(key);
    if (it == st.node_local_rank.end()) {
      constexpr size_t kMaxNodeLocal = 4096;
      std::pair<size_t, size_t> digits{0, 0};
      const int named = logged_rank(body, &digits);
      if (named >= 0 && digits.first < 48 && st.node_local_rank.size() < kMaxNodeLocal)
        it = st.node_local_rank.emplace(key, named).first;
    }
    return it != st.node_local_rank.end() ? it->second : prefix_node_key(a.node, a.local_rank);
  }
  if (a.rank >= 0) return a.rank;
  // A process prefix (Ray's `(... pid=N, ...)`) whose pid said its rank earlier.
  if (a.pid >= 0 && a.node_prefix)
    if (auto p = st.pid_rank.find(a.pid); p != st.pid_rank.end()) return p->second;
  const int file_rank = st.inputs[input].file_attr.rank;
  if (file_rank >= 0 || !a.node_prefix || a.node.empty()) return file_rank;
  // Unranked lines of several hosts in one stream: each host is a source of its own, so that
  // one host's traceback is not taken for another's.
  return prefix_node_key(a.node, -1);
}

// The source key of a host's unranked lines (local -1), or of one local rank's lines on it.
int Diagnoser::prefix_node_key(const std::string& node, int local) {
  State& st = *state_;
  constexpr size_t kMaxPrefixNodes = 4096;
  // A host name holds no newline: `node\nlocal` cannot be another host's name.
  const std::string name = local < 0 ? node : node + "\n" + std::to_string(local);
  auto it = st.prefix_node_index.find(name);
  if (it == st.prefix_node_index.end()) {
    if (st.prefix_nodes.size() >= kMaxPrefixNodes) return -1;
    it = st.prefix_node_index.emplace(name, static_cast<int>(st.prefix_nodes.size())).first;
    st.prefix_nodes.push_back(node);
    st.prefix_locals.push_back(local);
  }
  return -2 - it->second;
}

void Diagnoser::note_pid(const Attribution& a, int rank, std::string_view body) {
  constexpr size_t kMaxPids = 4096;  // a job's processes; more is no job's startup
  auto& pids = state_->pid_rank;
  if (pids.size() >= kMaxPids) return;
  int pid = rank >= 0 ? a.pid : -1;
  int owner = rank;
  // Ray: the trainer's table ties worker pids to ranks; a worker's own line ties its prefix's pid.
  if (pid < 0 && a.pid >= 0 && a.node_prefix) {
    int worker = -1;
    if (const int r = ray_rank(body, &worker); r >= 0) {
      pids.try_emplace(worker >= 0 ? worker : a.pid, r);
      return;
    }
  }
  if (pid < 0) {
    pid = logged_pid(body);
    if (pid < 0) return;
    if (owner < 0) owner = logged_rank(body);
  }
  if (owner >= 0) pids.try_emplace(pid, owner);
}

namespace {
// The k-th line (1: the one just before) before the line at `offset` of `chunk`, reaching back
// into the input's tail; empty when there is none.
std::string_view line_before(std::string_view chunk, size_t offset, std::string_view tail, int k) {
  size_t end = offset;
  std::string_view text = chunk;
  for (int n = 1;; ++n) {
    if (end == 0) {
      if (text.data() == tail.data()) return {};
      text = tail;
      end = tail.size();
      while (end > 0 && text[end - 1] == '\n') --end;
      if (end == 0) return {};
      ++end;  // as if a newline followed
    }
    const char* nl = end >= 2 ? static_cast<const char*>(memrchr(text.data(), '\n', end - 1)) : nullptr;
    const size_t start = nl ? static_cast<size_t>(nl - text.data()) + 1 : 0;
    if (n == k) return text.substr(start, end - 1 - start);
    end = start;
  }
}
}  // namespace

// A log record about a failure: its level (ERROR, CRITICAL, FATAL) or words that say one. A
// WARNING that names an interrupt counts: `logger.warning("interrupted ... (KeyboardInterrupt)",
// exc_info=True)` is how training loops log a Ctrl-C before the traceback.
bool looks_like_error_record(std::string_view line) {
  std::string head(line.substr(0, 240));
  for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view w : {"error", "critical", "fatal", "exception", "failed", "crash", "interrupt"})
    if (head.find(w) != std::string::npos) return true;
  return false;
}

// A line a logger wrote, never an exception line: it opens with a date or clock
// (`2026-12-02 13:19:55,714 INFO`, `[2026-...`, `13:19:55`), a glog head (`I1202 13:19:55.7`) or
// Python's default `LEVEL:name:` format. An exception line opens with its class name.
static bool is_log_record(std::string_view line) {
  const auto digit = [&](size_t i) { return i < line.size() && line[i] >= '0' && line[i] <= '9'; };
  if (digit(0) || (line.starts_with('[') && digit(1))) return true;
  if (!line.empty() && std::string_view("IWEF").find(line[0]) != std::string_view::npos && digit(1) && digit(2) &&
      digit(3) && digit(4) && line.size() > 5 && line[5] == ' ')
    return true;
  for (std::string_view level : {"DEBUG:", "INFO:", "WARNING:", "ERROR:", "CRITICAL:"})
    if (line.starts_with(level)) return true;
  return false;
}

// `RuntimeError: ...`, `torch.OutOfMemoryError: ...`, `KeyboardInterrupt`: a dotted name whose
// last part ends like an exception class, then `:` or the end of the line.
static bool is_exception_line(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && i < 200 && (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_' || line[i] == '.'))
    ++i;
  if (i == 0 || (i < line.size() && line[i] != ':')) return false;
  const std::string_view name = line.substr(0, i);
  for (std::string_view tail : {"Error", "Exception", "Interrupt", "Exit", "Warning", "Failure"})
    if (name.ends_with(tail)) return true;
  return false;
}

// A tqdm bar an exception closed on its way out: tqdm rewrites the bar (`\rrank 2:  58%|...| 7/12
// [00:02<00:01,  3.17it/s]`) and ends the line, and the traceback follows from the same process.
// Other ranks' bars may share the line before their `\r`s; the last one is the closing bar's.
static int closed_bar_rank(std::string_view line) {
  if (size_t cr = line.rfind('\r'); cr != std::string_view::npos) line.remove_prefix(cr + 1);
  const size_t bar = line.find("%|");
  if (bar == std::string_view::npos || bar > 160 ||
      (line.find("it/s]") == std::string_view::npos && line.find("s/it]") == std::string_view::npos))
    return -1;
  return logged_rank(line.substr(0, bar));
}

// multiprocessing's header above a child's traceback (`Process SpawnProcess-3:`, printed by
// BaseProcess._bootstrap): a named process's rank (`Process rank2:`), else the creation counter,
// 1-based, so the third worker started is rank 2 (a launcher that starts one process per rank in
// rank order); -1 when the line is no such header.
static int process_header_rank(std::string_view line) {
  if (!line.starts_with("Process ") || !line.ends_with(":") || line.size() > 80) return -1;
  const std::string_view name = line.substr(8, line.size() - 9);
  if (int r = logged_rank(name); r >= 0) return r;
  // A name the job gave its processes, `Process(name=f"trainer-{rank}")`: a rank word and the rank.
  for (std::string_view word : {"trainer", "worker", "proc", "task"}) {
    if (name.size() <= word.size() || name.size() > word.size() + 6 || !name.starts_with(word)) continue;
    size_t i = word.size();
    if (name[i] == '-' || name[i] == '_') ++i;
    int n = 0;
    const size_t from = i;
    for (; i < name.size() && name[i] >= '0' && name[i] <= '9'; ++i) n = n * 10 + (name[i] - '0');
    return i > from && i == name.size() ? n : -1;
  }
  for (std::string_view kind : {"Process-", "SpawnProcess-", "ForkProcess-", "ForkServerProcess-"}) {
    if (!name.starts_with(kind) || name.size() == kind.size() || name.size() > kind.size() + 5) continue;
    int n = 0;
    for (char c : name.substr(kind.size())) {
      if (c < '0' || c > '9') return -1;
      n = n * 10 + (c - '0');
    }
    return n >= 1 ? n - 1 : -1;
  }
  return -1;
}

int Diagnoser::logged_traceback(InputState& in, std::string_view chunk, size_t offset, uint64_t lineno,
                                std::string_view line, std::string_view body) {
  constexpr uint64_t kMaxTraceback = 400;  // lines a traceback may span before its exception
  if (body.starts_with("Traceback (most recent call last)")) {
    // Only an error record: logging.exception() writes its message and the traceback in one
    // write, so they stay together in a shared stream; a bare traceback (sys.excepthook) may
    // follow any other process's line.
    // Other processes' routine records may also land between the error record and its
    // traceback when the two are separate writes (`log.warning(...)` then a re-raise the
    // excepthook prints): up to kInterleaved of them are looked past.
    constexpr int kInterleaved = 4;
    in.traceback_rank = -1;
    bool only_records = true;  // every line looked past so far was another routine log record
    for (int k = 1; k <= 2 + kInterleaved && in.traceback_rank < 0 && (k <= 2 || only_records); ++k) {
      std::string_view prev = line_before(chunk, offset, in.tail, k);
      // The exception line of the traceback before (`RuntimeError: ... but Rank 0 has 4 params`)
      // names the rank it compares with, not the process that prints the next traceback.
      if (prev.empty() || is_exception_line(prev)) break;
      if (looks_like_error_record(prev)) {
        in.traceback_rank = logged_rank(prev);
        only_records = false;
      } else {
        only_records = only_records && is_log_record(prev);
        if (k == 1 && (in.traceback_rank = process_header_rank(prev)) < 0) in.traceback_rank = closed_bar_rank(prev);
      }
    }
    // `During handling of the above exception ...`: the chained traceback is the same process's.
    if (in.traceback_rank < 0 && in.chained && lineno - in.ended_line <= 4) in.traceback_rank = in.ended_rank;
    in.chained = false;
    in.traceback_until = lineno + kMaxTraceback;
    return in.traceback_rank;
  }
  if ((body.starts_with("During handling of the above exception") || body.starts_with("The above exception was")) &&
      in.ended_rank >= 0 && lineno - in.ended_line <= 2) {
    in.chained = true;
    return in.ended_rank;
  }
  if (in.traceback_rank < 0) return -1;
  if (lineno > in.traceback_until) return in.traceback_rank = -1;
  const int rank = in.traceback_rank;
  // Another process's log record may land between the frames of a shared stream (it writes its
  // lines while this one writes its traceback): it is not the exception and not this rank's.
  if (is_log_record(line)) return -1;
  // Frames and their source lines are indented; the first line that is not is the exception.
  if (!body.empty() && body[0] != ' ' && body[0] != '\t') {
    in.ended_rank = rank;
    in.ended_line = lineno;
    in.traceback_rank = -1;
  }
  return rank;
}

// The file a header line names where several files were shown in one stream: `==> rank_3.log <==`
// (tail, head), or a script's banner `----- logs/rank0.log -----` (three or more of - = # * around
// one name ending .log/.txt/.out/.err that names a rank or node); empty when the line is no such
// header.
static std::string_view section_file(std::string_view body) {
  if (body.starts_with("==> ") && body.ends_with(" <==") && body.size() > 8) return body.substr(4, body.size() - 8);
  auto deco = [](char c) { return c == '-' || c == '=' || c == '#' || c == '*' || c == ' '; };
  if (body.size() < 8 || body.size() > 300 || !deco(body[0]) || body[0] == ' ' || body[1] != body[0] || body[2] != body[0])
    return {};
  size_t b = 0, e = body.size();
  while (b < e && deco(body[b])) ++b;
  while (e > b && deco(body[e - 1])) --e;
  const std::string_view name = body.substr(b, e - b);
  if (name.empty() || name.find(' ') != std::string_view::npos) return {};
  // A banner is taken for a file's header only when its name says whose file it is (`rank0.log`,
  // `node-05.out`): a banner around `config.txt` in a rank's own file keeps that file's rank.
  for (std::string_view ext : {".log", ".txt", ".out", ".err"})
    if (name.size() > ext.size() && name.ends_with(ext) && !attribute_file(name).empty()) return name;
  return {};
}

constexpr size_t kMaxSectionHeaders = 4096;  // bounds InputState::name_ranks

// Composer's launcher prints each crashed rank's saved output after cleanup between
// `----------Begin global rank 1 STDERR----------` and `----------End global rank 1 STDERR----------`:
// {true, 1} and {false, 1}; nullopt for any other line.
static std::optional<std::pair<bool, int>> composer_block(std::string_view body) {
  constexpr std::string_view kDashes = "----------";
  if (!body.starts_with(kDashes) || !body.ends_with(kDashes)) return std::nullopt;
  std::string_view t = body.substr(kDashes.size(), body.size() - std::min(body.size(), 2 * kDashes.size()));
  const bool begin = t.starts_with("Begin global rank ");
  if (!begin && !t.starts_with("End global rank ")) return std::nullopt;
  t.remove_prefix(begin ? 18 : 16);
  size_t n = 0;
  while (n < t.size() && n < 6 && t[n] >= '0' && t[n] <= '9') ++n;
  if (n == 0 || (t.substr(n) != " STDOUT" && t.substr(n) != " STDERR")) return std::nullopt;
  return std::make_pair(begin, std::atoi(std::string(t.substr(0, n)).c_str()));
}

void Diagnoser::process_line(uint32_t input, std::string_view chunk, size_t offset, size_t length,
                             const Attribution* known, const std::vector<int>* ids) {
  State& st = *state_;
  InputState& in = st.inputs[input];
  const uint64_t lineno = ++in.summary.lines;
  ++st.order;
  catch_up_clock(input, chunk, offset);
  std::string_view raw = cap(chunk.substr(offset, length), kMaxLine);
  std::string_view norm;
  if (!known && has_esc_or_cr(raw)) {
    normalize_line(raw, st.norm);
    norm = st.norm;
  } else {
    norm = raw;
  }
  // `known` is the attribution of the raw line and `ids` what the matcher's Set said about its
  // body, given only when the line needs no normalizing (then norm == raw).
  const Attribution a = known ? *known : attribute_line(norm);
  std::string_view body = a.body(norm);
  // `tail -n +1 rank_*.log` / `head` of several files: `==> rank_3.log <==` heads the lines of
  // that file, attributed by its name as if it had been given apart.
  if (const std::string_view name = section_file(body); a.strip == 0 && !name.empty()) {
    in.file_attr = attribute_file(name);
    in.kernel = is_kernel_log_name(name);
    if (in.name_ranks.size() < kMaxSectionHeaders) in.name_ranks.emplace_back(lineno, in.file_attr.rank);
  }
  if (auto block = a.strip == 0 ? composer_block(body) : std::nullopt) {
    in.file_attr = attribute_file(in.summary.file);
    if (block->first) in.file_attr.rank = block->second;
    if (in.name_ranks.size() < kMaxSectionHeaders) in.name_ranks.emplace_back(lineno, in.file_attr.rank);
  }
  int key = source_key(input, a, body);
  if (key == -1) key = logged_traceback(in, chunk, offset, lineno, norm, body);
  if (key == -1 && !in.blocks.empty()) {
    while (in.block_at < in.blocks.size() && in.blocks[in.block_at].last < lineno) ++in.block_at;
    if (in.block_at < in.blocks.size() && in.blocks[in.block_at].first <= lineno) key = in.blocks[in.block_at].rank;
  }
  const uint32_t source = note_rank(input, key);
  SourceInfo& src = st.sources[source];
  const int rank = src.rank;
  // Processes say their pid where they start (`rank=2 pid=14702 starting`, NCCL's init lines):
  // only the head of an input is read for it.
  constexpr uint64_t kPidLines = 4096;
  if (lineno <= kPidLines) note_pid(a, rank, body);
  if (src.local_rank < 0 && a.local_rank >= 0) src.local_rank = a.local_rank;
  if (src.node.empty() && !a.node.empty()) src.node = a.node;
  if (may_hold_clock(norm))
    if (auto t = parse_timestamp(norm)) in.last_time = t;
  in.clock_from = offset + length + 1;
  src.last_order = st.order;
  src.last_time = in.last_time;
  const bool was_idle = src.events.idle();
  const size_t exceptions = src.events.exceptions().size();
  src.events.feed(lineno, body);
  if (was_idle != src.events.idle()) was_idle ? ++st.busy : --st.busy;
  if (src.events.exceptions().size() > exceptions && src.events.exceptions().back().unconventional_name) {
    // A line some entry reads (`torch._dynamo.exc.FailOnRecompileLimitHit: ...`) is that entry's;
    // any other gets the fallback's hit at the end, in this line's place.
    const std::vector<int>& read = ids ? *ids : st.scanner.ids(body);
    if (std::none_of(read.begin(), read.end(), [&](int id) { return matcher_.fingerprint(id) != nullptr; })) {
      const ExceptionEvent& ev = src.events.exceptions().back();
      Hit h;
      h.source = source;
      h.line = lineno;
      h.confidence = 0.12;
      h.captures = {{"type", ev.type}, {"message", ev.message}};
      h.text = describe(ev, Scanner::kMaxHitText);
      st.unconventional.push_back(std::move(h));
      HitMeta& meta = st.meta[{source, lineno}];
      meta.order = st.order;
      meta.time = in.last_time;
    }
  }
  if (!st.first_error_line && error_like(body))
    st.first_error_line = LineRef{{in.summary.file, lineno}, rank, std::string(cap(body, 2048))};

  const size_t before = st.scanner.candidate_count();
  if (ids) {
    st.scanner.feed(source, lineno, body, *ids);
  } else {
    st.scanner.feed(source, lineno, body);
  }
  const size_t after = st.scanner.candidate_count();
  if (after == before) return;
  HitMeta& meta = st.meta[{source, lineno}];
  meta.order = st.order;
  meta.time = in.last_time;
  if (st.snapshots.size() < kMaxSnapshots && options_.context > 0) {
    // Lines before this one: first from this chunk, then from the input's tail.
    std::vector<std::string_view> prev;
    size_t end = offset;
    while (end > 0 && prev.size() < options_.context) {
      const char* nl = end >= 2 ? static_cast<const char*>(memrchr(chunk.data(), '\n', end - 1)) : nullptr;
      size_t start = nl ? static_cast<size_t>(nl - chunk.data()) + 1 : 0;
      prev.push_back(chunk.substr(start, end - 1 - start));
      end = start;
    }
    if (end == 0) {
      std::string_view tail = in.tail;
      size_t tend = tail.size();
      while (tend > 0 && prev.size() < options_.context) {
        const char* nl = tend >= 2 ? static_cast<const char*>(memrchr(tail.data(), '\n', tend - 1)) : nullptr;
        size_t start = nl ? static_cast<size_t>(nl - tail.data()) + 1 : 0;
        prev.push_back(tail.substr(start, tend - 1 - start));
        tend = start;
      }
    }
    Snapshot snap;
    snap.first_line = lineno - prev.size();
    std::string line;
    for (auto p = prev.rbegin(); p != prev.rend(); ++p) {
      normalize_line(cap(*p, kMaxContextLine), line);
      snap.lines.push_back(line);
    }
    snap.hit_line = std::string(cap(norm, kMaxContextLine));
    meta.snapshot = static_cast<int>(st.snapshots.size());
    st.snapshots.push_back(std::move(snap));
  }
  if (live_ && !live_fired_) {
    for (size_t i = before; i < after; ++i) {
      const Hit& h = st.scanner.candidate(i);
      const core::Entry& e = matcher_.entries()[h.entry];
      if (!e.can_initiate()) continue;
      // The fallback for unknown exceptions initiates only inside a cascade, known at the end.
      if (e.has_tag("fallback")) continue;
      // Context rules are only settled at the end; live, trust fingerprints that need none.
      const auto& fp = e.fingerprints[h.fingerprint];
      if (!fp.requires_pattern.empty() || !fp.excludes_pattern.empty()) continue;
      live_fired_ = true;
      live_(LiveFault{&e, in.summary.file, shown_line(in, lineno), rank, h.text});
      break;
    }
  }
}

Report Diagnoser::finish() {
  State& st = *state_;
  for (uint32_t i = 0; i < st.inputs.size(); ++i) close(i);
  for (auto& s : st.sources) s.events.finish();
  resolve_node_local_ranks(st);
  std::vector<Hit> hits = st.scanner.finish();
  add_cut_off_tracebacks(hits);
  add_unconventional_exceptions(hits);
  name_files_by_their_words(st);
  Report report = build_report(matcher_, st, std::move(hits));
  show_paste_lines(report);
  return report;
}

void Diagnoser::show_paste_lines(Report& report) const {
  // Lines are counted as read while diagnosing, so that every line of a repaired paste has a
  // number of its own; the report gives the paste's numbers, which the reader can look up.
  const State& st = *state_;
  auto input_of = [&](const std::string& file) -> const InputState* {
    for (const auto& in : st.inputs)
      if (in.summary.file == file && !in.physical.empty()) return &in;
    return nullptr;
  };
  auto show = [&](Location& where) {
    if (const InputState* in = input_of(where.file)) where.line = shown_line(*in, where.line);
  };
  auto show_frames = [&](const std::string& file, std::vector<StackFrame>& frames) {
    if (const InputState* in = input_of(file))
      for (auto& f : frames) f.log_line = shown_line(*in, f.log_line);
  };
  for (auto& d : report.diagnoses) {
    if (const InputState* in = input_of(d.first_error.file)) d.context_first_line = shown_line(*in, d.context_first_line);
    show_frames(d.first_error.file, d.traceback);
    show(d.first_error);
    for (auto& c : d.collateral) show(c.where);
    for (auto& h : d.hypotheses) show(h.where);
  }
  if (report.first_error_line) show(report.first_error_line->where);
  if (report.final_exception) {
    show_frames(report.final_exception->where.file, report.final_exception->event.stack);
    if (const InputState* in = input_of(report.final_exception->where.file))
      report.final_exception->event.line = shown_line(*in, report.final_exception->event.line);
    show(report.final_exception->where);
  }
  if (report.root_cause) show(report.root_cause->where);
}

// A cut paste's last frame may still be followed by its source line and a `^^^^` marker.
constexpr uint64_t kCutOffTail = 3;

namespace {
std::vector<core::Entry>::const_iterator fallback_entry(const std::vector<core::Entry>& entries) {
  return std::find_if(entries.begin(), entries.end(), [](const core::Entry& e) { return e.has_tag("fallback"); });
}
}  // namespace

void Diagnoser::add_unconventional_exceptions(std::vector<Hit>& hits) {
  // A traceback ending in a class of the job's own named outside the Error/Exception convention
  // (`VocabMismatch: ...`) is an unknown exception like any other; no fingerprint can read such
  // a line (it holds no literal for the screen), the tracker did, where Python puts it.
  const auto& entries = matcher_.entries();
  auto fallback = fallback_entry(entries);
  if (fallback == entries.end()) return;
  for (Hit& h : state_->unconventional) {
    h.entry = static_cast<uint32_t>(fallback - entries.begin());
    hits.push_back(std::move(h));
  }
  state_->unconventional.clear();
}

void Diagnoser::add_cut_off_tracebacks(std::vector<Hit>& hits) {
  // A paste that ends inside a traceback has no exception line for any fingerprint to match,
  // yet it shows which process was failing: the fallback for unknown exceptions stands for it
  // (causality decides, as for any unknown exception, whether it started the failure).
  const auto& entries = matcher_.entries();
  auto fallback = fallback_entry(entries);
  if (fallback == entries.end()) return;
  State& st = *state_;
  for (uint32_t i = 0; i < st.sources.size(); ++i) {
    const SourceInfo& s = st.sources[i];
    if (s.events.exceptions().empty() || !s.events.exceptions().back().cut_off) continue;
    const ExceptionEvent& ev = s.events.exceptions().back();
    // Only where the input itself ends inside it: a traceback whose lines stop long before the
    // input does was interrupted by another process's output (two tracebacks interleaved), and
    // its exception line is among the lines that follow, under no rank.
    if (st.inputs[s.input].summary.lines > ev.line + kCutOffTail) continue;
    Hit h;
    h.source = i;
    h.line = ev.line;
    h.entry = static_cast<uint32_t>(fallback - entries.begin());
    h.confidence = 0.1;
    h.text = "Traceback (most recent call last): ... " + ev.last_frame;
    HitMeta& meta = st.meta[{i, ev.line}];
    meta.order = s.last_order;
    meta.time = s.last_time;
    hits.push_back(std::move(h));
  }
}

}  // namespace denpex::logs
