#pragma once
// The streaming front of log diagnosis: bytes in, a Report out. Inputs (files, stdin, a child's
// pipes) are fed in pieces of any size; memory stays bounded whatever the log's length:
// a capped partial line, a tail of `context` lines per input, and capped hit lists.
//
// Most lines of a log contain nothing of interest. A line is walked (normalized, attributed, fed
// to its rank's event tracker and matched) only when the screen, an RE2::Set over raw bytes
// (every fingerprint, helper and event marker; the matcher's own Set answers it, see
// Matcher::screen), hits it, or while some rank's event tracker is
// inside a traceback or table; other lines are counted and their rank noted. Chunks are screened
// in 16 KiB blocks before single lines are. On large inputs, and on any input when its atoms were
// computed at build time (PrefilterAtoms), a literal prefilter (src/prefilter.h) picks the
// candidate lines instead: a line holding none of the literals every screen match must
// contain cannot hit. The rule is the same on both paths, so the prefilter changes the cost only.
// Repeats cost little: a warning repeated on every step keeps one hit with a count (scan.h), and
// the Set's answers are remembered by line text (src/line_cache.h).
#include <re2/set.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "denpex/logs/attribution.h"
#include "denpex/logs/diagnosis.h"
#include "denpex/logs/events.h"
#include "denpex/logs/matcher.h"
#include "denpex/logs/prefilter_atoms.h"
#include "denpex/logs/scan.h"

namespace denpex::logs {

struct DiagnoseOptions {
  size_t context = 100;  // lines kept before the first error line
  // Bytes fed (all inputs together) before the literal prefilter is built. Building it costs
  // about as much as screening a few MiB, so small inputs are screened by the Set alone; the
  // result is the same either way (0: build it at once, SIZE_MAX: never).
  size_t prefilter_after = 8u << 20;
  // An input that ends within this many bytes is held until it ends and, when it shows the
  // shape of a hard-wrapped or flattened paste, put back into printed lines (paste_repair.h)
  // before it is read. 0 streams every byte as it comes, as inputs opened after on_live_fault()
  // always are (`denpex run`'s live line).
  size_t repair_pastes_up_to = 2u << 20;
  // Atoms computed ahead, used when they fit the matcher (PrefilterAtoms::fit); otherwise the
  // prefilter computes its own. Must outlive the diagnoser.
  const PrefilterAtoms* atoms = nullptr;
  // Compile the screen apart even where the matcher's Set answers it (Matcher::has_screen), as
  // before they were one: for tests, which compare the two.
  bool own_screen = false;
};

class LiteralPrefilter;
class LineCache;

// The first initiating-fault fingerprint seen while streaming (`denpex run`'s live line).
struct LiveFault {
  const core::Entry* entry = nullptr;
  std::string file;
  uint64_t line = 0;
  int rank = -1;
  std::string text;
};

class Diagnoser {
 public:
  static constexpr size_t kMaxLine = 64 * 1024;    // bytes of a line that are examined
  static constexpr size_t kMaxContextLine = 1024;  // bytes of a context line that are kept
  static constexpr size_t kMaxSnapshots = 64;      // candidate hits whose context is kept
  static constexpr uint8_t kAttributionTries = 64;  // skipped lines per rank read for node/local rank

  Diagnoser(const Matcher& matcher, DiagnoseOptions options = {});
  ~Diagnoser();

  // Registers an input; its name attributes it (`rank3.log`, `dmesg-node-05.log`).
  uint32_t open(std::string name);
  void feed(uint32_t input, std::string_view bytes);
  // Ends the input: a last line without '\n' is processed.
  void close(uint32_t input);
  // feed() then close(): a whole small input given at once is read where it lies, not copied.
  void feed_last(uint32_t input, std::string_view bytes);
  // Called once, at the first candidate of an entry that can initiate a failure.
  void on_live_fault(std::function<void(const LiveFault&)> callback) { live_ = std::move(callback); }

  Report finish();

  // Internal state shared with the causality stage (src/); opaque to callers.
  struct State;

 private:
  void stream(uint32_t input, std::string_view bytes);
  void read_whole(uint32_t input, std::string_view text);
  void process_chunk(uint32_t input, std::string_view chunk);
  void scan_range(uint32_t input, std::string_view chunk, size_t lo, size_t hi);
  void update_tail(uint32_t input, std::string_view chunk);
  void update_head(uint32_t input, std::string_view chunk);
  void walk_candidates(uint32_t input, std::string_view chunk);
  void visit_line(uint32_t input, std::string_view chunk, size_t begin, size_t end, bool likely_hit);
  bool error_like(std::string_view body);
  void process_line(uint32_t input, std::string_view chunk, size_t offset, size_t length,
                    const Attribution* known = nullptr, const std::vector<int>* ids = nullptr);
  bool screen(std::string_view text) const;
  bool screen_line(std::string_view line);
  void skip_range(uint32_t input, std::string_view range);
  void attribute_skipped(uint32_t input, std::string_view raw);
  void catch_up_clock(uint32_t input, std::string_view chunk, size_t begin);
  std::optional<double> line_clock(std::string_view raw);
  uint32_t note_rank(uint32_t input, int rank);
  // Files the pid a line ties to a rank (State::pid_rank): its NCCL prefix's pid with the rank
  // of its source, else the pid and rank its words name.
  void note_pid(const Attribution& a, int rank, std::string_view body);
  // The key a line's source is filed under: its rank, else a host prefix's node (as -2 - index),
  // else the file's rank, else -1.
  int source_key(uint32_t input, const Attribution& a, std::string_view body);
  int prefix_node_key(const std::string& node, int local);
  // For a line of no rank: the rank of the traceback it belongs to when a logger line just above
  // that traceback named one (logged_rank), else -1. `line` is the whole line, `body` the part
  // behind its prefixes.
  static int logged_traceback(struct InputState& in, std::string_view chunk, size_t offset, uint64_t lineno,
                              std::string_view line, std::string_view body);
  void add_cut_off_tracebacks(std::vector<Hit>& hits);
  void add_unconventional_exceptions(std::vector<Hit>& hits);
  void show_paste_lines(Report& report) const;

  const Matcher& matcher_;
  DiagnoseOptions options_;
  bool has_screen_ = false;          // false: every line is walked
  std::unique_ptr<RE2::Set> screen_;  // null when the matcher's Set screens (Matcher::screen)
  std::unique_ptr<LiteralPrefilter> prefilter_;
  std::unique_ptr<LineCache> screened_;    // the screen's answer by line text
  std::unique_ptr<LineCache> error_like_;  // looks_like_error by line text
  bool prefilter_built_ = false;
  uint64_t fed_ = 0;
  // Literal occurrences [begin, end) in the chunk being processed, from the prefilter.
  std::vector<std::pair<uint32_t, uint32_t>> hits_;
  std::unique_ptr<State> state_;
  std::function<void(const LiveFault&)> live_;
  bool live_fired_ = false;
};

}  // namespace denpex::logs
