#include <cstdio>

#include "denpex/server/diagnose_render.h"
#include "denpex/server/entry_render.h"
#include "denpex/server/log_document.h"

namespace denpex::features {
namespace {

struct Paint {
  bool on;
  std::string wrap(const char* code, const std::string& s) const {
    return on ? "\x1b[" + std::string(code) + "m" + s + "\x1b[0m" : s;
  }
  std::string bold(const std::string& s) const { return wrap("1", s); }
  std::string dim(const std::string& s) const { return wrap("2", s); }
  std::string red(const std::string& s) const { return wrap("31", s); }
  std::string yellow(const std::string& s) const { return wrap("33", s); }
  std::string green(const std::string& s) const { return wrap("32", s); }
};


std::string percent(double c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%d%%", static_cast<int>(c * 100 + 0.5));
  return buf;
}

}  // namespace

// A paste that was put back into printed lines before reading (paste_repair.h) says so: its
// line numbers are the paste's, and a reader should know the tool saw it rejoined.
std::string reshape_notes(const logs::Report& report, const Paint& p) {
  std::string out;
  for (const auto& in : report.inputs)
    if (!in.reshaped.empty()) out += p.dim("Read " + in.file + " as printed: " + in.reshaped + ".") + "\n";
  return out;
}

std::string diagnose_text(const logs::Report& report, bool color, size_t context_lines, const std::string& command) {
  Paint p{color};
  std::string out;
  if (report.diagnoses.empty()) {
    // Notes list a cancellation first.
    if (!report.notes.empty() && report.notes.front().entry->has_tag("cancellation"))
      out += p.green("No failure found") + " in " + std::to_string(report.total_lines) +
             " lines: the run was stopped from outside, not by an error of its own.\n";
    else
      out += p.green("No known failure found") + " in " + std::to_string(report.total_lines) + " lines.\n";
    out += reshape_notes(report, p);
    if (report.first_error_line)
      out += "\nFirst error-looking line (" + report.first_error_line->where.file + ":" +
             std::to_string(report.first_error_line->where.line) + "):\n  " + report.first_error_line->text + "\n";
    if (report.final_exception) {
      const auto& f = *report.final_exception;
      out += "\nFinal exception (" + f.where.file + ":" + std::to_string(f.where.line) + "):\n  " + logs::describe(f.event, 2048) + "\n";
    }
    if (!report.notes.empty()) {
      out += "\n" + p.bold("Known messages, not failures") + "\n";
      for (const auto& n : report.notes)
        out += "  " + n.where.file + ":" + std::to_string(n.where.line) + "  " + n.entry->title + "  " +
               p.dim("(" + n.entry->id + (n.rank >= 0 ? ", rank " + std::to_string(n.rank) : "") + ")") + "\n    " +
               n.text + "\n";
      out += "\n`denpex explain " + report.notes.front().entry->id + "` says what it means and what to check.\n";
    } else if (report.first_error_line || report.final_exception) {
      out += "\nNo encyclopedia entry matches; `denpex signatures list` shows what is known.\n";
    }
    return out;
  }
  const auto& d = report.diagnoses.front();
  const core::Entry& e = *d.entry;
  out += p.red(p.bold("Diagnosis: " + e.title)) + "  " + p.dim("(" + e.id + ", confidence " + percent(d.confidence) + ")") + "\n";
  out += "Initiating fault: " + p.bold(rank_label(d.initiating_rank, d.initiating_local_rank, d.initiating_node)) + "\n";
  out += "First error: " + d.first_error.file + ":" + std::to_string(d.first_error.line) + "\n";
  if (context_lines > 0 && !d.context_before.empty()) {
    // A repaired paste's lines are not the paste's lines one for one: they go unnumbered.
    const bool reshaped = std::any_of(report.inputs.begin(), report.inputs.end(), [&](const logs::InputSummary& in) {
      return in.file == d.first_error.file && !in.reshaped.empty();
    });
    size_t skip = d.context_before.size() > context_lines ? d.context_before.size() - context_lines : 0;
    for (size_t i = skip; i < d.context_before.size(); ++i)
      out += p.dim("  " + (reshaped ? std::string("  ") : std::to_string(d.context_first_line + i)) + " | " +
                   d.context_before[i]) + "\n";
  }
  const std::string& shown = d.first_error_line.empty() ? d.first_error_text : d.first_error_line;
  out += p.yellow("> " + std::to_string(d.first_error.line) + " | " + shown) + "\n";
  out += reshape_notes(report, p);
  if (!e.summary.empty()) out += "\n" + p.bold("What broke") + "\n" + indent_block(e.summary, "  ");
  if (!d.chain.empty()) {
    out += "\n" + p.bold("Causal chain") + "\n";
    for (size_t i = 0; i < d.chain.size(); ++i) out += "  " + std::to_string(i + 1) + ". " + d.chain[i] + "\n";
  }
  if (!d.findings.empty() || !d.captures.empty()) {
    out += "\n" + p.bold("Evidence") + "\n";
    for (const auto& f : d.findings) out += "  - " + f + "\n";
    if (d.findings.empty())
      for (const auto& [k, v] : d.captures) out += "  - " + k + ": " + v + "\n";
  }
  if (!d.collateral.empty()) {
    out += "\n" + p.bold("Collateral") + " " + p.dim("(symptoms that followed, not causes)") + "\n";
    size_t shown = 0;
    for (const auto& c : d.collateral) {
      if (++shown > 12) {
        out += "  ... and " + std::to_string(d.collateral.size() - 12) + " more\n";
        break;
      }
      out += "  - " + (c.rank >= 0 ? "rank " + std::to_string(c.rank) : std::string("unranked")) + ": " + c.entry +
             " (" + c.where.file + ":" + std::to_string(c.where.line) + ")\n";
    }
  }
  if (d.hypotheses.size() > 1) {
    out += "\n" + p.bold("Other hypotheses") + "\n";
    for (size_t i = 1; i < d.hypotheses.size(); ++i) {
      const auto& h = d.hypotheses[i];
      out += "  - " + h.entry + " (" + percent(h.confidence) + ")";
      if (!h.evidence_against.empty()) out += ": against: " + h.evidence_against.front();
      out += "\n";
    }
  }
  if (!e.fix.empty()) out += "\n" + p.bold("Fix") + "\n" + indent_block(e.fix, "  ");
  out += "\n" + p.bold("Verify") + "\n" + (e.verify.empty() ? "" : indent_block(e.verify, "  ")) +
         "  Check the fix: " + verify_command(d, command) + "\n";
  if (!e.related.empty()) {
    out += "\n" + p.dim("Related:");
    for (const auto& r : e.related) out += " " + r;
    out += "\n";
  }
  out += p.dim("More: denpex explain " + e.id) + "\n";
  return out;
}

std::string diagnose_markdown(const logs::Report& report) {
  std::string out = "# Post-mortem: ";
  if (report.diagnoses.empty()) {
    out += "no known failure found\n\n";
    out += "Scanned " + std::to_string(report.total_lines) + " lines in " + std::to_string(report.inputs.size()) + " input(s).\n";
    if (report.first_error_line)
      out += "\nFirst error-looking line (`" + report.first_error_line->where.file + ":" +
             std::to_string(report.first_error_line->where.line) + "`):\n\n```\n" + report.first_error_line->text + "\n```\n";
    if (report.final_exception)
      out += "\nFinal exception: `" + logs::describe(report.final_exception->event, 2048) + "`\n";
    return out;
  }
  const auto& d = report.diagnoses.front();
  const core::Entry& e = *d.entry;
  out += e.title + "\n\n";
  out += "| | |\n|---|---|\n";
  out += "| Diagnosis | `" + e.id + "` (" + e.category + ") |\n";
  out += "| Confidence | " + percent(d.confidence) + " |\n";
  out += "| Initiating | " + rank_label(d.initiating_rank, d.initiating_local_rank, d.initiating_node) + " |\n";
  out += "| First error | `" + d.first_error.file + ":" + std::to_string(d.first_error.line) + "` |\n";
  out += "| Collateral | " + std::to_string(d.collateral.size()) + " rank/entry pairs |\n\n";
  if (!e.summary.empty()) out += "## What broke\n\n" + e.summary + "\n";
  out += "## First error\n\n```\n";
  size_t skip = d.context_before.size() > 20 ? d.context_before.size() - 20 : 0;
  for (size_t i = skip; i < d.context_before.size(); ++i) out += d.context_before[i] + "\n";
  out += (d.first_error_line.empty() ? d.first_error_text : d.first_error_line) + "\n```\n\n";
  if (!d.chain.empty()) {
    out += "## Timeline\n\n";
    for (size_t i = 0; i < d.chain.size(); ++i) out += std::to_string(i + 1) + ". " + d.chain[i] + "\n";
    out += "\n";
  }
  if (!d.findings.empty()) {
    out += "## Evidence\n\n";
    for (const auto& f : d.findings) out += "- " + f + "\n";
    out += "\n";
  }
  if (d.hypotheses.size() > 1) {
    out += "## Hypotheses considered\n\n| entry | confidence | for | against |\n|---|---|---|---|\n";
    for (const auto& h : d.hypotheses) {
      std::string f, a;
      for (const auto& s : h.evidence_for) f += (f.empty() ? "" : "; ") + s;
      for (const auto& s : h.evidence_against) a += (a.empty() ? "" : "; ") + s;
      out += "| `" + h.entry + "` | " + percent(h.confidence) + " | " + f + " | " + a + " |\n";
    }
    out += "\n";
  }
  if (!e.fix.empty()) out += "## Fix\n\n" + e.fix + "\n";
  out += "## Verify\n\n" + (e.verify.empty() ? "" : e.verify + "\n") + "Check the fix:\n\n```sh\n" + verify_command(d) + "\n```\n";
  out += "\n_Generated by `denpex diagnose`; details: `denpex explain " + e.id + "`._\n";
  return out;
}

}  // namespace denpex::features
