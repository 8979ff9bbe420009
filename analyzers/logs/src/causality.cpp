// Which fault started it: line winners -> initiator candidates -> the earliest initiating fault,
// with torchrun's root-cause rank as strong evidence; a hang is traced to the rank that never
// reached the collective the others timed out on.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "denpex/logs/evidence.h"
#include "code_path.h"
#include "device_rank.h"
#include "diagnoser_state.h"
#include "exit_reports.h"
#include "node_ranks.h"
#include "odd_one_out.h"
#include "path_rank.h"
#include "peer_lines.h"

namespace denpex::logs {
namespace {

constexpr size_t kMaxNotes = 5;  // known messages listed for a run without a failure

struct Cand {
  Hit hit;
  const core::Entry* entry = nullptr;
  const SourceInfo* source = nullptr;
  HitMeta meta;
  std::vector<const core::Entry*> same_line_rivals;
};

// A table entry that is only `Signal 9 (SIGKILL) received by PID N` names a worker the agent found
// killed, stamped when the agent noticed it (the peers' error files carry their own, earlier,
// time): within the agent's monitor interval of the first failure it may well be the first. Once
// the agent is stopping workers itself (it sent SIGTERM, or an entry shows one), or much later, a
// SIGKILL is the agent's escalation after the grace period: collateral.
static bool signal_entry_initiates(const EventTracker& ev, uint64_t line) {
  int rank = -1;
  bool signal_line = false;
  for (const auto& t : ev.table_tracebacks())
    if (line >= t.first_line && line <= t.last_line) {
      signal_line = t.last_text.starts_with("Signal ");
      rank = t.rank;
    }
  if (!signal_line) return true;
  if (!ev.sigterm_pids().empty()) return false;
  constexpr double kMonitorWindow = 5;  // torchrun's default --monitor_interval, in seconds
  // `Signal 6 (SIGABRT)`, without its `received by PID N`.
  auto signal_of = [](const std::string& s) { return s.substr(0, s.find(" received")); };
  std::string first, own, own_signal;
  for (const auto* list : {&ev.root_causes(), &ev.other_failures()})
    for (const auto& f : *list)
      if (f.rank == rank && !f.signal.empty()) own_signal = signal_of(f.signal);
  int same_signal = 0;
  for (const auto* list : {&ev.root_causes(), &ev.other_failures()})
    for (const auto& f : *list) {
      if (f.signal.find("SIGTERM") != std::string::npos) return false;
      if (first.empty() || f.time < first) first = f.time;
      if (f.rank == rank && !f.signal.empty()) own = f.time;
      if (!own_signal.empty() && signal_of(f.signal) == own_signal) ++same_signal;
    }
  // Several workers died of the same signal (every rank aborting on one NCCL error): the table
  // does not say whose came first.
  if (same_signal > 1) return false;
  const auto a = parse_timestamp(first), b = parse_timestamp(own);
  return a && b && *b - *a <= kMonitorWindow;
}

// The local rank an agent's failure table leaves out when it lists all of its node's other
// workers (root cause and `Failures:`, local ranks 0..W-1 but one, one SIGTERM for the rest);
// -1 when the table is absent or leaves out none or several.
int unlisted_worker(const EventTracker& ev) {
  if (ev.root_causes().empty()) return -1;
  std::set<int> listed;
  for (const auto& f : ev.other_failures()) listed.insert(f.local_rank);
  listed.insert(ev.root_causes().back().local_rank);
  if (listed.count(-1)) return -1;
  const int workers = static_cast<int>(listed.size() + ev.sigterm_pids().size());
  if (ev.sigterm_pids().size() != 1 || *listed.rbegin() >= workers) return -1;
  for (int r = 0; r < workers; ++r)
    if (!listed.count(r)) return r;
  return -1;
}

// A root cause deduced from the entry numbers of a summary cut off before it (RootCause::inferred).
std::string cut_table_note(const RootCause& rc) {
  return "torchrun's failure summary is cut off before its root-cause entry, but its Failures: list leaves out entry [" +
         std::to_string(rc.index) + "], which by torchrun's numbering is local rank " + std::to_string(rc.local_rank) +
         ": rank " + std::to_string(rc.rank) + " is taken as the first observed failure (inferred)";
}

std::string rank_str(int rank) { return rank >= 0 ? "rank " + std::to_string(rank) : "an unranked process"; }
// Its rank, else the host whose prefix its lines carry.
std::string source_str(const SourceInfo& s) {
  return s.rank >= 0 || s.node.empty() ? rank_str(s.rank) : "a process on " + s.node;
}

// The rank whose process `pid` was: a line naming both (pid_rank), else the one rank whose own
// lines name the number (pid_owner).
std::optional<PeerFinding> rank_of_pid(const Diagnoser::State& st, int pid) {
  if (pid <= 0) return std::nullopt;
  if (auto owner = st.pid_rank.find(pid); owner != st.pid_rank.end())
    return PeerFinding{owner->second, "Process " + std::to_string(pid) + " is rank " + std::to_string(owner->second) +
                                          " by the log's own lines (a rank and a pid on one line, or NCCL's host:pid prefix).",
                       ""};
  return pid_owner(collect_peer_lines(st), pid);
}

std::string at(const Diagnoser::State& st, const Cand& c) {
  const InputState& in = st.inputs[c.source->input];
  return in.summary.file + ":" + std::to_string(shown_line(in, c.hit.line));
}

double clamp(double v) { return std::max(0.05, std::min(0.99, v)); }
double round2(double v) { return static_cast<double>(static_cast<int>(v * 100 + 0.5)) / 100.0; }

std::string join_ranks(const std::vector<int>& ranks) {
  std::string s;
  for (size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s;
}

// The entry that stands for an exception no other entry knows (tag `fallback`): it may name the
// initiating rank, but only when no known initiating fault was found.
bool is_fallback(const core::Entry* e) { return e->has_tag("fallback"); }
// A run stopped from outside while healthy (Ctrl-C, scancel): not a failure of the code.
bool is_cancellation(const core::Entry* e) { return e->has_tag("cancellation"); }
bool is_serious(const core::Entry* e) {
  return e->severity == core::Severity::Fatal || e->severity == core::Severity::Error;
}
// A peer that gave up waiting (a collective, store or watchdog timeout): a symptom of whoever it
// waited for.
bool is_timeout(const core::Entry* e) { return e->id.find("timeout") != std::string::npos; }

std::string base_name(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Lower-case words of 4+ letters, for a rough likeness between an unknown message and entries.
std::set<std::string> words(std::string_view text) {
  std::set<std::string> out;
  std::string w;
  auto flush = [&] {
    if (w.size() >= 4) out.insert(w);
    w.clear();
  };
  for (char c : text) {
    if (std::isalpha(static_cast<unsigned char>(c))) w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else flush();
  }
  flush();
  return out;
}

// The failure a torchrun table stands for: its root cause, unless other failures (`others`) are
// stamped with the same second. torchrun then names the first it lists (the lowest rank), so how
// each ended is the evidence: the one that ended differently (`exitcode: -9` among 1s); all alike,
// none (nullptr). The note says why, empty when the root cause stands untied.
std::pair<const RootCause*, std::string> table_pick(const RootCause& root, const std::vector<const RootCause*>& others) {
  if (!root.has_exitcode || root.time.empty()) return {&root, ""};
  std::vector<WorkerExit> exits{{root.rank, "", root.exitcode}};
  std::vector<const RootCause*> tied{&root};
  std::set<int> seen{root.rank};
  for (const RootCause* f : others)
    if (f->has_exitcode && f->time == root.time && seen.insert(f->rank).second) {
      exits.push_back({f->rank, "", f->exitcode});
      tied.push_back(f);
    }
  if (tied.size() == 1) return {&root, ""};
  const auto odd = odd_exit(exits);
  if (!odd)
    return {nullptr, "torchrun's root cause, rank " + std::to_string(root.rank) + ", is one of " + std::to_string(tied.size()) +
                         " failures it stamps with the same second (" + root.time + "), all ending " +
                         exit_outcome(exits.front()) + ": on a tie it names the first it lists, so the table does not say "
                         "which rank failed first."};
  if (odd->worker == root.rank) return {&root, ""};
  const RootCause* differs = *std::find_if(tied.begin(), tied.end(), [&](const RootCause* f) { return f->rank == odd->worker; });
  return {differs, "torchrun's root cause, rank " + std::to_string(root.rank) + ", failed in the same second (" + root.time +
                       ") as the others it lists, where it names the first; rank " + std::to_string(differs->rank) + " " +
                       odd->how + (odd->others.empty() ? "" : " while " + odd->others) + ", so it is taken as the first failure."};
}

}  // namespace

Report build_report(const Matcher& matcher, Diagnoser::State& st, std::vector<Hit> hits) {
  Report report;
  for (const auto& in : st.inputs) {
    report.inputs.push_back(in.summary);
    report.total_lines += in.summary.lines;
    report.total_bytes += in.summary.bytes;
  }
  report.first_error_line = st.first_error_line;

  // Events: the last exception of the log and torchrun's root cause.
  std::pair<uint32_t, uint64_t> last_key{0, 0};
  const SourceInfo* root_source = nullptr;
  for (const auto& s : st.sources) {
    const std::string& file = st.inputs[s.input].summary.file;
    for (const auto& ex : s.events.exceptions()) {
      auto key = std::make_pair(s.input, ex.line);
      if (!report.final_exception || key > last_key) {
        report.final_exception = FinalException{{file, ex.line}, s.rank, ex};
        last_key = key;
      }
    }
    // One summary per node agent on a multi-node job: the earliest failure time is the root cause
    // of the job (torchrun's `2024-05-01_12:34:56` sorts as text); else the first printed.
    for (const auto& rc : s.events.root_causes())
      if (!report.root_cause ||
          (!rc.time.empty() && !report.root_cause->cause.time.empty() && rc.time < report.root_cause->cause.time)) {
        report.root_cause = RootCauseRef{{file, rc.line}, rc};
        root_source = &s;
      }
  }
  // The failure torchrun's table stands for (see table_pick); every node's agent prints a table,
  // so another node's root cause in the same second ties too.
  const RootCause* root_failure = nullptr;
  std::string root_tie_note;
  if (report.root_cause) {
    std::vector<const RootCause*> others;
    for (const auto& f : root_source->events.other_failures()) others.push_back(&f);
    for (const auto& s : st.sources)
      for (const auto& f : s.events.root_causes()) others.push_back(&f);
    std::tie(root_failure, root_tie_note) = table_pick(report.root_cause->cause, others);
  }
  const int root_rank = root_failure ? root_failure->rank : -1;

  // One winner per (source, line): the most confident entry; the others are its rivals.
  std::map<std::pair<uint32_t, uint64_t>, Cand> winners;
  for (auto& h : hits) {
    const core::Entry* e = &matcher.entries()[h.entry];
    auto key = std::make_pair(h.source, h.line);
    auto it = winners.find(key);
    if (it == winners.end()) {
      Cand c;
      c.entry = e;
      c.source = &st.sources[h.source];
      if (auto m = st.meta.find(key); m != st.meta.end()) c.meta = m->second;
      c.hit = std::move(h);
      winners.emplace(key, std::move(c));
      continue;
    }
    Cand& w = it->second;
    // The fallback for unknown exceptions only stands in for a line no entry knows: a known
    // entry on the same line replaces it outright (no rival, no merged captures).
    if (is_fallback(e)) continue;
    if (is_fallback(w.entry)) {
      w.entry = e;
      w.hit = std::move(h);
      continue;
    }
    // Rival entries on the same line often capture different fields of it: keep them all.
    Captures merged = w.hit.captures;
    for (const auto& [k, v] : h.captures) merged.emplace(k, v);
    const core::Entry* loser = e;
    if (h.confidence > w.hit.confidence) {
      loser = w.entry;
      w.entry = e;
      w.hit = std::move(h);
    }
    w.hit.captures = std::move(merged);
    if (loser != w.entry && std::find(w.same_line_rivals.begin(), w.same_line_rivals.end(), loser) == w.same_line_rivals.end())
      w.same_line_rivals.push_back(loser);
  }
  std::vector<Cand> all;
  for (auto& [k, c] : winners) all.push_back(std::move(c));
  bool all_timed = !all.empty();
  for (const auto& c : all) all_timed = all_timed && c.meta.time.has_value();
  auto earlier = [&](const Cand& a, const Cand& b) {
    if (all_timed && *a.meta.time != *b.meta.time) return *a.meta.time < *b.meta.time;
    return a.meta.order < b.meta.order;
  };
  std::sort(all.begin(), all.end(), earlier);

  // A source whose first serious hit is a collateral symptom lost a peer first: an unknown
  // exception it raises afterwards (while handling that, in cleanup) is not the initiator.
  std::map<const SourceInfo*, uint64_t> first_collateral;
  for (const auto& c : all)
    if (!c.entry->can_initiate() && is_serious(c.entry)) {
      auto [it, added] = first_collateral.try_emplace(c.source, c.hit.line);
      if (!added) it->second = std::min(it->second, c.hit.line);
    }
  // An unknown exception names the initiator in a cascade (some other rank shows a collateral
  // symptom) and in the output of a multi-rank job, where other ranks or hosts appear but this
  // one raised. A lone unknown exception of a single process stays undiagnosed (the report shows
  // it as the final exception), unless the launcher itself says it ended the job:
  // torch.multiprocessing's `-- Process N terminated with the following error:` above it.
  auto identified = [](const SourceInfo& s) { return s.rank >= 0 || !s.node.empty(); };
  auto has_peers = [&](const SourceInfo* self) {
    if (!identified(*self)) return false;
    return std::any_of(st.sources.begin(), st.sources.end(), [&](const SourceInfo& s) {
      return &s != self && identified(s) && (s.rank != self->rank || s.node != self->node);
    });
  };
  std::erase_if(all, [&](const Cand& c) {
    if (!is_fallback(c.entry)) return false;
    if (c.source->events.spawn_process_at(c.hit.line) >= 0) {
      // spawn's `ProcessRaisedException:` in the parent wraps the worker's own error, printed
      // below `-- Process N terminated with the following error:`: when an entry knows that one
      // (a collateral timeout, say), the wrapper is not a failure of its own.
      const ExceptionEvent* ex = c.source->events.exception_at(c.hit.line);
      const bool wrapper = ex && ex->type.ends_with("ProcessRaisedException");
      return wrapper && std::any_of(all.begin(), all.end(), [&](const Cand& o) {
               return o.source == c.source && !is_fallback(o.entry) && is_serious(o.entry) && o.hit.line > c.hit.line &&
                      o.hit.line <= c.hit.line + 60 &&
                      c.source->events.spawn_process_at(o.hit.line) == c.source->events.spawn_process_at(c.hit.line);
             });
    }
    auto fc = first_collateral.find(c.source);
    if (fc != first_collateral.end() && fc->second <= c.hit.line) return true;
    // A traceback the paste ends inside, printed by no rank in particular, may as well be one of
    // the ranks that reported a symptom: it is too little to outweigh their evidence.
    const ExceptionEvent* ex = c.source->events.exception_at(c.hit.line);
    if (ex && ex->cut_off && !identified(*c.source) && !first_collateral.empty()) return true;
    if (has_peers(c.source)) return false;
    // One stream of several processes that print no rank (`python job.py 2>&1 | tee`): an
    // exception that ended before another traceback's collateral symptom in the same stream is
    // a peer's failure that the symptom followed, not this process's own aftermath.
    if (!identified(*c.source) && fc != first_collateral.end() && ex && !ex->cut_off &&
        c.source->events.exceptions().size() >= 2)
      return false;
    return std::none_of(first_collateral.begin(), first_collateral.end(),
                        [&](const auto& kv) { return kv.first != c.source; });
  });
  // A timeout cascade, and the ranks that timed out: several rules below read them.
  const bool any_timeout = std::any_of(all.begin(), all.end(), [](const Cand& c) { return is_timeout(c.entry); });
  std::set<int> timed_out_ranks;
  for (const auto& c : all) {
    if (!is_timeout(c.entry)) continue;
    // spawn's `-- Process N terminated with the following error:` names whose timeout it is.
    const int rank = c.source->rank >= 0 ? c.source->rank : c.source->events.spawn_process_at(c.hit.line);
    if (rank >= 0) timed_out_ranks.insert(rank);
  }
  std::vector<const Cand*> initiators;
  for (const auto& c : all)
    if (c.entry->can_initiate()) initiators.push_back(&c);
  auto rank_key = [&](const Cand* c) {
    // A warning that precedes a fatal error is usually context, not the failure; an exception no
    // entry knows ranks like an `either` entry: after faults that always initiate, else by time.
    return std::make_tuple(is_serious(c->entry) ? 0 : 1,
                           c->entry->role == core::Role::Initiator && !is_fallback(c->entry) ? 0 : 1,
                           root_rank >= 0 && c->source->rank == root_rank ? 0 : 1);
  };
  // One failure often prints a generic wrapper line first and the specific cause a few lines
  // later in the same message (`BackendCompilerFailed ... raised:` then `InvalidCxxCompiler`,
  // `Error(s) in loading state_dict` then `size mismatch for ...`). A candidate is superseded by
  // a later one of the same rank, the same seriousness and role, within kSameMessage lines, that
  // is more specific (more confident): the earlier line is the wrapper, not another failure.
  constexpr uint64_t kSameMessage = 30;
  std::vector<const Cand*> kept;
  for (const Cand* c : initiators) {
    bool superseded = false;
    for (const Cand* later : initiators)
      superseded = superseded || (later->source == c->source && later->hit.line > c->hit.line &&
                                  later->hit.line - c->hit.line <= kSameMessage &&
                                  later->hit.confidence > c->hit.confidence && rank_key(later) == rank_key(c));
    if (!superseded) kept.push_back(c);
  }
  initiators.swap(kept);
  // A job that Slurm requeued or preempted and that ran again (`--requeue --open-mode=append`:
  // one output file, several attempts) did not end there: a later end line of the same job
  // (`CANCELLED AT` at another time, a time limit) or a later known failure of the same output
  // ended it, and the earlier attempt's stop is history. (An unknown exception after the stop
  // may be the stop's own aftermath, a signal handler raising: it does not count.)
  auto job_of = [](const Cand& c) {
    const auto j = c.hit.captures.find("job_id");
    return j == c.hit.captures.end() ? std::string() : j->second.substr(0, j->second.find('.'));
  };
  auto time_of = [](const Cand& c) {
    const auto t = c.hit.captures.find("time");
    return t == c.hit.captures.end() ? std::string() : t->second;
  };
  std::erase_if(initiators, [&](const Cand* c) {
    if (!c->entry->has_tag("requeue") || job_of(*c).empty()) return false;
    return std::any_of(all.begin(), all.end(), [&](const Cand& later) {
      if (later.source->input != c->source->input || later.hit.line <= c->hit.line) return false;
      if (!job_of(later).empty()) return job_of(later) == job_of(*c) && time_of(later) != time_of(*c);
      return is_serious(later.entry) && later.entry->role == core::Role::Initiator && !is_fallback(later.entry) &&
             !later.entry->has_tag("slurm");
    });
  });
  std::stable_sort(initiators.begin(), initiators.end(),
                   [&](const Cand* a, const Cand* b) { return rank_key(a) < rank_key(b); });

  if (all.empty()) return report;
  // Info entries explain messages healthy runs print too (deprecation notices, a skipped fp16
  // step, a graph break): on their own they are not a failure, so no diagnosis is made. Except
  // the agent's SIGTERMs with one worker left out of the run of pids: the agent signals the
  // survivors only once a worker has failed, so the gap is a failure (found in rule 4 below).
  const bool sigterm_gap = std::any_of(st.sources.begin(), st.sources.end(), [](const SourceInfo& s) {
    return missing_worker_index(s.events.sigterm_pids()) >= 0;
  });
  // No failure: the known messages of the run, cancellations first, each entry once, earliest line.
  auto without_failure = [&]() -> Report& {
    std::vector<const Cand*> quiet;
    for (const auto& c : all)
      // A requeue here is one the job ran again after (dropped from the initiators above).
      if (is_cancellation(c.entry) || c.entry->has_tag("requeue") || c.entry->severity == core::Severity::Info)
        quiet.push_back(&c);
    std::stable_sort(quiet.begin(), quiet.end(), [](const Cand* a, const Cand* b) {
      return is_cancellation(a->entry) > is_cancellation(b->entry);
    });
    std::set<const core::Entry*> seen;
    for (const Cand* c : quiet) {
      if (report.notes.size() == kMaxNotes) break;
      if (!seen.insert(c->entry).second) continue;
      const InputState& in = st.inputs[c->source->input];
      report.notes.push_back(
          Note{c->entry, c->source->rank, {in.summary.file, shown_line(in, c->hit.line)}, c->hit.text});
    }
    return report;
  };
  if (!sigterm_gap &&
      std::all_of(all.begin(), all.end(), [](const Cand& c) { return c.entry->severity == core::Severity::Info; }))
    return without_failure();
  // A run cancelled from outside (Ctrl-C, scancel) is not a failure of the code: unless some rank
  // failed with an error of its own, there is no failure to diagnose.
  const bool serious_initiator =
      std::any_of(initiators.begin(), initiators.end(), [](const Cand* c) { return is_serious(c->entry); });
  // But one rank interrupted alone (SIGINT to one worker's pid, a stray Ctrl-C in a debugger)
  // while another source reports losing a peer: that rank's interrupt ended the job. A scheduler's
  // `CANCELLED AT` (it captures `job_id`) stops the whole job, never one rank.
  // A cancellation that srun prints after reporting a task that died by itself (`task 0:
  // Segmentation fault`, `Exited with exit code 1`) is srun tearing the step down for that task
  // (`Terminating job step`, then `STEP ... CANCELLED`), not a stop from outside. Tasks srun
  // itself stopped are listed `Terminated`, and a real scancel prints its line before them.
  auto teardown_after_failure = [&](const Cand& cancel) {
    return std::any_of(all.begin(), all.end(), [&](const Cand& f) {
      const auto fr = f.hit.captures.find("failed_rank");
      const auto sig = f.hit.captures.find("signal");
      return fr != f.hit.captures.end() && !fr->second.empty() &&
             f.source->input == cancel.source->input && f.meta.order < cancel.meta.order &&
             (sig == f.hit.captures.end() || sig->second != "Terminated");
    });
  };
  std::vector<const Cand*> cancels;
  for (const auto& c : all)
    if (is_cancellation(c.entry) && !teardown_after_failure(c)) cancels.push_back(&c);
  const Cand* lone_interrupt =
      !serious_initiator && cancels.size() == 1 && cancels[0]->source->rank >= 0 &&
              !cancels[0]->hit.captures.contains("job_id") &&
              std::any_of(first_collateral.begin(), first_collateral.end(),
                          [&](const auto& kv) { return kv.first != cancels[0]->source; })
          ? cancels[0]
          : nullptr;
  if (!serious_initiator && !cancels.empty() && !lone_interrupt) return without_failure();

  // A launcher's summary that names the failed process by its global rank (`failed_rank`):
  // mpirun's "first process to do so", `mpirun noticed that process rank N ... exited on signal`.
  auto launcher_failed = [&]() -> const Cand* {
    for (const auto& c : all)
      if (auto fr = c.hit.captures.find("failed_rank"); fr != c.hit.captures.end() && !fr->second.empty()) return &c;
    return nullptr;
  };
  auto launcher_names = [&](const Cand& c) {
    return "The launcher names rank " + c.hit.captures.at("failed_rank") + " as the process that ended the job (" +
           at(st, c) + ", " + c.entry->id + ")";
  };
  Diagnosis d;
  const Cand* primary = nullptr;
  std::vector<std::string> hang_notes;
  std::string hang_start;  // the first link of the chain when a hang was traced to a rank
  // Fatal beats noisy: a warning candidate names the failure only when no rank reported a serious
  // symptom; otherwise the symptoms are traced to their source below and warnings stay secondary.
  if (lone_interrupt) {
    std::erase(initiators, lone_interrupt);
    initiators.insert(initiators.begin(), lone_interrupt);
  }
  const bool from_initiator =
      !initiators.empty() && (serious_initiator || first_collateral.empty() || lone_interrupt);
  if (!from_initiator) initiators.clear();
  if (from_initiator) {
    primary = initiators.front();
    d.confidence = primary->hit.confidence;
    // The fallback's fingerprint is weak, but the cascade around it is the evidence: the rank is
    // fairly sure, the cause is only what the traceback says.
    if (is_fallback(primary->entry)) d.confidence = 0.5;
    // Say which clock decided between ranks that both failed on their own.
    for (const Cand* c : initiators) {
      if (c == primary || c->source->rank == primary->source->rank || !is_serious(c->entry)) continue;
      auto stamp = [](double t) {
        char buf[32];
        long s = static_cast<long>(t) % 86400;
        std::snprintf(buf, sizeof buf, "%02ld:%02ld:%06.3f", s / 3600, s / 60 % 60, std::fmod(t, 60.0));
        return std::string(buf);
      };
      std::string how = all_timed && primary->meta.time && c->meta.time && *primary->meta.time != *c->meta.time
                            ? "by the logs' timestamps (" + stamp(*primary->meta.time) + " before " + stamp(*c->meta.time) + ")"
                            : "by position in the input (not every candidate has a timestamp)";
      const std::string first = primary->source->rank >= 0 || primary->source->node.empty()
                                    ? rank_str(primary->source->rank)
                                    : primary->source->node;
      hang_notes.push_back(source_str(*c->source) + " also reported " + c->entry->id + " (" + at(st, *c) + "), later: " +
                           first + " came first " + how + ".");
      break;
    }
    if (root_rank >= 0 && primary->source->rank == root_rank) d.confidence += 0.1;
    if (root_rank >= 0 && primary->source->rank >= 0 && primary->source->rank != root_rank) d.confidence -= 0.1;
  } else {
    // Only collateral: look for the rank that never reached the collective (a hang), else report
    // the earliest symptom with low confidence and say the initiator is not in these logs.
    // The most specific symptom names the failure best (a watchdog timeout rather than the
    // teardown lines printed around it); among equals, the earliest.
    primary = nullptr;
    for (const auto& c : all)
      if (!c.entry->can_initiate() &&
          (!primary || std::make_pair(is_serious(c.entry), c.hit.confidence) >
                           std::make_pair(is_serious(primary->entry), primary->hit.confidence)))
        primary = &c;
    if (!primary) primary = &all.front();
    d.confidence = primary->hit.confidence * 0.5;
    std::map<int, uint64_t> seq_of, completed_of;
    for (const auto& c : all) {
      if (c.source->rank < 0) continue;
      const auto& cap = c.hit.captures;
      if (auto s = cap.find("seq"); s != cap.end()) {
        uint64_t v = std::strtoull(s->second.c_str(), nullptr, 10);
        auto [it, added] = seq_of.try_emplace(c.source->rank, v);
        if (!added) it->second = std::min(it->second, v);
      }
      if (auto s = cap.find("last_completed"); s != cap.end())
        completed_of[c.source->rank] = std::strtoull(s->second.c_str(), nullptr, 10);
    }
    std::set<int> known;
    for (const auto& s : st.sources)
      if (s.rank >= 0) known.insert(s.rank);
    // A rank's own file that printed only healthy lines has no source yet: it exists all the same.
    for (const auto& in : st.inputs)
      if (in.file_attr.rank >= 0 && in.summary.lines > 0) known.insert(in.file_attr.rank);
    // A paste that ends inside a rank's own copy of the timeout (`... [Rank 4] Watchdog caught
    // collective operation timeout: WorkNCCL(SeqNum=4, OpType=BROADCAST, NumelIn=112, NumelO`):
    // that rank logged it too, the excerpt just stops there.
    auto cut_inside_timeout = [&](int r) {
      std::string mine, theirs;
      for (const auto& in : st.inputs) {
        std::string_view tail = in.tail;
        while (!tail.empty() && tail.back() == '\n') tail.remove_suffix(1);
        const std::string_view last = tail.substr(tail.rfind('\n') == std::string_view::npos ? 0 : tail.rfind('\n') + 1);
        const Attribution a = attribute_line(last);
        if (a.rank != r || last.size() - a.strip < 40) continue;
        Matcher::mask_digits(a.body(last), &mine);
        for (const auto& c : all) {
          if (c.source->rank < 0 || !c.hit.captures.count("seq")) continue;
          Matcher::mask_digits(c.hit.text, &theirs);
          if (theirs.size() > mine.size() && theirs.compare(0, mine.size(), mine) == 0) return true;
        }
      }
      return false;
    };
    std::vector<int> silent;
    for (int r : known)
      if (!seq_of.count(r) && !cut_inside_timeout(r)) silent.push_back(r);
    int hung = -1;
    if (seq_of.size() >= 2 && !silent.empty()) {
      hung = silent.front();
      uint64_t seq = seq_of.begin()->second;
      hang_notes.push_back("Ranks " + join_ranks(std::vector<int>(known.begin(), known.end())) + " appear in the log; " +
                           std::to_string(seq_of.size()) + " timed out on a collective (SeqNum " + std::to_string(seq) +
                           ") and rank" + (silent.size() > 1 ? "s " : " ") + join_ranks(silent) +
                           " never logged it: the hang started there.");
      hang_start = "rank " + std::to_string(hung) + ": never reached collective SeqNum " + std::to_string(seq) +
                   " that the other ranks waited in; its last lines in the log show where it stopped";
    } else if (seq_of.size() >= 2 && std::all_of(seq_of.begin(), seq_of.end(), [&](const auto& kv) {
                 return kv.second == seq_of.begin()->second;
               })) {
      // Every rank in the logs timed out on the same collective, and exactly one rank number
      // below the highest never appears: that rank did not reach it (ranks run from 0; the world
      // may be larger than the highest rank seen, so this is said as an inference).
      std::vector<int> missing;
      for (int r = 0; r <= *known.rbegin() && missing.size() < 2; ++r)
        if (!known.count(r)) missing.push_back(r);
      if (missing.size() == 1) {
        hung = missing.front();
        const uint64_t seq = seq_of.begin()->second;
        hang_notes.push_back("Ranks " + join_ranks(std::vector<int>(known.begin(), known.end())) +
                             " all timed out on collective SeqNum " + std::to_string(seq) + "; rank " + std::to_string(hung) +
                             " never appears in these logs: it is the one that did not reach it (an inference from the "
                             "rank numbers; its own log would confirm it).");
        hang_start = "rank " + std::to_string(hung) + ": did not reach collective SeqNum " + std::to_string(seq) +
                     " (absent from the logs while ranks " + join_ranks(std::vector<int>(known.begin(), known.end())) +
                     " waited in it)";
      }
    } else if (completed_of.size() >= 2) {
      auto low = std::min_element(completed_of.begin(), completed_of.end(),
                                  [](const auto& a, const auto& b) { return a.second < b.second; });
      auto high = std::max_element(completed_of.begin(), completed_of.end(),
                                   [](const auto& a, const auto& b) { return a.second < b.second; });
      if (low->second < high->second) {
        hung = low->first;
        hang_notes.push_back("Rank " + std::to_string(hung) + " completed collectives only up to SeqNum " +
                             std::to_string(low->second) + " while others reached " + std::to_string(high->second) +
                             ": it fell behind first.");
        hang_start = "rank " + std::to_string(hung) + ": stopped completing collectives after SeqNum " +
                     std::to_string(low->second) + " while the others went on to " + std::to_string(high->second);
      }
    } else if (seq_of.size() >= 2) {
      auto low = std::min_element(seq_of.begin(), seq_of.end(),
                                  [](const auto& a, const auto& b) { return a.second < b.second; });
      auto high = std::max_element(seq_of.begin(), seq_of.end(),
                                   [](const auto& a, const auto& b) { return a.second < b.second; });
      if (low->second < high->second) {
        hung = low->first;
        hang_notes.push_back("Rank " + std::to_string(hung) + " timed out on SeqNum " + std::to_string(low->second) +
                             " while others waited in SeqNum " + std::to_string(high->second) +
                             ": the ranks are desynchronized and it is the one behind.");
        hang_start = "rank " + std::to_string(hung) + ": fell behind at SeqNum " + std::to_string(low->second) +
                     " while the others waited in SeqNum " + std::to_string(high->second);
      }
    }
    // The launcher saw which process exited first: better evidence than which rank was quiet,
    // unless that process's own error was a timeout. Then it exited first because it gave up
    // first, and the rank it waited for is found below as any other hang's.
    const Cand* launcher_first = launcher_failed();
    auto apply_launcher = [&](const Cand* c) {
      hung = std::atoi(c->hit.captures.at("failed_rank").c_str());
      hang_notes.push_back(launcher_names(*c) + "; the other ranks' errors followed it.");
      hang_start = "rank " + std::to_string(hung) + ": exited first, as the launcher reports";
    };
    const Cand* launcher_deferred = nullptr;
    if (hung < 0 && launcher_first) {
      const int named = std::atoi(launcher_first->hit.captures.at("failed_rank").c_str());
      bool timed_out = false, other = false;
      for (const auto& c : all)
        if (c.source->rank == named && is_serious(c.entry))
          (is_timeout(c.entry) ? timed_out : other) = true;
      if (timed_out && !other)
        launcher_deferred = launcher_first;
      else
        apply_launcher(launcher_first);
    }
    if (hung < 0) {
      // A peer that names the faulty rank (`Rank 1 failed to pass monitoredBarrier`, `... from
      // rank 0. Please check rank 0 logs for faulty rank.`): the first one named.
      // The named rank may itself name another (`from rank 0. Please check rank 0 logs for
      // faulty rank`, then rank 0's own `Rank 3 failed to pass monitoredBarrier`): follow the
      // names to a rank that names nobody.
      auto named = [](const Cand& c) {  // the rank a message names as faulty, or -1
        const auto& cap = c.hit.captures;
        auto f = cap.find("faulty_rank");
        if (f == cap.end()) f = cap.find("faulty_ranks");
        return f == cap.end() || f->second.empty() ? -1 : std::atoi(f->second.c_str());
      };
      std::map<int, int> names;  // rank -> the rank its own message names
      for (const auto& c : all)
        if (c.source->rank >= 0 && named(c) >= 0) names.try_emplace(c.source->rank, named(c));
      for (const auto& c : all) {
        const int first_named = named(c);
        if (first_named < 0) continue;
        hung = first_named;
        for (size_t hops = 0; hops < names.size(); ++hops) {
          auto next = names.find(hung);
          if (next == names.end() || next->second == hung) break;
          hung = next->second;
        }
        // A peer that went away (its connection dropped) or one that did not answer in time.
        const bool went_away = c.entry->has_tag("peer-exit");
        std::string who = rank_str(c.source->rank);
        who[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(who[0])));
        hang_notes.push_back(who + " names rank " + std::to_string(first_named) +
                             (went_away ? " as the peer whose connection it lost (" : " as the rank that did not answer (") +
                             at(st, c) + ")" +
                             (hung == first_named ? ": read that rank's log."
                                                  : "; rank " + std::to_string(first_named) + "'s own error names rank " +
                                                        std::to_string(hung) + " in turn: read that rank's log."));
        hang_start = "rank " + std::to_string(hung) + (went_away ? ": went away first; " : ": fell behind; ") +
                     (c.source->rank >= 0 ? rank_str(c.source->rank) : std::string("its peers")) +
                     (went_away ? " lost it, as " : " waited for it, as ") + c.entry->id + " reports";
        break;
      }
    }
    if (hung < 0) {
      // A silent death or a silent hang: the ranks that reported a symptom lost a peer or timed
      // out waiting for one, and exactly one rank that appears in the logs reported nothing.
      std::set<int> failed;
      bool timeouts = false;
      for (const auto& c : all)
        if (c.source->rank >= 0 && is_serious(c.entry)) {
          failed.insert(c.source->rank);
          timeouts = timeouts || is_timeout(c.entry);
        }
      std::vector<int> quiet;
      for (int r : known)
        if (!failed.count(r)) quiet.push_back(r);
      // Several quiet ranks with files of their own: the one whose log stopped first (its last
      // timestamp at least a second before every other quiet rank's) is where progress stopped.
      if (quiet.size() > 1 && !failed.empty()) {
        std::map<int, double> last_time;
        for (const auto& in : st.inputs) {
          if (in.file_attr.rank < 0) continue;
          // Healthy lines are screened out unread: take the last stamp from the kept tail.
          std::string_view tail = in.tail;
          for (int n = 0; n < 50 && !tail.empty(); ++n) {
            while (!tail.empty() && tail.back() == '\n') tail.remove_suffix(1);
            size_t nl = tail.rfind('\n');
            std::string_view line = tail.substr(nl == std::string_view::npos ? 0 : nl + 1);
            if (auto t = parse_timestamp(line)) {
              last_time[in.file_attr.rank] = *t;
              break;
            }
            tail = nl == std::string_view::npos ? std::string_view() : tail.substr(0, nl);
          }
        }
        bool all_timed_quiet = std::all_of(quiet.begin(), quiet.end(), [&](int r) { return last_time.count(r) > 0; });
        if (all_timed_quiet) {
          int first = quiet.front();
          for (int r : quiet)
            if (last_time[r] < last_time[first]) first = r;
          bool clear = std::all_of(quiet.begin(), quiet.end(),
                                   [&](int r) { return r == first || last_time[r] - last_time[first] >= 1.0; });
          if (clear) {
            hang_notes.push_back("Ranks " + join_ranks(quiet) + " reported no error; rank " + std::to_string(first) +
                                 "'s log stopped first (by its own timestamps, at least a second before the others).");
            quiet = {first};
          }
        }
      }
      if (quiet.size() == 1 && failed.size() >= 1) {
        hung = quiet.front();
        std::string last;
        for (const auto& in : st.inputs)
          if (in.file_attr.rank == hung) {
            std::string_view tail = in.tail;
            while (!tail.empty() && tail.back() == '\n') tail.remove_suffix(1);
            size_t nl = tail.rfind('\n');
            last = std::string(tail.substr(nl == std::string_view::npos ? 0 : nl + 1).substr(0, 200));
          }
        // One stream of every rank (a `[rankN]:` prefix on each line): its last line in the tail.
        for (const auto& in : st.inputs) {
          if (!last.empty()) break;
          if (in.file_attr.rank >= 0) continue;
          std::string_view tail = in.tail;
          while (!tail.empty()) {
            while (!tail.empty() && tail.back() == '\n') tail.remove_suffix(1);
            const size_t nl = tail.rfind('\n');
            const std::string_view line = tail.substr(nl == std::string_view::npos ? 0 : nl + 1);
            const Attribution a = attribute_line(line);
            if (a.rank == hung && !a.body(line).empty()) {
              last = std::string(a.body(line).substr(0, 200));
              break;
            }
            tail = nl == std::string_view::npos ? std::string_view() : tail.substr(0, nl);
          }
        }
        std::vector<int> others(failed.begin(), failed.end());
        const std::string what = timeouts ? "timed out waiting for a peer" : "lost the connection to a peer";
        // libstdc++'s last words for an exception nothing caught: the process aborted, not silently.
        const bool aborted = last.find("terminate called after throwing") != std::string::npos || last.find("  what():  ") != std::string::npos;
        const bool left = !aborted && !timeouts && says_leaving(last);
        hang_notes.push_back("Rank" + std::string(others.size() > 1 ? "s " : " ") + join_ranks(others) + " " + what +
                             "; rank " + std::to_string(hung) + (aborted ? " raised no Python error" : " reported no error at all") +
                             (last.empty() ? "" : " (its last line: `" + last + "`)") + ": " +
                             (aborted ? "a C++ exception that nothing caught aborted it (SIGABRT)."
                              : timeouts ? "its progress stopped first (a hang: a deadlock, a stuck collective, slow I/O)."
                              : left     ? "it left the job on its own while its peers were still in a collective (it "
                                           "ran out of data or steps before them: uneven shards or step counts)."
                                         : "it died without a word (SIGKILL, the OOM killer, a lost node)."));
        hang_notes.push_back(aborted ? "Collect: its core dump (`coredumpctl gdb`, then `bt`), or rerun with "
                                       "`python -X faulthandler` for the Python stack at the abort."
                             : timeouts ? "Collect: py-spy dump --pid <pid> of rank " + std::to_string(hung) +
                                            " while it hangs, or TORCH_DISTRIBUTED_DEBUG=DETAIL and the launcher's exit codes."
                             : left     ? "Check: the number of batches or steps each rank runs (its shard's size, drop_last, "
                                          "a DistributedSampler), and its exit code; give every rank the same count."
                                      : "Collect: `dmesg -T | grep -i -E 'killed process|oom'` on its node, `sacct -j <job> "
                                        "-o JobID,State,ExitCode,MaxRSS`, and the launcher's exit codes (-9 = SIGKILL).");
        hang_start = "rank " + std::to_string(hung) +
                     (aborted ? ": aborted" : timeouts ? ": stopped making progress" : left ? ": left the job early" : ": stopped without an error") +
                     (last.empty() ? "" : " after `" + last + "`") + (aborted ? "; the other ranks lost it" : "; the other ranks waited for it");
      }
      // The others timed out waiting, and one rank's only errors are a lost connection after
      // their timeouts: it was still busy (a stall in its own code) when they gave up and
      // exited, so it is the one they waited for.
      if (hung < 0 && timeouts && quiet.empty()) {
        std::map<int, const Cand*> timed_out, lost_after;  // rank -> its first such hit
        for (const auto& c : all) {
          if (c.source->rank < 0 || !is_serious(c.entry)) continue;
          auto& into = is_timeout(c.entry) ? timed_out : lost_after;
          into.try_emplace(c.source->rank, &c);
        }
        for (const auto& [r, c] : timed_out) lost_after.erase(r);
        if (!timed_out.empty() && lost_after.size() == 1) {
          const auto [late, lost] = *lost_after.begin();
          // After every timeout: by the clocks when all of them have one (separate files are fed
          // in name order, not time order), else by position.
          const bool clocked = lost->meta.time && std::all_of(timed_out.begin(), timed_out.end(),
                                                               [](const auto& kv) { return kv.second->meta.time.has_value(); });
          bool came_after = false;
          std::vector<int> waited;
          for (const auto& [r, c] : timed_out) {
            waited.push_back(r);
            if (clocked ? *c->meta.time < *lost->meta.time : c->meta.order < lost->meta.order) came_after = true;
          }
          if (came_after) {
            hung = late;
            hang_notes.push_back("Rank" + std::string(waited.size() > 1 ? "s " : " ") + join_ranks(waited) +
                                 " timed out waiting; rank " + std::to_string(late) +
                                 " did not time out: its only error, a lost connection, came after theirs, when they "
                                 "had given up and exited. It was still busy elsewhere: they waited for it.");
            hang_start = "rank " + std::to_string(late) + ": did not reach the collective rank" +
                         (waited.size() > 1 ? "s " : " ") + join_ranks(waited) + " timed out in";
          }
        }
      }
      // Every rank in the log timed out waiting and one rank number below the highest never
      // appears: that rank is the one they waited for (ranks run from 0, so this is an inference;
      // the same rule as for one SeqNum above, for any wait, e.g. a store barrier).
      if (hung < 0 && timeouts && quiet.empty() && !known.empty()) {
        std::vector<int> missing;
        for (int r = 0; r <= *known.rbegin() && missing.size() < 2; ++r)
          if (!known.count(r)) missing.push_back(r);
        if (missing.size() == 1) {
          hung = missing.front();
          hang_notes.push_back("Rank" + std::string(known.size() > 1 ? "s " : " ") +
                               join_ranks(std::vector<int>(known.begin(), known.end())) +
                               " timed out waiting; rank " + std::to_string(hung) +
                               " never appears in these logs: it is most likely the one they waited for (an inference "
                               "from the rank numbers; its own output would confirm it).");
          hang_start = "rank " + std::to_string(hung) + ": did not arrive where rank" +
                       (known.size() > 1 ? "s " : " ") + join_ranks(std::vector<int>(known.begin(), known.end())) +
                       " waited for it (absent from the logs)";
        }
      }
    }
    if (launcher_deferred && hung < 0) {
      apply_launcher(launcher_deferred);
    } else if (launcher_deferred) {
      hang_notes.push_back(launcher_names(*launcher_deferred) + ", but that rank's own error is a timeout: it exited "
                           "first because it gave up first, not because it failed first.");
    }
    if (hung < 0) {
      // Every rank timed out, but not in the same call: the one whose traceback waits in another
      // collective (all_gather where the others wait in all_reduce) took another code path.
      std::map<int, std::string> waited_in;
      std::map<int, const Cand*> where;
      for (const auto& c : all) {
        if (c.source->rank < 0 || !is_serious(c.entry) || !is_timeout(c.entry)) continue;
        const ExceptionEvent* ex = c.source->events.exception_at(c.hit.line);
        if (!ex) continue;
        for (auto f = ex->stack.rbegin(); f != ex->stack.rend(); ++f)
          if (f->file.ends_with("distributed_c10d.py") && !f->function.empty() && f->function != "wait" &&
              f->function != "wrapper") {
            waited_in.try_emplace(c.source->rank, f->function);
            where.try_emplace(c.source->rank, &c);
            break;
          }
      }
      if (auto odd = odd_value(waited_in, "collective")) {
        hung = odd->rank;
        hang_notes.push_back("Every rank timed out, rank " + std::to_string(odd->rank) + " in " + odd->value + " (" +
                             at(st, *where[odd->rank]) + ") while ranks " + join_ranks(odd->others) + " waited in " +
                             odd->usual + ": it took another code path and called a different collective, so "
                             "neither side could complete (a desync). Find why that rank branched (a condition on "
                             "its data or its rank).");
        hang_start = "rank " + std::to_string(odd->rank) + ": called " + odd->value + " where the other ranks called " +
                     odd->usual;
      }
    }
    if (hung >= 0) {
      d.confidence = 0.6;
      d.initiating_rank = hung;
      for (const auto& s : st.sources)
        if (s.rank == hung) {
          if (d.initiating_node.empty()) d.initiating_node = s.node;
          if (d.initiating_local_rank < 0) d.initiating_local_rank = s.local_rank;
        }
    } else {
      hang_notes.push_back("Only collateral symptoms matched: the initiating fault is not in these logs. "
                           "Collect the logs of every rank (and dmesg of every node).");
    }
  }

  const std::string& file = st.inputs[primary->source->input].summary.file;
  const bool interrupted_alone = primary == lone_interrupt;
  if (interrupted_alone)
    hang_notes.push_back("Only " + rank_str(primary->source->rank) + " was interrupted (KeyboardInterrupt at " +
                         at(st, *primary) +
                         "); the others did not stop on their own but lost it. A signal sent to that one process "
                         "(kill -INT, a debugger, a Ctrl-C in its own terminal) ended the job: find out who sent it.");
  // Its rank came from the block of buffered output it sits against: say so, since no line of
  // the fault names it.
  for (const BlockLines& b : st.inputs[primary->source->input].blocks)
    if (b.first <= primary->hit.line && primary->hit.line <= b.last && b.rank == primary->source->rank) {
      hang_notes.push_back("The log holds each process's output as one block (stdout buffered until it exited): "
                           "this untagged traceback sits against rank " + std::to_string(b.rank) + "'s block (line " +
                           std::to_string(shown_line(st.inputs[primary->source->input], b.first)) + ").");
      break;
    }
  d.entry = primary->entry;
  // A lone interrupt is no failure of the code, but the job failed: its peers crashed.
  d.failed = is_serious(primary->entry) || interrupted_alone;
  if (!initiators.empty() || d.initiating_rank < 0) {
    if (!initiators.empty()) {
      d.initiating_rank = primary->source->rank;
      d.initiating_local_rank = primary->source->local_rank;
      d.initiating_node = primary->source->node;
      if (d.initiating_rank < 0) {
        // Unprefixed output (torch < 2.2 prints no `[rankN]:`): a traceback torchrun copied into
        // its summary table belongs to that table entry's rank; otherwise the root cause torchrun
        // named in the same output is the process that printed the fault.
        int table_rank = primary->source->events.table_traceback_rank(primary->hit.line);
        if (table_rank >= 0 && !signal_entry_initiates(primary->source->events, primary->hit.line)) table_rank = -1;
        // The traceback printed on the console, unprefixed, and again in the table under its
        // rank: the one table traceback that ends with the same exception line.
        if (const ExceptionEvent* ex = table_rank < 0 ? primary->source->events.exception_at(primary->hit.line) : nullptr;
            ex && !ex->type.empty()) {
          const std::string said = ex->type + (ex->message.empty() ? "" : ": " + ex->message);
          std::set<int> ranks;
          for (const auto& t : primary->source->events.table_tracebacks())
            if (t.rank >= 0 && t.last_text == said.substr(0, 256)) ranks.insert(t.rank);
          if (ranks.size() == 1) table_rank = *ranks.begin();
        }
        if (table_rank >= 0) {
          d.initiating_rank = table_rank;
          hang_notes.push_back("torchrun's failure table shows this traceback for rank " + std::to_string(table_rank) + ".");
        } else if (root_rank >= 0 && report.root_cause->where.file == file) {
          d.initiating_rank = root_rank;
        } else if (const auto& own = primary->source->events.root_causes();
                   !own.empty() && report.root_cause && report.root_cause->where.file != file) {
          // Another node's agent printed the job's earliest table; this output's own agent
          // (its node's console holds the fault) names which of its workers failed first.
          std::vector<const RootCause*> others;
          for (const auto& f : primary->source->events.other_failures()) others.push_back(&f);
          auto [pick, note] = table_pick(own.front(), others);
          if (pick) {
            d.initiating_rank = pick->rank;
            d.initiating_local_rank = pick->local_rank;
            if (d.initiating_node.empty()) d.initiating_node = pick->host;
            hang_notes.push_back("The fault is printed in " + base_name(file) + ", whose torchrun summary names rank " +
                                 std::to_string(pick->rank) + " as its first failure" + (note.empty() ? "." : "; " + note));
          } else {
            hang_notes.push_back("The fault is printed in " + base_name(file) + "; " + note);
          }
        }
      }
    }
  }
  // The same fault printed twice, once without a prefix (the main thread's traceback) and once by
  // one rank that names itself (its NCCL watchdog, its `[rankN]:` excepthook): that rank's.
  if (d.initiating_rank < 0 && !initiators.empty()) {
    std::set<int> ranks;
    const Cand* named = nullptr;
    for (const auto& c : all)
      if (c.entry == primary->entry && c.source->rank >= 0) {
        ranks.insert(c.source->rank);
        named = &c;
      }
    if (ranks.size() == 1) {
      d.initiating_rank = named->source->rank;
      if (d.initiating_node.empty()) d.initiating_node = named->source->node;
      hang_notes.push_back("The same " + primary->entry->id + " is printed by rank " + std::to_string(d.initiating_rank) +
                           " at " + at(st, *named) + ", and by no other rank: the unprefixed lines are that rank's.");
    }
  }
  // Ranks that compare themselves with peers and all raise (a model or collective mismatch): the
  // rank their messages show apart from the rest, whichever rank printed first.
  if (!initiators.empty()) {
    std::vector<const Captures*> messages;
    for (const auto& c : all)
      if (c.entry == primary->entry) messages.push_back(&c.hit.captures);
    if (auto odd = odd_one_out(messages)) {
      d.initiating_rank = odd->rank;
      d.initiating_local_rank = -1;
      d.initiating_node.clear();
      for (const auto& c : all)
        if (c.entry == primary->entry && c.source->rank == odd->rank) d.initiating_node = c.source->node;
      hang_notes.push_back("Rank " + std::to_string(odd->rank) + " stands apart: " + odd->what + " " + odd->value +
                           ", where ranks " + join_ranks(odd->others) + " have " + odd->what + " " + odd->usual +
                           " (as the ranks' own messages report); it is the one that differs.");
    }
  }
  // A check in which every rank compares itself with rank 0 and only those that differ raise
  // (DDP's `params[i] in this process ... process 0`): two or more ranks that raise it over one
  // same value agree with each other, so the rank they all differ from is rank 0.
  if (!initiators.empty() && primary->entry->has_tag("against-rank0")) {
    std::map<int, std::string> held;
    bool agree = true;
    for (const auto& c : all) {
      if (c.entry != primary->entry) continue;
      int rank = c.source->rank;
      std::string value;
      for (const auto& [key, v] : c.hit.captures)
        if (key == "rank") rank = rank >= 0 ? rank : std::atoi(v.c_str());
        else value += (value.empty() ? "" : ", ") + key + " " + v;
      if (rank < 0) continue;
      auto [it, added] = held.try_emplace(rank, value);
      agree = agree && it->second == value;
    }
    std::set<std::string> values;
    for (const auto& [rank, value] : held) values.insert(value);
    if (agree && held.size() >= 2 && !held.contains(0) && values.size() == 1) {
      std::vector<int> raised;
      for (const auto& [rank, value] : held) raised.push_back(rank);
      d.initiating_rank = 0;
      d.initiating_local_rank = -1;
      d.initiating_node.clear();
      hang_notes.push_back("Ranks " + join_ranks(raised) + " all raise it with the same " + *values.begin() +
                           ", and each compares itself with rank 0: rank 0 is the one that differs.");
    }
  }
  // A comparison every rank in it raises (the collective checker's `Rank 1 is running ..., but
  // Rank 7 is running ...`): the rank that printed it is one side, not the one that diverged.
  if (from_initiator && primary->entry->has_tag("pairwise") && d.initiating_rank >= 0 &&
      d.initiating_rank == primary->source->rank &&
      std::none_of(hang_notes.begin(), hang_notes.end(), [](const std::string& n) { return n.find(" stands apart: ") != std::string::npos; })) {
    hang_notes.push_back("Rank " + std::to_string(d.initiating_rank) + " printed this comparison, and every rank in a mismatch "
                         "raises it: which rank diverged is not shown (the other ranks' messages or their code paths say it).");
    d.initiating_rank = -1;
    d.initiating_local_rank = -1;
  }
  // Still no rank: the launcher's own report of which worker failed is evidence too (rule: exit
  // codes in launcher summaries count). torchrun's root-cause table first, else the elastic
  // agent's `failed (exitcode: N) local_rank: K` line, the first one it printed.
  if (d.initiating_rank < 0 && root_rank >= 0) {
    d.initiating_rank = root_rank;
    const auto& rc = *root_failure;
    if (rc.inferred)
      hang_notes.push_back(cut_table_note(rc) + "; that rank's own error output is not in these logs.");
    else if (root_tie_note.empty())
      hang_notes.push_back("torchrun's failure summary names rank " + std::to_string(root_rank) +
                           " as the first observed failure" + (rc.has_exitcode ? " (exitcode " + std::to_string(rc.exitcode) + ")" : "") +
                           "; that rank's own error output is not in these logs.");
  }
  // An orchestrator names the failed pod or host (`failed_node`): the Kubeflow training operator.
  if (d.initiating_rank < 0 && d.initiating_node.empty())
    for (const auto& c : all)
      if (auto fn = c.hit.captures.find("failed_node"); fn != c.hit.captures.end() && !fn->second.empty()) {
        d.initiating_node = fn->second;
        hang_notes.push_back(fn->second + " is the first pod reported failed (" + at(st, c) + ", " + c.entry->id +
                             "); its own log holds the error.");
        break;
      }
  // Other launchers name the failed process by its global rank. srun lists exits in the order
  // the nodes' step daemons reported them, each after its own polling and batching (`tasks 2-3`):
  // where the peers exited on their own errors within moments of the failure (a lost connection,
  // not a timeout, and not srun's own kill of the rest), the first line may be any of them, so
  // what the ranks' own lines show comes first.
  const Cand* srun_first = nullptr;
  const auto srun_exits = std::count_if(all.begin(), all.end(), [](const Cand& c) {
    return c.entry->id == "slurm-task-exited-nonzero" && c.hit.captures.contains("exitcode");
  });
  auto name_by_launcher = [&](const Cand* c) {
    d.initiating_rank = std::atoi(c->hit.captures.at("failed_rank").c_str());
    if (auto host = c->hit.captures.find("host"); host != c->hit.captures.end() && d.initiating_node.empty())
      d.initiating_node = host->second;
    hang_notes.push_back(launcher_names(*c) + "; that rank's own first error is the one to fix.");
  };
  if (const Cand* c = d.initiating_rank < 0 ? launcher_failed() : nullptr) {
    if (from_initiator && !any_timeout && c->entry->id == "slurm-task-exited-nonzero" && srun_exits >= 2)
      srun_first = c;
    else
      name_by_launcher(c);
  }
  // A polling launcher's `worker 1 failed; stopping the remaining workers`: the first worker it
  // saw fail: the one that raised, or died silently, while its peers lost it. Not in a timeout
  // cascade, where the first to fail is a peer that gave up waiting on the stuck one.
  if (d.initiating_rank < 0 && !any_timeout) {
    for (const auto& c : all)
      if (auto ff = c.hit.captures.find("first_failed"); ff != c.hit.captures.end() && !ff->second.empty()) {
        d.initiating_rank = std::atoi(ff->second.c_str());
        hang_notes.push_back("The launcher says worker " + ff->second + " failed first (" + at(st, c) +
                             ") and stopped the others; it is taken as rank " + ff->second + " (one launcher on one node).");
        break;
      }
  }
  // A GPU fault that names its PCI address (an Xid in dmesg) belongs to the rank whose NCCL
  // communicator was initialised on that GPU, on the same node when both are known.
  if (auto pci = primary->hit.captures.find("pci"); d.initiating_rank < 0 && pci != primary->hit.captures.end()) {
    const std::string bus = nccl_bus_id(pci->second);
    const std::string node = !d.initiating_node.empty() ? d.initiating_node : primary->source->node;
    // Every node has a GPU at each common bus id: with the fault's node unknown, the id decides
    // only when all the NCCL lines that carry it agree on the rank.
    std::vector<std::pair<const SourceInfo*, const BusRank*>> found;
    for (const auto& s : st.sources)
      for (const auto& b : s.events.bus_ranks()) {
        const std::string& host = !s.node.empty() ? s.node : b.host;
        if (b.bus == bus && (node.empty() || host.empty() || host == node)) found.emplace_back(&s, &b);
      }
    auto rank_of = [](const std::pair<const SourceInfo*, const BusRank*>& f) {
      return f.first->rank >= 0 ? f.first->rank : f.second->rank;
    };
    bool agree = !found.empty();
    for (const auto& f : found) agree = agree && rank_of(f) == rank_of(found.front());
    if (agree) {
      const auto& [s, b] = found.front();
      d.initiating_rank = rank_of(found.front());
      d.initiating_local_rank = b->cuda_dev;
      if (d.initiating_node.empty()) d.initiating_node = !s->node.empty() ? s->node : b->host;
      hang_notes.push_back("The GPU at PCI " + pci->second + " is rank " + std::to_string(d.initiating_rank) +
                           "'s: NCCL initialised its communicator there (busId " + b->bus + ", cudaDev " +
                           std::to_string(b->cuda_dev) + ", " + st.inputs[s->input].summary.file + ":" +
                           std::to_string(shown_line(st.inputs[s->input], b->line)) + ").");
    }
  }
  // torch.multiprocessing.spawn names the worker: `-- Process N terminated with the following
  // error:` above its traceback, or `process N terminated with signal ...` when it was killed.
  // Its index is the rank spawn's function receives, the global rank on one node.
  if (d.initiating_rank < 0) {
    int process = primary->source->events.spawn_process_at(primary->hit.line);
    if (auto p = primary->hit.captures.find("process"); process < 0 && p != primary->hit.captures.end())
      process = std::atoi(p->second.c_str());
    if (process >= 0 && !from_initiator && is_timeout(primary->entry)) {
      // The first worker to exit in a timeout cascade is one that gave up waiting.
      hang_notes.push_back("torch.multiprocessing.spawn reported process " + std::to_string(process) + " first (" +
                           at(st, *primary) + "), but its error is a timeout: it gave up waiting for another rank.");
    } else if (process >= 0) {
      d.initiating_rank = process;
      hang_notes.push_back("torch.multiprocessing.spawn reported process " + std::to_string(process) +
                           " as the one that failed (" + at(st, *primary) + "); on a single node that is rank " +
                           std::to_string(process) + ".");
    }
  }
  // The error names its own rank where no prefix did (`Parameter indices which did not receive
  // grad for rank 0`); not where it names another rank beside it (`..., while rank 3 has ...`).
  if (from_initiator && d.initiating_rank < 0 && primary->source->rank < 0) {
    // On the primary's line or a later line of the same message (the same entry, a few lines on).
    for (const auto& c : all) {
      if (c.source != primary->source || c.entry != primary->entry || c.hit.line < primary->hit.line ||
          c.hit.line - primary->hit.line > 30)
        continue;
      const auto& caps = c.hit.captures;
      auto r = caps.find("rank");
      if (r == caps.end() || r->second.empty() || caps.count("other_rank") || caps.count("faulty_rank")) continue;
      d.initiating_rank = std::atoi(r->second.c_str());
      hang_notes.push_back("The error names rank " + r->second + " itself (" + at(st, c) +
                           "); no launcher prefix says which process printed it.");
      break;
    }
  }
  // Nor a prefix nor the message: the file the error is about may (`rank1_w1.idx`), since each
  // rank opens its own shards. The DataLoader's worker traceback below the message counts too.
  if (from_initiator && d.initiating_rank < 0 && primary->source->rank < 0) {
    const ExceptionEvent* own = primary->source->events.exception_at(primary->hit.line);
    for (const auto& ex : primary->source->events.exceptions()) {
      const bool worker = own && ex.chained == "dataloader-worker" && ex.line > own->line && ex.line - own->line <= 60;
      if (&ex != own && !worker) continue;
      const PathRank named = rank_in_paths(ex.message);
      if (named.rank < 0) continue;
      d.initiating_rank = named.rank;
      hang_notes.push_back("The error is about `" + named.path + "`, by its name rank " + std::to_string(named.rank) +
                           "'s file (line " + std::to_string(shown_line(st.inputs[primary->source->input], ex.line)) +
                           "); no launcher prefix says which process printed it.");
      break;
    }
  }
  // Nor a file: the error's own words may (`loss is NaN at step 2 on rank 1`), as a job's own
  // checks often say which rank they ran on.
  if (from_initiator && d.initiating_rank < 0 && primary->source->rank < 0) {
    if (const ExceptionEvent* own = primary->source->events.exception_at(primary->hit.line)) {
      const int named = rank_in_words(own->message);
      if (named >= 0) {
        d.initiating_rank = named;
        hang_notes.push_back("The error says which rank raised it (`" + own->type + ": " + own->message +
                             "`, line " + std::to_string(shown_line(st.inputs[primary->source->input], own->line)) +
                             "); no launcher prefix says which process printed it.");
      }
    }
  }
  // A device-side assert prints its kernel lines bare (`Loss.cu:94: ... Assertion ... failed.`);
  // the error it leaves in its CUDA context is its own process's alone, so the one rank that
  // then reports `device-side assert triggered` (`[Rank 1] NCCL watchdog thread terminated with
  // exception: CUDA error: device-side assert triggered`) is the rank that asserted.
  if (from_initiator && d.initiating_rank < 0 && primary->source->rank < 0 && primary->entry->has_tag("cuda") &&
      primary->entry->has_tag("assert")) {
    std::set<int> ranks;
    const Cand* said = nullptr;
    for (const auto& c : all) {
      if (c.source->rank < 0) continue;
      auto reason = c.hit.captures.find("reason");
      const bool asserted = c.entry->has_tag("assert") ||
                            (reason != c.hit.captures.end() && reason->second.find("device-side assert") != std::string::npos);
      if (!asserted) continue;
      ranks.insert(c.source->rank);
      if (!said) said = &c;
    }
    if (ranks.size() == 1) {
      d.initiating_rank = *ranks.begin();
      hang_notes.push_back("The kernel's assertion lines name no rank; rank " + std::to_string(d.initiating_rank) +
                           " alone then reported the device-side assert (" + at(st, *said) +
                           "), an error no other process's CUDA context holds.");
    }
  }
  // A timeout cascade: the peers gave up and exited on their own, so the one worker the agent
  // still had to stop with SIGTERM is the one they waited for (when the log tied its pid to a rank).
  if (d.initiating_rank < 0 && any_timeout) {
    for (const auto& s : st.sources) {
      const auto& pids = s.events.sigterm_pids();
      if (pids.size() != 1) continue;
      int rank = -1;
      std::string how;
      if (auto owner = st.pid_rank.find(pids.front()); owner != st.pid_rank.end()) {
        rank = owner->second;
        how = " by the log's own lines";
      } else if (const int local = unlisted_worker(s.events); local >= 0) {
        // The same agent's table lists every other worker of its node as failed: the one it
        // signalled is the local rank missing from it.
        const int global = global_rank_of(s, local);
        rank = global >= 0 ? global : local;
        how = ", the one local rank (" + std::to_string(local) + ") its failure table does not list" +
              (global >= 0 ? (global == local ? "" : " (global rank " + std::to_string(global) + " by the table's rows)")
                           : " (one node: its rank)");
      }
      if (rank < 0 || timed_out_ranks.count(rank)) continue;
      d.initiating_rank = rank;
      std::erase_if(hang_notes, [](const std::string& n) { return n.starts_with("Only collateral symptoms matched"); });
      hang_notes.push_back("The peers timed out and exited; torchrun then had to stop pid " + std::to_string(pids.front()) +
                           " with SIGTERM, still running: rank " + std::to_string(rank) + how + ", the one they waited for.");
      if (hang_start.empty()) hang_start = "rank " + std::to_string(rank) + ": still busy when its peers timed out (the agent stopped it)";
      break;
    }
  }
  // The agent's `failed (exitcode: N) local_rank: K` line is its first failure in local-rank
  // order, the same pick as its table: after a tie in the tables it says nothing more.
  if (d.initiating_rank < 0 && root_tie_note.empty()) {
    for (const auto& c : all) {
      auto lr = c.hit.captures.find("local_rank");
      auto ec = c.hit.captures.find("exitcode");
      if (lr == c.hit.captures.end() || !c.entry->id.starts_with("torchrun-worker")) continue;
      const int local = std::atoi(lr->second.c_str());
      const int global = global_rank_of(*c.source, local);
      d.initiating_local_rank = local;
      d.initiating_rank = global >= 0 ? global : local;
      const std::string how = ec == c.hit.captures.end() || ec->second.empty()
                                  ? ""
                                  : "exitcode " + ec->second + (ec->second == "-9" ? ", SIGKILL" : "") + ", ";
      hang_notes.push_back("The launcher reported local rank " + lr->second + " as the first worker that failed (" + how +
                           at(st, c) + "); " +
                           (global >= 0 ? "its agent's rendezvous result (`global_ranks=[...]`) makes that global rank " +
                                              std::to_string(global) + "."
                                        : "global rank " + lr->second + " assumes a single-node job."));
      break;
    }
  }
  // No worker named at all: the one the agent did not send SIGTERM to is the one that had failed.
  if (d.initiating_rank < 0)
    for (const auto& s : st.sources) {
      const auto& pids = s.events.sigterm_pids();
      const int gap = missing_worker_index(pids);
      if (gap < 0) continue;
      const auto [low, high] = std::minmax_element(pids.begin(), pids.end());
      const int global = global_rank_of(s, gap);
      d.initiating_rank = global >= 0 ? global : gap;
      d.failed = true;  // a worker died, whatever the headline entry's severity
      d.initiating_local_rank = gap;
      hang_notes.push_back("torchrun sent SIGTERM to pids " + std::to_string(*low) + "-" + std::to_string(*high) +
                           " except " + std::to_string(*low + gap) + ": that worker had already failed. Workers "
                           "start in local-rank order, so it is most likely local rank " + std::to_string(gap) + " (" +
                           (global >= 0 ? "global rank " + std::to_string(global) + " by the agent's rendezvous result"
                                        : "rank " + std::to_string(gap) + " on a single node") +
                           "); an inference from pids, not a report.");
      break;
    }
  // An initiating fault printed without a rank (bash's `Aborted` notice, a faulthandler dump)
  // while every rank in the logs but one reports losing a peer: it is that one's.
  if (d.initiating_rank < 0 && !initiators.empty() && primary->source->rank < 0) {
    std::set<int> known, lost;
    for (const auto& s : st.sources)
      if (s.rank >= 0) known.insert(s.rank);
    for (const auto& in : st.inputs)
      if (in.file_attr.rank >= 0 && in.summary.lines > 0) known.insert(in.file_attr.rank);
    std::set<int> spoke;  // ranks with a serious line of any kind
    for (const auto& [src, line] : first_collateral)
      if (src->rank >= 0) lost.insert(src->rank);
    for (const auto& c : all)
      if (c.source->rank >= 0 && is_serious(c.entry)) spoke.insert(c.source->rank);
    std::vector<int> quiet;
    for (int r : known)
      if (!spoke.count(r)) quiet.push_back(r);
    if (quiet.size() == 1 && !lost.empty()) {
      d.initiating_rank = quiet.front();
      hang_notes.push_back("The fault names no rank; rank" + std::string(lost.size() > 1 ? "s " : " ") +
                           join_ranks(std::vector<int>(lost.begin(), lost.end())) +
                           " lost a peer after it and rank " + std::to_string(quiet.front()) +
                           " reported nothing: it is that rank's.");
    }
  }
  // A report that names only the failed process's pid (bash's `line 57: 14702 Killed`, the
  // kernel's `Killed process 14702`): the rank the log tied that pid to.
  if (auto pid = primary->hit.captures.find("pid"); d.initiating_rank < 0 && pid != primary->hit.captures.end()) {
    if (auto found = rank_of_pid(st, std::atoi(pid->second.c_str()))) {
      d.initiating_rank = found->rank;
      hang_notes.push_back(found->why);
    }
  }
  // A CUDA error that names its device and no prefix names its process: the rank on that device.
  if (auto gpu = primary->hit.captures.find("gpu"); from_initiator && d.initiating_rank < 0 &&
                                                    primary->source->rank < 0 && gpu != primary->hit.captures.end()) {
    if (auto on = rank_on_device(st, std::atoi(gpu->second.c_str()))) {
      d.initiating_rank = on->rank;
      d.initiating_local_rank = on->local_rank;
      if (d.initiating_node.empty()) d.initiating_node = on->node;
      hang_notes.push_back(on->why);
    }
  }
  // Last, the job's own launcher's word on how each worker ended: the one that ended differently.
  if (d.initiating_rank < 0) {
    std::vector<WorkerExit> exits;
    const Cand* first_report = nullptr;
    for (const auto& c : all) {
      const auto& cap = c.hit.captures;
      auto w = cap.find("worker");
      if (w == cap.end() || w->second.empty() || c.entry->id != "launcher-worker-exit-report") continue;
      WorkerExit e{std::atoi(w->second.c_str()), "", 0};
      if (auto sig = cap.find("signal"); sig != cap.end()) e.signal = sig->second;
      if (auto ec = cap.find("exitcode"); ec != cap.end()) e.exitcode = std::atoi(ec->second.c_str());
      exits.push_back(std::move(e));
      if (!first_report) first_report = &c;
    }
    auto odd = odd_exit(exits);
    // A worker number of a pid's size names a rank only where the log ties that pid to one.
    std::optional<PeerFinding> by_pid;
    if (odd && odd->worker >= kMaxLauncherWorker) {
      by_pid = rank_of_pid(st, odd->worker);
      if (!by_pid) odd.reset();
    }
    if (by_pid) {
      d.initiating_rank = by_pid->rank;
      d.failed = true;
      hang_notes.push_back("The launcher reports that process " + std::to_string(odd->worker) + " " + odd->how +
                           (odd->others.empty() ? "" : " while " + odd->others) + " (" + at(st, *first_report) +
                           " and below): it ended differently from the rest. " + by_pid->why);
    } else if (odd) {
      d.initiating_rank = odd->worker;
      d.failed = true;
      hang_notes.push_back("The launcher reports that worker " + std::to_string(odd->worker) + " " + odd->how +
                           (odd->others.empty() ? "" : " while " + odd->others) + " (" + at(st, *first_report) +
                           " and below): it ended differently from the rest, so it is taken as rank " +
                           std::to_string(odd->worker) + " (one launcher on one node).");
    }
  }
  // A node named, no rank: the rank that node's own lines name, when they name one only.
  if (d.initiating_rank < 0 && d.failed && (!d.initiating_node.empty() || !primary->source->node.empty())) {
    const std::string node = !d.initiating_node.empty() ? d.initiating_node : primary->source->node;
    if (auto found = node_rank(collect_peer_lines(st), node)) {
      d.initiating_rank = found->rank;
      d.initiating_node = node;
      hang_notes.push_back(found->why);
    }
  }
  // Nothing above named the rank: what the ranks' own healthy lines say about one another (a
  // rank that kept working while the others timed out, the one rank that logged an error, the
  // one whose output stopped first, the one whose setup differs).
  if (d.initiating_rank < 0 && d.initiating_node.empty() && d.failed) {
    std::vector<PeerLine> orphans;
    const std::vector<PeerLine> lines = collect_peer_lines(st, &orphans);
    const Cand* first = primary;
    if (!from_initiator)
      for (const auto& c : all)
        if (!c.entry->can_initiate() && is_serious(c.entry)) {
          first = &c;
          break;
        }
    const PeerPos at_first{first->source->input, first->hit.line, first->meta.time};
    std::optional<PeerFinding> found;
    if (!from_initiator && is_timeout(first->entry))
      found = alive_after(lines, at_first, timed_out_ranks);
    if (!found && !from_initiator) found = stuck_elsewhere(lines, at_first, timed_out_ranks);
    const ExceptionEvent* failed_ex = from_initiator ? primary->source->events.exception_at(primary->hit.line) : nullptr;
    if (failed_ex) found = object_source_rank(*failed_ex);
    if (failed_ex && !found) found = store_server_rank(*failed_ex);
    if (!found && from_initiator) {
      const std::string_view said = failed_ex ? std::string_view(failed_ex->message) : std::string_view(primary->hit.text);
      found = path_owner(lines, said);
      if (!found) found = numbered_owner(lines, said);
    } else if (!found) {
      // Collateral only: an error line of no rank printed before the first symptom (a script's
      // own `error: ...` before sys.exit) may name a path one rank worked on.
      std::string said;
      for (const auto& o : orphans)
        if (auto later = o.time && at_first.time ? std::optional<bool>(*o.time > *at_first.time)
                                                 : (o.input == at_first.input && !o.blocked
                                                        ? std::optional<bool>(o.line > at_first.line)
                                                        : std::nullopt);
            later && !*later && said.size() < 4096)
          said += o.text + "\n";
      if (!said.empty()) found = path_owner(lines, said);
    }
    if (!found) {
      // Clients of the env:// store timing out, and nothing else failing: the store's server.
      std::vector<const ExceptionEvent*> store_timeouts;
      bool only_store = true;
      for (const auto& c : all) {
        if (c.entry->id.starts_with("torchrun")) only_store = false;
        const ExceptionEvent* ex = c.source->events.exception_at(c.hit.line);
        if (c.entry->id == "store-client-connect-timeout") {
          if (ex && std::find(store_timeouts.begin(), store_timeouts.end(), ex) == store_timeouts.end()) store_timeouts.push_back(ex);
        } else if (ex || (c.entry->can_initiate() && is_serious(c.entry))) {
          only_store = false;
        }
      }
      if (only_store) found = absent_store_server(store_timeouts, lines);
    }
    if (!found) found = lone_error_record(lines, at_first);
    if (!found && !from_initiator && !is_timeout(first->entry))
      found = lone_departure(lines, at_first);
    if (!found) found = lone_nonfinite(lines);
    if (!found) found = went_quiet_first(lines);
    if (!found && failed_ex)
      found = busy_elsewhere(lines, PeerPos{primary->source->input,
                                            failed_ex->traceback_line ? failed_ex->traceback_line : failed_ex->line,
                                            primary->meta.time});
    if (!found && failed_ex && failed_ex->traceback_line)
      found = silent_after_traceback(lines, primary->source->input, failed_ex->traceback_line, failed_ex->line);
    if (!found) found = odd_report(lines);
    // Last, convention: a failure in work scripts leave to rank 0, when other processes lost it.
    const bool peers_lost_it = std::any_of(all.begin(), all.end(), [&](const Cand& c) {
      return !c.entry->can_initiate() && is_serious(c.entry) && c.source->events.exception_at(c.hit.line) != failed_ex;
    });
    if (!found && failed_ex && peers_lost_it && !srun_first) found = rank_zero_duty(*failed_ex);
    if (found) {
      d.initiating_rank = found->rank;
      if (!from_initiator) {
        d.confidence = 0.4;
        std::erase_if(hang_notes, [](const std::string& n) { return n.starts_with("Only collateral symptoms matched"); });
        if (hang_start.empty()) hang_start = "rank " + std::to_string(found->rank) + ": " + found->chain;
      }
      hang_notes.push_back(found->why);
    }
  }
  if (srun_first && d.initiating_rank < 0) {
    name_by_launcher(srun_first);
  } else if (srun_first && srun_first->hit.captures.at("failed_rank") != std::to_string(d.initiating_rank)) {
    hang_notes.push_back("srun's first exit line names task " + srun_first->hit.captures.at("failed_rank") + " (" +
                         at(st, *srun_first) + "), but the other tasks also exited on errors of their own within "
                         "moments, and srun lists exits as each node reports them: its order does not say which failed first.");
  }
  if (d.initiating_rank >= 0 && d.initiating_rank == root_rank && root_failure) {
    if (d.initiating_node.empty()) d.initiating_node = root_failure->host;
    if (d.initiating_local_rank < 0) d.initiating_local_rank = root_failure->local_rank;
    if (!root_tie_note.empty()) hang_notes.push_back(root_tie_note);
  } else if (!root_failure && !root_tie_note.empty() && d.initiating_rank != report.root_cause->cause.rank) {
    hang_notes.push_back(root_tie_note);
  }
  d.first_error = {file, primary->hit.line};
  d.first_error_text = primary->hit.text;
  d.captures = primary->hit.captures;
  // Only the source that printed the line: the ranks of one log interleave their tracebacks,
  // and another rank's frames at nearby line numbers are not this failure's.
  if (const ExceptionEvent* ex = primary->source->events.exception_at(primary->hit.line)) d.traceback = ex->stack;
  if (primary->meta.snapshot >= 0) {
    auto& snap = st.snapshots[static_cast<size_t>(primary->meta.snapshot)];
    d.context_first_line = snap.first_line;
    d.first_error_line = std::move(snap.hit_line);
    d.context_before = std::move(snap.lines);
  }
  // The initiator's rank rests on its file's own words when its name says none: say which.
  for (const auto& in : st.inputs)
    if (d.initiating_rank >= 0 && in.file_attr.rank == d.initiating_rank && !in.self_named.empty())
      hang_notes.push_back(in.self_named);
  d.findings = findings_from_captures(d.captures);
  for (auto& n : hang_notes) d.findings.push_back(n);

  // The causal chain, earliest first. A traced hang starts at the rank that stopped, although
  // the first line in the log is another rank's timeout.
  if (!hang_start.empty()) d.chain.push_back(hang_start);
  d.chain.push_back(source_str(*primary->source) + ": " + primary->entry->title + " at " + at(st, *primary) +
                    (primary->entry->can_initiate() ? "" : " (a symptom)"));
  const auto& raised = primary->source->events.exceptions();
  for (size_t i = 0; i < raised.size(); ++i) {
    const auto& ex = raised[i];
    if (ex.line < primary->hit.line || ex.line > primary->hit.line + 200) continue;
    auto line_of = [&](const ExceptionEvent& e) {
      return " (line " + std::to_string(shown_line(st.inputs[primary->source->input], e.line)) + ")";
    };
    d.chain.push_back(source_str(*primary->source) + (ex.cut_off ? " printed " : " raised ") + describe(ex) + line_of(ex));
    if (i + 1 < raised.size() && raised[i + 1].chained == "dataloader-worker")
      d.chain.push_back("its DataLoader worker had raised " + describe(raised[i + 1]) + line_of(raised[i + 1]));
    break;
  }

  // Collateral: one per (rank, entry), other than the initiator's own line and entry.
  std::set<std::pair<int, std::string>> seen{{primary->source->rank, primary->entry->id}};
  std::map<std::string, std::vector<int>> by_entry;
  std::map<std::string, std::string> title_of;
  std::vector<std::string> first_seen;  // the chain follows the order symptoms appeared in
  for (const auto& c : all) {
    if (&c == primary) continue;
    if (c.source == primary->source && c.entry->can_initiate()) continue;
    if (is_fallback(c.entry)) continue;
    if (!seen.insert({c.source->rank, c.entry->id}).second) continue;
    if (d.collateral.size() >= 256) break;
    d.collateral.push_back({c.source->rank, c.entry->id, {st.inputs[c.source->input].summary.file, c.hit.line}});
    if (!c.entry->can_initiate() || c.source != primary->source) {
      if (!by_entry.count(c.entry->id)) first_seen.push_back(c.entry->id);
      by_entry[c.entry->id].push_back(c.source->rank);
      title_of[c.entry->id] = c.entry->title;
    }
  }
  for (const auto& id : first_seen) {
    auto& ranks = by_entry[id];
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    std::vector<int> shown;
    for (int r : ranks)
      if (r >= 0) shown.push_back(r);
    std::string who = shown.empty() ? "unranked output" : (shown.size() > 1 ? "ranks " : "rank ") + join_ranks(shown);
    d.chain.push_back("then " + who + ": " + title_of[id] + " (" + id + ")");
  }
  if (report.root_cause) {
    const auto& rc = report.root_cause->cause;
    std::string s = rc.inferred ? cut_table_note(rc) : "torchrun reported rank " + std::to_string(rc.rank) + " as the first observed failure";
    if (!rc.host.empty()) s += " on " + rc.host;
    if (rc.has_exitcode) s += " (exitcode " + std::to_string(rc.exitcode) + ")";
    if (!rc.signal.empty()) s += ", " + rc.signal;
    d.chain.push_back(s);
    if (rc.rank >= 0 && rc.rank == d.initiating_rank && !rc.inferred) d.findings.push_back("torchrun's root-cause table names the same rank.");
  }
  if (!d.collateral.empty() && primary->entry->can_initiate()) d.confidence += 0.03;

  // An exception no entry knows: say what was raised where, in user code, and which entries look
  // nearest, as hypotheses only.
  std::vector<std::pair<int, const core::Entry*>> nearest;
  if (is_fallback(primary->entry)) {
    const ExceptionEvent* ex = primary->source->events.exception_at(primary->hit.line);
    std::string raised = ex ? describe(*ex) : primary->hit.text.substr(0, 200);
    std::string where;
    if (const StackFrame* f = user_frame(d.traceback))
      where = " at " + base_name(f->file) + ":" + std::to_string(f->line) + (f->function.empty() ? "" : " in " + f->function);
    std::set<int> others;
    for (const auto& c : d.collateral)
      if (c.rank >= 0 && c.rank != d.initiating_rank) others.insert(c.rank);
    std::string s = rank_str(d.initiating_rank) + " raised `" + raised + "`" + where +
                    "; no entry of the library knows this error";
    if (!others.empty())
      s += "; rank" + std::string(others.size() > 1 ? "s " : " ") + join_ranks(std::vector<int>(others.begin(), others.end())) +
           " failed as collateral";
    d.findings.insert(d.findings.begin(), s + ".");
    std::set<std::string> mine = words(raised);
    for (const auto& e : matcher.entries()) {
      if (&e == primary->entry || !e.can_initiate() || is_fallback(&e) || is_cancellation(&e)) continue;
      std::string text = e.title;
      for (const auto& fp : e.fingerprints) text += " " + fp.pattern;
      int score = 0;
      for (const auto& w : words(text)) score += mine.count(w) ? 1 : 0;
      if (score >= 2) nearest.emplace_back(score, &e);
    }
    std::stable_sort(nearest.begin(), nearest.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (nearest.size() > 3) nearest.resize(3);
  }

  // Competing hypotheses: the chosen one first, then the other initiator candidates.
  auto hypothesis = [&](const Cand& c, double conf) {
    Hypothesis h;
    h.entry = c.entry->id;
    h.confidence = round2(clamp(conf));
    h.rank = c.source->rank;
    h.where = {st.inputs[c.source->input].summary.file, c.hit.line};
    h.evidence_for.push_back("matched at " + at(st, c) + " (" + rank_str(c.source->rank) + ")");
    if (c.entry->role == core::Role::Initiator) h.evidence_for.push_back("this failure starts cascades; it is rarely a consequence");
    if (root_rank >= 0 && c.source->rank == root_rank) h.evidence_for.push_back("torchrun's root cause is this rank");
    if (root_rank >= 0 && c.source->rank >= 0 && c.source->rank != root_rank)
      h.evidence_against.push_back("torchrun's root cause is rank " + std::to_string(root_rank));
    if (c.entry->role == core::Role::Either) h.evidence_against.push_back("this failure is often a consequence of another");
    if (c.entry->role == core::Role::Collateral) h.evidence_against.push_back("this failure is a symptom of another");
    return h;
  };
  d.confidence = round2(clamp(d.confidence));
  d.hypotheses.push_back(hypothesis(*primary, d.confidence));
  for (const auto* r : primary->same_line_rivals) {
    if (r == primary->entry) continue;
    Hypothesis h = hypothesis(*primary, primary->hit.confidence - 0.1);
    h.entry = r->id;
    h.evidence_against.push_back("a more specific entry (" + primary->entry->id + ") matched the same line");
    d.hypotheses.push_back(std::move(h));
  }
  std::set<std::string> listed{primary->entry->id};
  for (const auto* r : primary->same_line_rivals) listed.insert(r->id);
  for (const Cand* c : initiators) {
    if (c == primary || d.hypotheses.size() >= 6) continue;
    if (!listed.insert(c->entry->id).second) continue;
    Hypothesis h = hypothesis(*c, c->hit.confidence * 0.6);
    if (earlier(*primary, *c)) h.evidence_against.push_back("it happened after " + primary->entry->id + " on " + rank_str(primary->source->rank));
    d.hypotheses.push_back(std::move(h));
  }
  for (const auto& [score, e] : nearest) {
    if (d.hypotheses.size() >= 6 || !listed.insert(e->id).second) continue;
    Hypothesis h;
    h.entry = e->id;
    h.confidence = round2(clamp(0.05 * score));
    h.rank = d.initiating_rank;
    h.where = d.first_error;
    h.evidence_for.push_back("its title and fingerprints share " + std::to_string(score) + " words with the exception");
    h.evidence_against.push_back("none of its fingerprints matched: a resemblance, not a diagnosis");
    d.hypotheses.push_back(std::move(h));
  }
  report.diagnoses.push_back(std::move(d));
  return report;
}

}  // namespace denpex::logs
