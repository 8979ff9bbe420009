// Which fault started it: line winners -> initiator candidates -> the earliest initiating fault,
// with torchrun's root-cause rank as strong evidence; a hang is traced to the rank that never
// reached the collective the others timed out on.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "denpex/logs/evidence.h"
#include "diagnoser_state.h"

namespace denpex::logs {
namespace {

struct Cand {
  Hit hit;
  const core::Entry* entry = nullptr;
  const SourceInfo* source = nullptr;
  HitMeta meta;
  std::vector<const core::Entry*> same_line_rivals;
};

std::string rank_str(int rank) { return rank >= 0 ? "rank " + std::to_string(rank) : "an unranked process"; }

std::string at(const Diagnoser::State& st, const Cand& c) {
  return st.inputs[c.source->input].summary.file + ":" + std::to_string(c.hit.line);
}

double clamp(double v) { return std::max(0.05, std::min(0.99, v)); }
double round2(double v) { return static_cast<double>(static_cast<int>(v * 100 + 0.5)) / 100.0; }

std::string join_ranks(const std::vector<int>& ranks) {
  std::string s;
  for (size_t i = 0; i < ranks.size(); ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  return s;
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
  for (const auto& s : st.sources) {
    const std::string& file = st.inputs[s.input].summary.file;
    for (const auto& ex : s.events.exceptions()) {
      auto key = std::make_pair(s.input, ex.line);
      if (!report.final_exception || key > last_key) {
        report.final_exception = FinalException{{file, ex.line}, s.rank, ex};
        last_key = key;
      }
    }
    for (const auto& rc : s.events.root_causes())
      if (!report.root_cause) report.root_cause = RootCauseRef{{file, rc.line}, rc};
  }
  const int root_rank = report.root_cause ? report.root_cause->cause.rank : -1;

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

  std::vector<const Cand*> initiators;
  for (const auto& c : all)
    if (c.entry->can_initiate()) initiators.push_back(&c);
  auto rank_key = [&](const Cand* c) {
    // A warning that precedes a fatal error is usually context, not the failure.
    const bool serious = c->entry->severity == core::Severity::Fatal || c->entry->severity == core::Severity::Error;
    return std::make_tuple(serious ? 0 : 1, c->entry->role == core::Role::Initiator ? 0 : 1,
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
  std::stable_sort(initiators.begin(), initiators.end(),
                   [&](const Cand* a, const Cand* b) { return rank_key(a) < rank_key(b); });

  if (all.empty()) return report;
  // Info entries explain messages healthy runs print too (deprecation notices, a skipped fp16
  // step, a graph break): on their own they are not a failure, so no diagnosis is made.
  if (std::all_of(all.begin(), all.end(), [](const Cand& c) { return c.entry->severity == core::Severity::Info; }))
    return report;

  Diagnosis d;
  const Cand* primary = nullptr;
  std::vector<std::string> hang_notes;
  std::string hang_start;  // the first link of the chain when a hang was traced to a rank
  if (!initiators.empty()) {
    primary = initiators.front();
    d.confidence = primary->hit.confidence;
    if (root_rank >= 0 && primary->source->rank == root_rank) d.confidence += 0.1;
    if (root_rank >= 0 && primary->source->rank >= 0 && primary->source->rank != root_rank) d.confidence -= 0.1;
  } else {
    // Only collateral: look for the rank that never reached the collective (a hang), else report
    // the earliest symptom with low confidence and say the initiator is not in these logs.
    // The most specific symptom names the failure best (a watchdog timeout rather than the
    // teardown lines printed around it); among equals, the earliest.
    primary = &all.front();
    for (const auto& c : all)
      if (c.hit.confidence > primary->hit.confidence) primary = &c;
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
    std::vector<int> silent;
    for (int r : known)
      if (!seq_of.count(r)) silent.push_back(r);
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
  d.entry = primary->entry;
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
        if (table_rank >= 0) {
          d.initiating_rank = table_rank;
          hang_notes.push_back("torchrun's failure table shows this traceback for rank " + std::to_string(table_rank) + ".");
        } else if (root_rank >= 0 && report.root_cause->where.file == file) {
          d.initiating_rank = root_rank;
        }
      }
    }
  }
  if (d.initiating_rank >= 0 && d.initiating_rank == root_rank && report.root_cause) {
    if (d.initiating_node.empty()) d.initiating_node = report.root_cause->cause.host;
    if (d.initiating_local_rank < 0) d.initiating_local_rank = report.root_cause->cause.local_rank;
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
  d.findings = findings_from_captures(d.captures);
  for (auto& n : hang_notes) d.findings.push_back(n);

  // The causal chain, earliest first. A traced hang starts at the rank that stopped, although
  // the first line in the log is another rank's timeout.
  if (!hang_start.empty()) d.chain.push_back(hang_start);
  d.chain.push_back(rank_str(primary->source->rank) + ": " + primary->entry->title + " at " + at(st, *primary) +
                    (primary->entry->can_initiate() ? "" : " (a symptom)"));
  for (const auto& ex : primary->source->events.exceptions()) {
    if (ex.line < primary->hit.line || ex.line > primary->hit.line + 200) continue;
    d.chain.push_back(rank_str(primary->source->rank) + " raised " + ex.type + (ex.message.empty() ? "" : ": " + ex.message.substr(0, 160)) +
                      " (line " + std::to_string(ex.line) + ")");
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
    std::string s = "torchrun reported rank " + std::to_string(rc.rank) + " as the first observed failure";
    if (!rc.host.empty()) s += " on " + rc.host;
    if (rc.has_exitcode) s += " (exitcode " + std::to_string(rc.exitcode) + ")";
    if (!rc.signal.empty()) s += ", " + rc.signal;
    d.chain.push_back(s);
    if (rc.rank >= 0 && rc.rank == d.initiating_rank) d.findings.push_back("torchrun's root-cause table names the same rank.");
  }
  if (!d.collateral.empty() && primary->entry->can_initiate()) d.confidence += 0.03;

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
  report.diagnoses.push_back(std::move(d));
  return report;
}

}  // namespace denpex::logs
