#pragma once
// Structure a line-by-line matcher cannot see: Python tracebacks and their chaining, C++
// `terminate called after throwing`, and torchrun's `Root Cause (first observed failure)` table.
// One EventTracker per source (file x rank): lines of different ranks interleave in real logs.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace denpex::logs {

// One `  File "<path>", line <N>, in <func>` line of a Python traceback.
struct StackFrame {
  std::string file;       // as printed: "/workspace/train.py", "<frozen importlib._bootstrap>", "<string>"
  uint64_t line = 0;      // line in that source file (1-based), from `line N`
  std::string function;   // `in step` -> "step"; empty for the `File "x.py", line 3` of a SyntaxError
  uint64_t log_line = 0;  // 1-based line of the log where this frame was printed
  std::string code;       // the source line printed under it, trimmed and capped; "" when none
};

struct ExceptionEvent {
  uint64_t line = 0;
  uint64_t traceback_line = 0;  // its `Traceback (most recent call last):`, 0 when none was seen
  std::string type;     // "RuntimeError", "torch.OutOfMemoryError", "c10::Error"
  std::string message;  // first line of the message, capped
  // How this exception relates to the one before it in the same source: "" (none),
  // "direct-cause" (`raise ... from`), "during-handling" (raised while handling it),
  // "dataloader-worker" (the worker's `Original Traceback` inside the message re-raised before it).
  std::string chained;
  std::string last_frame;  // `File "x.py", line 12, in step`, empty when none was seen
  int frames = 0;          // every frame printed, also those `stack` does not keep
  // The frames, outermost first as Python prints them. A deep recursion prints thousands, so at
  // most kStackHead outermost and kStackTail innermost are kept: when `frames > stack.size()`
  // the ones between stack[kStackHead - 1] and stack[kStackHead] were dropped. Empty for C++
  // `terminate` events and once the tracker's kMaxStackFrames are spent.
  std::vector<StackFrame> stack;
  bool from_terminate = false;  // C++ `terminate called after throwing an instance of`
  // The input ended inside the traceback (a paste cut short): no exception line was seen, `type`
  // is empty and `line` is its last frame's.
  bool cut_off = false;
  // Its class is named outside Python's Error/Exception convention (`VocabMismatch: ...`), read
  // only because it ended a traceback's frames: no fingerprint reads such a line, the fallback for
  // unknown exceptions stands for it (Diagnoser).
  bool unconventional_name = false;
};

// torchrun / torch.distributed.elastic's failure summary.
struct RootCause {
  uint64_t line = 0;  // line of `Root Cause (first observed failure):`
  int rank = -1;
  int local_rank = -1;
  std::string host;
  std::string time;
  int exitcode = 0;
  bool has_exitcode = false;
  std::string signal;  // "Signal 9 (SIGKILL) received by PID 1234" when the table says so
  int index = -1;      // the entry's `[N]:` heading: its place among all of the table's failures
  // Not printed but deduced: a table cut off before its root-cause entry, whose `Failures:` leave
  // out one index (see EventTracker::finish). `line` is then the `Failures:` heading's.
  bool inferred = false;
};

// NCCL's communicator init line, which ties a GPU's PCI bus id to a rank:
// `node-02:41222:41290 [2] NCCL INFO comm 0x5581a3e0 rank 2 nranks 4 cudaDev 2 nvmlDev 2 busId 5d000
// commId 0x... - Init START` (NCCL's init.cc; older versions print no nvmlDev/commId).
struct BusRank {
  uint64_t line = 0;
  std::string bus;  // as NCCL prints it: hex, no leading zeros ("5d000" for PCI 0000:5d:00.0)
  int rank = -1;    // the rank in that communicator
  int nranks = -1;
  int cuda_dev = -1;
  std::string host;  // NCCL's own `host:pid:tid` prefix
};

// NCCL's spelling of a PCI address ("0000:5d:00" or "0000:5d:00.0", as Xid lines print it).
std::string nccl_bus_id(std::string_view pci);

// A traceback torchrun copied into its summary table (`traceback : Traceback (most recent call
// last):` and the indented lines after it), or the one line of an entry killed by a signal
// (`traceback : Signal 9 (SIGKILL) received by PID N`): the lines [first_line, last_line] belong
// to `rank`.
struct TableTraceback {
  uint64_t first_line = 0;
  uint64_t last_line = 0;
  int rank = -1;
  std::string last_text;  // its last line, trimmed and capped: the exception it ends with
};

// `  File "/w/train.py", line 42, in step` -> {"/w/train.py", 42, "step"}, any indentation; nullopt
// when the line is no frame line. The path runs to the last `", line N`: Python prints it without
// escaping, so it may hold spaces and quotes.
std::optional<StackFrame> parse_frame_line(std::string_view text);

class EventTracker {
 public:
  // `text` is the normalized line without launcher prefix; lines arrive in order.
  void feed(uint64_t line, std::string_view text);
  // Ends any traceback still open (end of input): one with frames becomes a `cut_off` event.
  void finish();
  // True when only a marker line (a traceback header, a chaining sentence, `terminate called`,
  // a torchrun table heading) can change the tracker's state: other lines may then be skipped
  // unseen. False inside a traceback or a table, where every line of the source counts.
  bool idle() const { return state_ == State::Idle && table_ == Table::None; }

