#pragma once
// What the stream stage hands to the causality stage. Internal to analyzers/logs.
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "denpex/logs/diagnoser.h"
#include "rank_blocks.h"

namespace denpex::logs {

struct SourceInfo {
  uint32_t input = 0;
  int rank = -1;
  int local_rank = -1;
  std::string node;
  // Keyed by node and local rank (node_ranks.h): its rank, when known, was found for it.
  bool node_local = false;
  EventTracker events;
  // Where and when its last line was read: a traceback the input ends inside is dated by it.
  uint64_t last_order = 0;
  std::optional<double> last_time;
};

struct InputState {
  InputSummary summary;
  Attribution file_attr;
  bool kernel = false;
  std::string partial;  // the line in progress, capped at kMaxLine
  bool holding = false;  // still holding the input back as a possible paste (DiagnoseOptions)
  std::string held;
  // For a repaired paste: the paste's line number of each line read (1-based, by line read).
  std::vector<uint64_t> physical;
  std::string tail;     // the last `context` lines, for context snapshots
  // The first lines read (up to kHeadBytes / kHeadLines), where ranks print their setup: with
  // `tail`, what peer_lines.h compares between ranks when nothing else names the initiator.
  std::string head;
  uint64_t head_lines = 0;
  bool head_done = false;
  // The rank a file name gives each stretch of lines: the input's own name from line 1, then
  // each `==> rank_3.log <==` header from its line on (line, rank).
  std::vector<std::pair<uint64_t, int>> name_ranks;
  std::optional<double> last_time;
  size_t clock_from = 0;         // where in the current chunk the clock lookback stopped
  bool clock_tail_read = false;  // whether it reached back into `tail` for this chunk
  std::vector<bool> ranks_seen;  // ranks noted from screened-out chunks: skips the map lookup
  std::vector<uint32_t> source_by_rank;  // note_rank's answers by rank + 1 (source + 1; 0: not yet)
  // Skipped lines read for a node and local rank so far, by launcher rank + 1 (0: no prefix).
  std::vector<uint8_t> attribution_tries;
  // An unranked traceback whose rank a logger line just above it named (Diagnoser::logged_traceback):
  // its rank until its exception line, and the rank of the last one that ended, for a chained
  // `During handling ...` traceback after it.
  int traceback_rank = -1;
  // Untagged lines that buffered per-process blocks give a rank (rank_blocks.h), in line order,
  // and the first of them not yet passed.
  std::vector<BlockLines> blocks;
  size_t block_at = 0;
  // Why a file named for something else is one rank's (self_named_files.h); empty when it is not.
  std::string self_named;
  uint64_t traceback_until = 0;
  int ended_rank = -1;
  uint64_t ended_line = 0;
  bool chained = false;
  bool closed = false;
};

struct HitMeta {
  uint64_t order = 0;  // global position across inputs, in feed order
  std::optional<double> time;
  int snapshot = -1;  // index into snapshots, -1 when none was kept
};

struct Snapshot {
  uint64_t first_line = 0;
  std::vector<std::string> lines;
  std::string hit_line;  // the hit line itself, normalized like `lines` (launcher prefix kept)
};

struct Diagnoser::State {
  Scanner scanner;
  std::vector<InputState> inputs;
  std::vector<SourceInfo> sources;
  std::map<std::pair<uint32_t, int>, uint32_t> source_of;  // (input, rank) -> source
  // Nodes named by line prefixes (pdsh `host: `, `[pod/...]`): key -2 - i in source_of.
  std::map<std::string, int, std::less<>> prefix_node_index;
  std::vector<std::string> prefix_nodes;
  std::vector<int> prefix_locals;  // by prefix node: its local rank for a (node, local rank) key, else -1
  // (node, local rank) behind a host prefix -> the global rank the process's own lines named
  // (`[gpu-b02 r2/4 l0] joined ...`), the first such line's.
  std::map<std::pair<std::string, int>, int> node_local_rank;
  std::map<std::pair<uint32_t, uint64_t>, HitMeta> meta;    // (source, line) -> meta
  std::vector<Snapshot> snapshots;
  std::optional<LineRef> first_error_line;
  uint64_t order = 0;
  // pid -> global rank, from lines that name both (`rank=2 pid=14702`, a `[rankN]:` line's NCCL
  // `host:pid:tid` prefix): a report that names only a pid names that rank (note_pid).
  std::map<int, int> pid_rank;
  // Sources whose event tracker is inside a traceback or a table: while any is, every line is
  // walked, since any line of theirs may end or extend what the tracker holds.
  size_t busy = 0;
  // Hits, all but their entry, for exception lines of classes named outside the Error/Exception
  // convention that no fingerprint reads (add_unconventional_exceptions gives them the
  // fallback's); bounded like the tracker's events.
  std::vector<Hit> unconventional;
  size_t head_bytes = 0;   // all inputs' heads together (kHeadBudget)
  std::string norm;        // scratch buffer for normalize_line
  std::string clock_norm;  // the same for the clock lookback, which runs while `norm` is in use

  explicit State(const Matcher& m) : scanner(m) {}
};

// How much of each input's head is kept, and of all inputs' heads together (many small per-rank
// files share the budget; inputs past it keep none).
constexpr size_t kHeadBytes = 64 * 1024, kHeadLines = 1000, kHeadBudget = 32u << 20;

// A log record about a failure: its level (ERROR, CRITICAL, FATAL) or words that say one.
bool looks_like_error_record(std::string_view line);

// The line number a reader of the input sees for the n-th line read (1-based).
inline uint64_t shown_line(const InputState& in, uint64_t n) {
  if (in.physical.empty() || n == 0) return n;
  return in.physical[std::min<uint64_t>(n, in.physical.size()) - 1];
}

// A clock is read only from a line holding `D:DD:D` (hours, two-digit minutes, seconds) whose
// first colon lies within its first 72 bytes, where every stamp parse_timestamp knows puts it:
// most lines have none (`[rank3]:`, NCCL's `host:pid:tid`, tqdm's `12:01<14:41`) and are not
// parsed, which keeps the clock lookback cheap.
inline bool may_hold_clock(std::string_view line) {
  const char* p = line.data();
  const size_t n = std::min<size_t>(line.size(), 72);
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  for (const char* c = p; (c = static_cast<const char*>(std::memchr(c, ':', static_cast<size_t>(p + n - c))));) {
    const size_t i = static_cast<size_t>(c - p);
    if (i > 0 && i + 4 < line.size() && digit(p[i - 1]) && digit(p[i + 1]) && digit(p[i + 2]) && p[i + 3] == ':' &&
        digit(p[i + 4]))
      return true;
    ++c;
  }
  return false;
}

// The causality stage: hits, events and metadata -> ranked diagnoses.
Report build_report(const Matcher& matcher, Diagnoser::State& state, std::vector<Hit> hits);

}  // namespace denpex::logs
