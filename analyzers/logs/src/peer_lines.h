#pragma once
// What the ranks' own healthy lines say about one another, for a failure that nothing else ties
// to a rank (an unprefixed traceback, collateral only). Each input's kept head and tail are read
// again at the end; a line counts for a rank when a prefix, a file name, the logger's words
// (`rank 2: ...`, `INFO:rank0:`) or a pid the log tied to a rank say whose it is. Every rule asks
// for lines of two ranks or more (three for went_quiet_first and odd_report) and one rank standing
// apart from all the others, and gives nothing when the lines disagree: these are inferences,
// said as such.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "diagnoser_state.h"

namespace denpex::logs {

struct PeerLine {
  int rank = -1;
  uint32_t input = 0;
  uint64_t line = 0;  // read-line number in its input
  // Its place among the redraws one line holds (a progress bar's `\r`-separated writes, each a
  // line its rank printed in turn), 0 for a line of one write.
  uint32_t seg = 0;
  std::string where;  // `file:line` as the reader numbers it
  std::optional<double> time;
  std::string node;      // the host, pod or container a prefix on the line names, "" when none
  bool blocked = false;  // a file of several files' blocks (`==> f <==`): its line order is no clock
  // The text with each digit run as '#' and the rank's own number as 'R'.
  std::string shape;
  // Its standalone integers in order: not parts of clocks, dates, decimals or addresses.
  std::vector<std::string> numbers;
  bool error = false;   // words of a failure: not a healthy line
  bool record = false;  // an ERROR / CRITICAL / FATAL record (or a glog E/F line)
  std::string text;     // the text, capped, for notes
};

// Where a hit is, to compare a line with.
struct PeerPos {
  uint32_t input = 0;
  uint64_t line = 0;
  std::optional<double> time;
};

// `unranked`, when given, receives the error lines no rank is known for (`error: data/part-3b.idx:
// index format v1 ...`), outside tracebacks: a path they name may tie them to a rank (path_owner).
std::vector<PeerLine> collect_peer_lines(const Diagnoser::State& st, std::vector<PeerLine>* unranked = nullptr);

struct PeerFinding {
  int rank = -1;
  std::string why;    // a sentence for the findings
  std::string chain;  // what the rank did, for the causal chain
};

// The rank of a host, pod or container whose prefixed lines name one rank and only one (`[pod/
// job-worker-0/pytorch] world_size=3 rank=1`): one process per node.
std::optional<PeerFinding> node_rank(const std::vector<PeerLine>& lines, const std::string& node);

// One rank, and only one, logged an error record before `first` (the earliest symptom).
std::optional<PeerFinding> lone_error_record(const std::vector<PeerLine>& lines, const PeerPos& first);

// A line in which a process says it is leaving: `training done`, `early stopping ...`, `exiting`.
bool says_leaving(std::string_view text);

// One rank, and only one, said it was leaving (`early stopping ..., shutting down`, `exiting`)
// before `first`, the earliest symptom of a lost peer: it left the collectives the others were in.
std::optional<PeerFinding> lone_departure(const std::vector<PeerLine>& lines, const PeerPos& first);

// A path the failure's message names (`Permission denied: '/ckpt/checkpoint-4.pt'`) that one rank,
// and only one, named in its own lines (`INFO:rank0:saving checkpoint to /ckpt/checkpoint-4.pt`),
// itself, a directory of it, or the same path with another extension (`part-3b.idx` beside the
// rank's `part-3b.bin`): that rank was working on it.
std::optional<PeerFinding> path_owner(const std::vector<PeerLine>& lines, std::string_view message);

// The failing path ends in a number (`data/frames/part-00005.npy`) and one rank, and only one,
// said it was taking that piece (`rank 2 epoch 1: loading shard 5`): a shard, part, chunk, file,
// split, partition, segment, piece or block with the same number, leading zeros aside.
std::optional<PeerFinding> numbered_owner(const std::vector<PeerLine>& lines, std::string_view message);

// One rank, and only one, logged a non-finite number (`nan`, `inf`) in its healthy lines
// (`feature range [-3.81, inf]`, `loss nan`): its data or its numbers went bad first.
std::optional<PeerFinding> lone_nonfinite(const std::vector<PeerLine>& lines);

// One rank's output stopped first: every other rank logged a line after its last one, the same
// line (text and numbers) for all of them, that it never logged (`step 16 ...`).
std::optional<PeerFinding> went_quiet_first(const std::vector<PeerLine>& lines);

// One rank reported a number the others all share differently, in a line each rank printed once
// (`rank 1: 9 batches in shard` where the others have 12).
std::optional<PeerFinding> odd_report(const std::vector<PeerLine>& lines);

// Peers timed out waiting, and one rank that did not time out went on logging after the first
// timeout (`first`): it was busy elsewhere while they waited.
std::optional<PeerFinding> alive_after(const std::vector<PeerLine>& lines, const PeerPos& first,
                                       const std::set<int>& timed_out);

// Peers timed out waiting, and of the ranks that did not time out one, and only one, was last seen
// doing something else: every other rank's last line before the first error (`first`) has one
// shape (`step 2 rank R`), its own another (`step 2 rank 1: writing an eval sample to slow
// storage`). It was still in that work while they waited. Needs three ranks or more.
std::optional<PeerFinding> stuck_elsewhere(const std::vector<PeerLine>& lines, const PeerPos& first,
                                           const std::set<int>& timed_out);

// An error of no rank (`error`, where its traceback starts): of three or more ranks, the one whose
// last line before it is unlike the last line every other rank shares (`VAL rank0 step 15 val
// pairwise_acc 0.418` against `INFO rankR step 10 pair_loss 0.7175`) was doing other work then.
std::optional<PeerFinding> busy_elsewhere(const std::vector<PeerLine>& lines, const PeerPos& error);

// A process id a report names alone (bash's `line 24: 26434 Killed`, a launcher's `worker 26434
// exited with status 137`) that the lines of one rank, and only one, name as a number of their own
// (a launcher's `started worker 26434 (rank 3/4)`): that rank's process.
std::optional<PeerFinding> pid_owner(const std::vector<PeerLine>& lines, int pid);

// A traceback of no rank (from `traceback_line` to its exception line, `exception_line`) in an
// input holding the lines of two ranks or more (a node's file, one interleaved stream): a rank
// whose own healthy lines go on after it was still running, so when exactly one rank that logged
// before it logged nothing after it, the traceback is that rank's. A peer's own error after it
// says nothing: it may be failing in turn.
std::optional<PeerFinding> silent_after_traceback(const std::vector<PeerLine>& lines, uint32_t input,
                                                  uint64_t traceback_line, uint64_t exception_line);

}  // namespace denpex::logs
