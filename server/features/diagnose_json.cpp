#include "denpex/server/diagnose_render.h"

namespace denpex::features {
namespace {
using nlohmann::json;

json rank_or_null(int r) { return r >= 0 ? json(r) : json(nullptr); }
json str_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }
json location(const logs::Location& l) { return {{"file", l.file}, {"line", l.line}}; }
json frames(const std::vector<logs::StackFrame>& stack) {
  json a = json::array();
  for (const auto& f : stack)
    a.push_back({{"file", f.file}, {"line", f.line}, {"function", f.function}, {"log_line", f.log_line}});
  return a;
}

json diagnosis(const logs::Diagnosis& d) {
  const core::Entry& e = *d.entry;
  json j;
  j["entry"] = e.id;
  j["title"] = e.title;
  j["category"] = e.category;
  j["severity"] = std::string(core::to_string(e.severity));
  j["role"] = std::string(core::to_string(e.role));
  j["failed"] = d.failed;
  j["confidence"] = d.confidence;
  j["summary"] = e.summary;
  j["initiating_rank"] = rank_or_null(d.initiating_rank);
  j["initiating_local_rank"] = rank_or_null(d.initiating_local_rank);
  j["initiating_node"] = str_or_null(d.initiating_node);
  j["first_error"] = location(d.first_error);
  j["first_error"]["text"] = d.first_error_text;
  j["context"] = {{"first_line", d.context_first_line},
                  {"lines", d.context_before},
                  {"error_line", d.first_error_line.empty() ? d.first_error_text : d.first_error_line}};
  j["traceback"] = frames(d.traceback);
  j["chain"] = d.chain;
  json coll = json::array();
  for (const auto& c : d.collateral)
    coll.push_back({{"rank", rank_or_null(c.rank)}, {"entry", c.entry}, {"file", c.where.file}, {"line", c.where.line}});
  j["collateral"] = coll;
  json caps = json::object();
  for (const auto& [k, v] : d.captures) caps[k] = v;
  j["evidence"] = {{"captures", caps}, {"findings", d.findings}};
  j["fix"] = e.fix;
  j["verify"] = e.verify;
  j["verify_command"] = verify_command(d);
  j["related"] = e.related;
  json hyps = json::array();
  for (const auto& h : d.hypotheses)
    hyps.push_back({{"entry", h.entry},
                    {"confidence", h.confidence},
                    {"rank", rank_or_null(h.rank)},
                    {"file", h.where.file},
                    {"line", h.where.line},
                    {"for", h.evidence_for},
                    {"against", h.evidence_against}});
  j["hypotheses"] = hyps;
  return j;
}

}  // namespace

std::string shell_quote(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += ' ';
    const bool plain = !w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                         "@%+=:,./_-") == std::string::npos;
    if (plain) {
      out += w;
      continue;
    }
    out += '\'';
    for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::string verify_command(const logs::Diagnosis& d, const std::string& command) {
  return "denpex run --expect-absent " + d.entry->id + " -- " + (command.empty() ? "<your training command>" : command);
}

nlohmann::json diagnose_json(const logs::Report& report) {
  json j;
  j["schema_version"] = kDiagnoseSchemaVersion;
  json diags = json::array();
  for (const auto& d : report.diagnoses) diags.push_back(diagnosis(d));
  j["diagnoses"] = diags;
  json notes = json::array();
  for (const auto& n : report.notes) {
    json note = location(n.where);
    note["entry"] = n.entry->id;
    note["title"] = n.entry->title;
    note["rank"] = rank_or_null(n.rank);
    note["text"] = n.text;
    notes.push_back(note);
  }
  j["notes"] = notes;
  json inputs = json::array();
  for (const auto& in : report.inputs)
    inputs.push_back({{"file", in.file},
                      {"lines", in.lines},
                      {"bytes", in.bytes},
                      {"rank", rank_or_null(in.rank)},
                      {"node", str_or_null(in.node)},
                      {"binary", in.binary},
                      {"reshaped", str_or_null(in.reshaped)}});
  j["inputs"] = inputs;
  if (report.first_error_line) {
    const auto& f = *report.first_error_line;
    j["first_error_line"] = location(f.where);
    j["first_error_line"]["rank"] = rank_or_null(f.rank);
    j["first_error_line"]["text"] = f.text;
  } else {
    j["first_error_line"] = nullptr;
  }
  if (report.final_exception) {
    const auto& f = *report.final_exception;
    j["final_exception"] = location(f.where);
    j["final_exception"]["rank"] = rank_or_null(f.rank);
    j["final_exception"]["type"] = f.event.type;
    j["final_exception"]["message"] = f.event.message;
    j["final_exception"]["chained"] = str_or_null(f.event.chained);
    j["final_exception"]["cut_off"] = f.event.cut_off;
    j["final_exception"]["traceback"] = frames(f.event.stack);
  } else {
    j["final_exception"] = nullptr;
  }
  if (report.root_cause) {
    const auto& r = report.root_cause->cause;
    j["root_cause"] = location(report.root_cause->where);
    j["root_cause"]["rank"] = rank_or_null(r.rank);
    j["root_cause"]["local_rank"] = rank_or_null(r.local_rank);
    j["root_cause"]["host"] = str_or_null(r.host);
    j["root_cause"]["time"] = str_or_null(r.time);
    j["root_cause"]["exitcode"] = r.has_exitcode ? json(r.exitcode) : json(nullptr);
    j["root_cause"]["signal"] = str_or_null(r.signal);
  } else {
    j["root_cause"] = nullptr;
  }
  j["total_lines"] = report.total_lines;
  j["total_bytes"] = report.total_bytes;
  return j;
}

}  // namespace denpex::features
