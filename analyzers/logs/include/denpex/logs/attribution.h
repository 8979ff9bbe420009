#pragma once
// Who printed a line: rank, local rank and node, read from the prefixes launchers and libraries
// write, from file names, and when it happened, read from the common timestamp formats.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace denpex::logs {

// One launcher's workers are few: a number from here up that names a worker (`worker 26434`,
// `worker-22186.log`) is its process id, not its rank.
inline constexpr int kMaxLauncherWorker = 1024;

struct Attribution {
  int rank = -1;        // global rank, -1 when unknown
  int local_rank = -1;  // local rank / device index, -1 when unknown
  // `rank` is only the local rank a `[defaultN]:` prefix gives: the global rank on one node, not
  // behind a host prefix of several.
  bool rank_is_local = false;
  std::string node;     // host name, empty when unknown
  // The node came from a prefix the collector put on every line of that host (pdsh/DeepSpeed's
  // `host: `, `kubectl logs --prefix`), so lines without a rank can be told apart by it.
  bool node_prefix = false;
  size_t strip = 0;     // bytes of launcher prefix to remove before matching
  size_t strip_tail = 0;  // bytes of a collector's suffix to remove (Ray's `[repeated 3x across cluster]`)
  int pid = -1;         // the process id NCCL's `host:pid:tid [N] NCCL` prefix names, -1 when none

  bool empty() const { return rank < 0 && local_rank < 0 && node.empty(); }
  // Several hosts' `[defaultN]:` lines in one stream: `rank` is a local rank, not yet global.
  bool rank_local_to_node() const { return rank >= 0 && rank_is_local && node_prefix && !node.empty(); }
  // What the process itself printed: the line without the prefix and suffix around it.
  std::string_view body(std::string_view line) const {
    const size_t from = std::min(strip, line.size());
    return line.substr(from, line.size() - from - std::min(strip_tail, line.size() - from));
  }
};

// Reads one normalized line. Launcher prefixes (`[rank3]:`, `[default3]:`, `[1,3]<stderr>:`) are
// stripped; in-text markers (`[Rank 3]`, `[PG 0 Rank 3]`, NCCL's `host:pid:tid [3] NCCL`,
// `srun: error: node-05: task 3:`) attribute the line but stay in the text, because fingerprints
// may capture them.
Attribution attribute_line(std::string_view line);

// The rank a training script's own logger put in the head of a line, where no launcher prefix
// says it: `INFO:rank0:saving ...` (logging's default format, a logger per rank), `... | rank 2 |
// ERROR | ...`, `[RANK 0] ...`, `rank=1 step=3`, `rank 2: ...`, `[2/4] ERROR ...` (rank of world
// size, at the head or behind a clock); -1 when none. Read only for the
// line a traceback follows (logging.exception prints its message, then the traceback bare).
// `digits_at`, when given, receives where the rank's digits lie in the line (offset, length).
int logged_rank(std::string_view line, std::pair<size_t, size_t>* digits_at = nullptr);

// The process id a line names beside its words: `pid=14702`, `pid 14702`, `(pid: 14702)`,
// `PID 14702`, in the first 160 bytes, or the id a glog head names (`I1202 13:51:13.75  14764 f.py:18]`);
// -1 when none. With logged_rank it ties a pid to a rank
// (`worker rank=2 pid=14702 starting`), so that a report naming only the pid (bash's `line 57:
// 14702 Killed`, the kernel's `Killed process 14702`) names the rank.
int logged_pid(std::string_view line);

// The rank a Ray Train line gives (`... [rank=0, world_size=4]`, `rank=0, local_rank=0`); for
// the trainer's table row `- (ip=..., pid=7410) rank=0, ...`, `worker_pid` receives the worker's
// pid, else -1. -1 when none.
int ray_rank(std::string_view body, int* worker_pid);

// A JSON-lines record (structlog, python-json-logger, a job's own `json.dumps`) that carries its
// rank as a top-level number near its front: `{"ts": "...", "rank": 3, "level": "ERROR", ...}`;
// -1 when none. The record is the line's text: its fields stay for fingerprints.
int json_rank(std::string_view line);

// A bare `[N] ` at the head of a line (after up to 8 spaces): a paste's line number (`[1745] `) or
// a job's own `print(f"[{rank}] ...")`. -1 when the line has none. Which of the two it is can only
// be told from all such lines of an input (BracketRanks), never from one.
int bracket_number(std::string_view line);

// Tells the two apart over an input's lines: a paste's numbers rise (by one a line, with a jump
// where a second paste starts), a job's ranks come back again and again. Ranks when at least 4
// lines carry such a number, all below 64, at most half as many distinct numbers as lines, and at
// least a quarter of the steps from one such line to the next do not rise.
class BracketRanks {
 public:
  void see(int n);
  bool ranks() const;

 private:
  uint32_t lines_ = 0;
  uint32_t not_rising_ = 0;
  uint64_t seen_ = 0;  // bit n: `[n] ` was seen
  int last_ = -1;
  bool large_ = false;
};

// From a file name: `rank3.log`, `rank-3.txt`, `worker_3.out`, `node-05.out`, `dmesg-node-05.log`.
Attribution attribute_file(std::string_view path);
// True for kernel logs (`dmesg*`, `kern.log*`, `syslog*`): their lines belong to the node.
bool is_kernel_log_name(std::string_view path);

// Seconds since an arbitrary epoch from a timestamp at or near the start of the line:
// ISO-8601 (`2024-05-01 12:34:56,789`, `2024-05-01T12:34:56.789Z`), torchrun's
// `2024-05-01_12:34:56`, glog (`E0501 12:34:56.789`), syslog (`May  1 12:34:56`).
// Only wall-clock formats: kernel uptimes (`[ 1234.5]`) are not comparable across sources.
std::optional<double> parse_timestamp(std::string_view line);

}  // namespace denpex::logs