  const std::vector<ExceptionEvent>& exceptions() const { return exceptions_; }
  const std::vector<RootCause>& root_causes() const { return root_causes_; }
  // Ranks named in the `Failures:` section of a torchrun summary (other than the root cause).
  const std::vector<int>& other_failed_ranks() const { return other_failed_; }
  // The same section's entries with their fields (time, host, exit code, signal), in order.
  const std::vector<RootCause>& other_failures() const { return other_failures_; }
  const std::vector<BusRank>& bus_ranks() const { return bus_ranks_; }
  // torch.multiprocessing.spawn's `-- Process N terminated with the following error:`: the
  // process index whose traceback is printed at `line` (just after such a marker), -1 when none.
  int spawn_process_at(uint64_t line) const;
  const std::vector<TableTraceback>& table_tracebacks() const { return table_tracebacks_; }
  // The pids torchrun's agent sent SIGTERM to (`Sending process N closing signal SIGTERM`): every
  // worker of the node but the one that failed.
  const std::vector<long>& sigterm_pids() const { return sigterm_pids_; }
  // The elastic agent's rendezvous result, `  global_ranks=[4, 5, 6, 7]`: the global rank of each
  // local rank on this node (the last one printed: a restart prints it again). Empty when unseen.
  const std::vector<int>& global_ranks() const { return global_ranks_; }
  // The rank whose table traceback contains `line`, -1 when none does.
  int table_traceback_rank(uint64_t line) const;
  // The exception the line at `line` belongs to: the one whose traceback holds it, else the
  // nearest exception line at most kNearLines above it (the line continues that message), else
  // the nearest at most kNearLines below it. nullptr when none does, and for lines of a traceback
  // torchrun copied into its table (no event holds them; the agent's own traceback printed just
  // before the table must not claim them).
  const ExceptionEvent* exception_at(uint64_t line) const;

  static constexpr size_t kMaxEvents = 256;
  static constexpr size_t kStackHead = 8;
  static constexpr size_t kStackTail = 24;
  // Frames kept over all events of one source: bounds memory on logs that print the same
  // traceback at every step.
  static constexpr size_t kMaxStackFrames = 2048;
  static constexpr uint64_t kNearLines = 10;
  // How far into a line the elastic agent's `Sending process` is looked for (a logger prefix, a
  // pod prefix and a timestamp may come first).
  static constexpr size_t kSigtermHead = 192;

 private:
  void exception_line(uint64_t line, std::string_view text);
  void table_field(std::string_view key, std::string_view value);
  void infer_cut_root_cause();

  enum class State { Idle, Frames, AfterTerminate };
  State state_ = State::Idle;
  std::string pending_chain_;
  std::string last_frame_;
  int frames_ = 0;
  bool after_frame_ = false;  // the last line fed was a frame: its source line may follow
  uint64_t traceback_line_ = 0;
  std::vector<StackFrame> stack_;
  size_t stack_frames_kept_ = 0;  // over all events, against kMaxStackFrames
  std::string terminate_type_;
  uint64_t terminate_line_ = 0;

  enum class Table { None, RootCause, Failures };
  Table table_ = Table::None;
  RootCause current_;
  int failure_rank_ = -1;
  int failure_index_ = -1;      // the `[N]:` heading of the `Failures:` entry being read
  uint64_t failures_line_ = 0;  // the last `Failures:` heading
  bool in_table_traceback_ = false;
  int loose_lines_ = 0;  // lines of a root-cause table that were neither a field nor its end
  static constexpr int kLooseTableLines = 6;

  std::vector<ExceptionEvent> exceptions_;
  std::vector<RootCause> root_causes_;
  std::vector<int> other_failed_;
  std::vector<RootCause> other_failures_;
  std::string failure_time_, failure_host_;  // fields of a `Failures:` entry seen before its rank
  std::vector<BusRank> bus_ranks_;
  std::vector<std::pair<uint64_t, int>> spawn_marks_;  // line, process index
  std::vector<TableTraceback> table_tracebacks_;
  std::vector<long> sigterm_pids_;
  std::vector<int> global_ranks_;
};

// torchrun starts a node's workers one after another, so their pids usually run in local-rank
// order: a SIGTERM list that is one contiguous run of pids but for a single gap inside it
// points at the worker that was not signalled (it had already failed). Returns that gap's index
// (its likely local rank), -1 when the list does not have exactly one inner gap.
int missing_worker_index(std::vector<long> pids);

// How a report names the exception: `RuntimeError: boom`, or for a cut-off traceback what is
// known of it (its last frame).
std::string describe(const ExceptionEvent& ev, size_t max_message = 160);

// `RuntimeError: boom` -> {"RuntimeError", "boom"}; nullopt when the line does not look like the
// last line of a Python traceback. `after_frames`: the line right after a traceback's frames,
// where a CamelCase class with a message (`VocabMismatch: 3 ids`) is taken too and sets
// `*unconventional`.
std::optional<std::pair<std::string, std::string>> split_exception_line(std::string_view text, bool after_frames = false,
                                                                        bool* unconventional = nullptr);

// Lines a person would call an error: `Error`, `Exception`, `FAILED`, `Killed`, `fatal`, ...
bool looks_like_error(std::string_view text);

}  // namespace denpex::logs
