#pragma once
// A launcher's reports of how each worker ended (`worker 0 killed by SIGABRT`, `worker 2 exited
// with code 1`, entry launcher-worker-exit-report): the worker that ended differently from the
// rest is the one that broke the job.
#include <optional>
#include <string>
#include <vector>

namespace denpex::logs {

struct WorkerExit {
  int worker = -1;
  std::string signal;  // "SIGABRT", or empty when it exited with a code
  int exitcode = 0;
};

struct OddExit {
  int worker = -1;
  std::string how;     // "was killed by SIGABRT", "exited with code 3"
  std::string others;  // "the others exited with code 1"; empty when the crash alone decided
};

// How a report reads as one outcome: a signal name, also for Python's negative codes (-11) and a
// shell's 128 + N (139), else "code N".
std::string exit_outcome(const WorkerExit& e);

// The first report per worker counts. One worker killed by a crash signal (SIGSEGV, SIGABRT,
// SIGBUS, SIGFPE, SIGILL, SIGKILL) while none other was; else, of three or more workers, the one
// whose outcome no other shares while the rest share one. nullopt otherwise.
std::optional<OddExit> odd_exit(const std::vector<WorkerExit>& reports);

}  // namespace denpex::logs
