#include "denpex/server/log_document.h"

#include <algorithm>

#include "denpex/logs/attribution.h"
#include "denpex/logs/diagnoser.h"
#include "denpex/logs/normalize.h"
#include "denpex/server/entry_render.h"

namespace denpex::features {
namespace {

// The Diagnoser reads in pieces so cancellation can be checked between them.
constexpr size_t kPiece = 1 << 20;

const core::Entry* find_entry(const logs::Matcher& m, std::string_view id) {
  for (const auto& e : m.entries())
    if (e.id == id) return &e;
  return nullptr;
}

std::string who(int rank) { return rank >= 0 ? "rank " + std::to_string(rank) : "an unknown rank"; }

// What the failure did, for the source line it happened on: "rank 5 ran out of CUDA memory here".
std::string source_message(const logs::Diagnosis& d) {
  return who(d.initiating_rank) + " failed here: " + d.entry->title + " (" + d.entry->id + ")";
}

// Evidence as hover bullets: the sentences the causality stage wrote, else the raw captures.
std::string evidence_markdown(const logs::Diagnosis& d) {
  std::string out;
  for (const auto& f : d.findings) out += "- " + f + "\n";
  if (d.findings.empty())
    for (const auto& [k, v] : d.captures) out += "- " + k + ": `" + v + "`\n";
  return out.empty() ? out : "\n**Evidence**\n\n" + out;
}

std::string initiator_markdown(const logs::Diagnosis& d) {
  std::string out = "**Initiating fault** on " + rank_label(d.initiating_rank, d.initiating_local_rank, d.initiating_node) +
                    " (confidence " + std::to_string(static_cast<int>(d.confidence * 100 + 0.5)) + "%)\n";
  out += evidence_markdown(d);
  if (!d.collateral.empty()) {
    out += "\n**Collateral**: ";
    for (size_t i = 0; i < d.collateral.size(); ++i)
      out += (i ? ", " : "") + who(d.collateral[i].rank) + " (" + d.collateral[i].entry + ")";
    out += "\n";
  }
  return out + "\n---\n\n" + entry_markdown_brief(*d.entry);
}

// The entries whose fingerprints match one line of the log, as the Diagnoser would see it.
std::vector<const core::Entry*> entries_on_line(const logs::Matcher& matcher, std::string_view raw, int* rank) {
  std::string norm;
  logs::normalize_line(raw, norm);
  logs::Attribution a = logs::attribute_line(norm);
  *rank = a.rank;
  std::string_view text = a.body(norm);
  std::vector<int> ids;
  matcher.match(text, &ids);
  std::vector<const core::Entry*> out;
  for (int id : ids) {
    const logs::Matcher::Fp* fp = matcher.fingerprint(id);
    if (!fp) continue;
    const core::Entry* e = &matcher.entries()[fp->entry];
    bool seen = false;
    for (const auto* o : out) seen = seen || o == e;
    if (!seen) out.push_back(e);
  }
  return out;
}

}  // namespace

std::string rank_label(int rank, int local_rank, const std::string& node) {
  std::string s = rank >= 0 ? "rank " + std::to_string(rank) : "rank unknown";
  if (local_rank >= 0 && local_rank != rank) s += " (local rank " + std::to_string(local_rank) + ")";
  if (!node.empty()) s += " on " + node;
  return s;
}

LogDocument diagnose_log_document(const logs::Matcher& matcher, std::string_view name, std::string_view text,
                                  const ResolveSource& resolve, const core::CancelToken* cancel) {
  LogDocument doc;
  logs::Diagnoser diagnoser(matcher);
  uint32_t input = diagnoser.open(std::string(name));
  for (size_t at = 0; at < text.size(); at += kPiece) {
    if (cancel && cancel->cancelled()) {
      doc.cancelled = true;
      return doc;
    }
    diagnoser.feed(input, text.substr(at, kPiece));
  }
  diagnoser.close(input);
  doc.report = diagnoser.finish();

  if (doc.report.diagnoses.empty()) {
    // No entry knows this failure; still point at it, so the log is not silently "clean".
    const auto& r = doc.report;
    if (r.final_exception && r.final_exception->where.line > 0) {
      const auto& f = *r.final_exception;
      LogMark m{LogMark::Kind::Unknown, static_cast<uint32_t>(f.where.line - 1), core::Severity::Warning, "", "", f.rank};
      m.message = "Unrecognised failure on " + rank_label(f.rank, -1, "") + ": " + logs::describe(f.event, 2048) +
                  " (no encyclopedia entry matches)";
      doc.marks.push_back(std::move(m));
    }
    return doc;
  }
  const logs::Diagnosis& d = doc.report.diagnoses.front();
  LogMark init{LogMark::Kind::Initiator, static_cast<uint32_t>(d.first_error.line ? d.first_error.line - 1 : 0),
               core::Severity::Error, "", d.entry->id, d.initiating_rank};
  init.message = d.entry->title + " (initiating fault: " + rank_label(d.initiating_rank, d.initiating_local_rank, d.initiating_node) + ")";
  if (d.entry->severity == core::Severity::Warning || d.entry->severity == core::Severity::Info) {
    // Only warnings: the run did not fail from it, so it is not an Error in the editor either.
    init.severity = d.entry->severity;
    init.message = d.entry->title + " (" + rank_label(d.initiating_rank, d.initiating_local_rank, d.initiating_node) +
                   "; a warning, not a failure)";
  }
  doc.marks.push_back(std::move(init));
  // One mark per collateral rank (its first matched line): the later symptoms of the same rank add
  // nothing an editor user needs, and a hover on them still explains them.
  std::vector<int> seen;
  for (const auto& c : d.collateral) {
    if (c.where.line == 0 || std::find(seen.begin(), seen.end(), c.rank) != seen.end()) continue;
    seen.push_back(c.rank);
    const core::Entry* ce = find_entry(matcher, c.entry);
    LogMark m{LogMark::Kind::Collateral, static_cast<uint32_t>(c.where.line - 1), core::Severity::Info, "", c.entry, c.rank};
    // Lines of no rank are the launcher's (torchrun's agent, Slurm): no "on rank" for them.
    m.message = (ce ? ce->title : c.entry) + (c.rank >= 0 ? " on " + who(c.rank) : std::string()) + ": collateral of " +
                who(d.initiating_rank) + "'s " + d.entry->title;
    doc.marks.push_back(std::move(m));
  }

  // The innermost frame in the user's code is where the fix usually goes.
  for (auto it = d.traceback.rbegin(); it != d.traceback.rend(); ++it) {
    if (it->line == 0) continue;
    std::string path = resolve ? resolve(it->file) : std::string();
    if (path.empty()) continue;
    SourceMark s;
    s.path = std::move(path);
    s.line = static_cast<uint32_t>(it->line - 1);
    s.function = it->function;
    s.message = source_message(d);
    s.entry = d.entry->id;
    s.log_line = static_cast<uint32_t>(it->log_line ? it->log_line - 1 : 0);
    doc.source = std::move(s);
    break;
  }
  return doc;
}

std::string log_hover(const LogDocument& doc, const logs::Matcher& matcher, uint32_t line, std::string_view line_text) {
  const logs::Diagnosis* d = doc.report.diagnoses.empty() ? nullptr : &doc.report.diagnoses.front();
  for (const auto& m : doc.marks) {
    if (m.line != line) continue;
    if (m.kind == LogMark::Kind::Initiator && d) return initiator_markdown(*d);
    if (m.kind == LogMark::Kind::Unknown)
      return "**Unrecognised failure**\n\n" + m.message +
             "\n\nNo encyclopedia entry matches this error. `denpex signatures list` shows what is known; "
             "an entry of your own in a signature directory teaches Denpex this failure.\n";
  }
  int rank = -1;
  auto entries = entries_on_line(matcher, line_text, &rank);
  for (const auto& m : doc.marks)
    if (m.line == line && m.kind == LogMark::Kind::Collateral) rank = m.rank;
  if (entries.empty()) return {};
  const core::Entry& e = *entries.front();
  std::string out;
  bool symptom = d && (!e.can_initiate() || (rank >= 0 && d->initiating_rank >= 0 && rank != d->initiating_rank) ||
                       (rank < 0 && e.id != d->entry->id));
  if (symptom) {
    out += "**A symptom, not the cause.** " + e.title + " on " + who(rank) + " followed from " +
           who(d->initiating_rank) + "'s " + d->entry->title + " at line " + std::to_string(d->first_error.line) +
           " (`" + d->entry->id + "`).\n\n---\n\n";
  }
  return out + entry_markdown_brief(e);
}

std::string source_mark_hover(const SourceMark& mark, const core::Entry* entry, const logs::Report& report) {
  std::string out = "**" + mark.message + "**\n\nFrom the log's traceback (log line " + std::to_string(mark.log_line + 1) +
                    (mark.function.empty() ? "" : ", in `" + mark.function + "`") + ").\n";
  if (!report.diagnoses.empty()) out += evidence_markdown(report.diagnoses.front());
  if (entry) out += "\n---\n\n" + entry_markdown_brief(*entry);
  return out;
}

}  // namespace denpex::features
