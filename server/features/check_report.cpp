#include "denpex/server/check_report.h"

#include <cctype>
#include <cstring>

#include <algorithm>
#include <map>

#include "denpex/python/analyze.h"
#include "denpex/python/rule.h"

namespace denpex::features {
namespace {

using nlohmann::json;

std::string_view severity_name(core::Severity s) { return core::to_string(s); }

json position_json(std::string_view source, const core::LineIndex& idx, const core::Range& r, const char* l, const char* c, const char* el,
                   const char* ec) {
  auto b = human_position(source, idx, r.start), e = human_position(source, idx, r.end);
  return json{{l, b.line}, {c, b.column}, {el, e.line}, {ec, e.column}};
}

const char* sarif_level(core::Severity s) {
  switch (s) {
    case core::Severity::Fatal:
    case core::Severity::Error: return "error";
    case core::Severity::Warning: return "warning";
    case core::Severity::Info: return "note";
  }
  return "warning";
}

std::string rule_name(const std::string& code) {
  const python::RuleInfo* r = python::find_rule(code);
  return r ? std::string(r->name) : std::string();
}

// GitHub workflow commands need %, CR, LF escaped in messages, and also : and , in properties.
std::string gh_escape(std::string_view s, bool property) {
  std::string out;
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else if (property && c == ':') out += "%3A";
    else if (property && c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t nl = s.find('\n', pos);
    size_t end = nl == std::string_view::npos ? s.size() : nl + 1;
    out.push_back(s.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

}  // namespace

HumanPosition human_position(std::string_view source, const core::LineIndex& idx, const core::Position& p) {
  size_t line_start = idx.offset({p.line, 0});
  size_t at = idx.offset(p);
  uint32_t col = 0;
  for (size_t i = line_start; i < at; ++i)
    if ((static_cast<unsigned char>(source[i]) & 0xC0) != 0x80) ++col;
  return {p.line + 1, col + 1};
}

std::string check_text(const std::vector<CheckedFile>& files, bool color, bool show_fixes) {
  auto wrap = [&](const char* code, const std::string& s) { return color ? "\x1b[" + std::string(code) + "m" + s + "\x1b[0m" : s; };
  std::string out;
  size_t total = 0, fixable = 0;
  for (const auto& f : files) {
    core::LineIndex idx(f.source);
    for (const auto& d : f.findings) {
      auto p = human_position(f.source, idx, d.range.start);
      ++total;
      bool can_fix = d.fix && d.fix->safe;
      if (can_fix) ++fixable;
      std::string sev(severity_name(d.severity));
      out += wrap("1", f.path) + ":" + std::to_string(p.line) + ":" + std::to_string(p.column) + ": " +
             wrap(d.severity == core::Severity::Info ? "36" : "33", d.code) + (can_fix ? " [*]" : "") + " " +
             d.message + "\n";
      if (show_fixes && d.fix) out += "  fix" + std::string(d.fix->safe ? "" : " (unsafe)") + ": " + d.fix->title + "\n";
    }
  }
  if (total == 0) {
    out += "All checks passed.\n";
  } else {
    out += "Found " + std::to_string(total) + (total == 1 ? " finding" : " findings") + ".";
    if (fixable) out += " " + std::to_string(fixable) + " fixable with `--fix`.";
    out += "\n";
  }
  return out;
}

json check_json_file(const CheckedFile& f) {
  json arr = json::array();
  core::LineIndex idx(f.source);
  for (const auto& d : f.findings) {
    json j = position_json(f.source, idx, d.range, "line", "column", "end_line", "end_column");
    j["file"] = f.path;
    j["code"] = d.code;
    j["name"] = rule_name(d.code);
    j["entry"] = d.entry.empty() ? json(nullptr) : json(d.entry);
    j["severity"] = std::string(severity_name(d.severity));
    j["message"] = d.message;
    if (d.fix) {
      json edits = json::array();
      for (const auto& e : d.fix->edits) {
        json je = position_json(f.source, idx, e.range, "line", "column", "end_line", "end_column");
        je["new_text"] = e.new_text;
        edits.push_back(je);
      }
      j["fix"] = {{"title", d.fix->title}, {"safe", d.fix->safe}, {"edits", edits}};
    } else {
      j["fix"] = nullptr;
    }
    arr.push_back(std::move(j));
  }
  return arr;
}

namespace {

// nlohmann's generic rendering (a json object per finding, then dump()) was ~6% of a check of a
// dense corpus. The fast path writes the same bytes directly: keys in the order nlohmann's
// std::map keeps them (sorted), strings escaped as dump() escapes them. On text dump() would
// reject (invalid UTF-8) it defers to the generic path, which reports the same error.
bool append_json_string(std::string& out, std::string_view s) {
  static const char* hex = "0123456789abcdef";
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (c < 0x20) {
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    // Well-formed UTF-8 only (Unicode Table 3-7), as nlohmann's decoder accepts.
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) n = 1;
    else if (c == 0xE0) n = 2, lo = 0xA0;
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) n = 2;
    else if (c == 0xED) n = 2, hi = 0x9F;
    else if (c == 0xF0) n = 3, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) n = 3;
    else if (c == 0xF4) n = 3, hi = 0x8F;
    else return false;
    if (i + n >= s.size()) return false;
    for (size_t k = 1; k <= n; ++k) {
      auto b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return false;
    }
    out.append(s.substr(i, n + 1));
    i += n + 1;
  }
  out += '"';
  return true;
}

// Line starts as core::LineIndex finds them ("\n", "\r\n" or a lone "\r" ends a line), found with
// memchr when the text has no "\r" (LineIndex's byte loop was a third of the JSON rendering).
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {
    if (std::memchr(text.data(), '\r', text.size())) {
      core::LineIndex idx(text);
      for (size_t i = 0; i < idx.line_count(); ++i) starts_.push_back(idx.offset({static_cast<uint32_t>(i), 0}));
      return;
    }
    starts_.reserve(text.size() / 32 + 2);
    starts_.push_back(0);
    const char* b = text.data();
    for (const char* p = b; (p = static_cast<const char*>(std::memchr(p, '\n', text.size() - static_cast<size_t>(p - b))));) {
      ++p;
      starts_.push_back(static_cast<size_t>(p - b));
    }
  }
  // As human_position(): 1-based line, column in code points (offsets clamped as LineIndex::offset).
  HumanPosition human(const core::Position& p) const {
    size_t line_start = offset({p.line, 0}), at = offset(p);
    uint32_t col = 0;
    for (size_t i = line_start; i < at; ++i)
      if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++col;
    return {p.line + 1, col + 1};
  }

 private:
  size_t offset(core::Position pos) const {
    if (pos.line >= starts_.size()) return text_.size();
    size_t start = starts_[pos.line];
    size_t next = pos.line + 1 < starts_.size() ? starts_[pos.line + 1] : text_.size();
    return std::min(start + pos.column, next);
  }
  std::string_view text_;
  std::vector<size_t> starts_;
};

void append_positions(std::string& out, const Lines& lines, const core::Range& r) {
  auto b = lines.human(r.start), e = lines.human(r.end);
  // Sorted keys: column, end_column, end_line, line.
  out += "\"column\":" + std::to_string(b.column) + ",\"end_column\":" + std::to_string(e.column) +
         ",\"end_line\":" + std::to_string(e.line);
}

bool fast_json_lines(const CheckedFile& f, std::string& out) {
  if (f.findings.empty()) return true;
  Lines idx(f.source);
  std::string_view last_code;
  std::string name;
  for (const auto& d : f.findings) {
    if (!out.empty()) out += ",\n";
    auto b = idx.human(d.range.start);
    if (d.code != last_code) {
      name = rule_name(d.code);
      last_code = d.code;
    }
    out += "  {\"code\":";
    if (!append_json_string(out, d.code)) return false;
    out += ',';
    append_positions(out, idx, d.range);
    out += ",\"entry\":";
    if (d.entry.empty()) out += "null";
    else if (!append_json_string(out, d.entry)) return false;
    out += ",\"file\":";
    if (!append_json_string(out, f.path)) return false;
    out += ",\"fix\":";
    if (d.fix) {
      out += "{\"edits\":[";
      bool first = true;
      for (const auto& e : d.fix->edits) {
        if (!first) out += ',';
        first = false;
        out += '{';
        append_positions(out, idx, e.range);
        out += ",\"line\":" + std::to_string(idx.human(e.range.start).line) + ",\"new_text\":";
        if (!append_json_string(out, e.new_text)) return false;
        out += '}';
      }
      out += d.fix->safe ? "],\"safe\":true,\"title\":" : "],\"safe\":false,\"title\":";
      if (!append_json_string(out, d.fix->title)) return false;
      out += '}';
    } else {
      out += "null";
    }
    out += ",\"line\":" + std::to_string(b.line) + ",\"message\":";
    if (!append_json_string(out, d.message)) return false;
    out += ",\"name\":";
    if (!append_json_string(out, name)) return false;
    out += ",\"severity\":";
    if (!append_json_string(out, severity_name(d.severity))) return false;
    out += '}';
  }
  return true;
}

}  // namespace

std::string check_json_lines_generic(const CheckedFile& f) {
  std::string out;
  for (const auto& j : check_json_file(f)) {
    if (!out.empty()) out += ",\n";
    out += "  " + j.dump();
  }
  return out;
}

std::string check_json_lines(const CheckedFile& f) {
  std::string out;
  if (fast_json_lines(f, out)) return out;
  return check_json_lines_generic(f);
}

std::string join_json_lines(const std::vector<std::string>& chunks) {
  std::string out = "[";
  bool first = true;
  for (const auto& c : chunks) {
    if (c.empty()) continue;
    out += first ? "\n" : ",\n";
    out += c;
    first = false;
  }
  out += first ? "]\n" : "\n]\n";
  return out;
}

json check_json(const std::vector<CheckedFile>& files) {
  json arr = json::array();
  for (const auto& f : files)
    for (auto& j : check_json_file(f)) arr.push_back(std::move(j));
  return arr;
}

// SARIF wants URIs: a relative path is relative to %SRCROOT% (code scanning resolves it against
// the checkout), an absolute one becomes a file:// URI. Both are percent-encoded (RFC 3986).
static json sarif_artifact_location(const std::string& path) {
  static const char* hex = "0123456789ABCDEF";
  std::string uri;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  if (!path.empty() && path[0] == '/') return {{"uri", "file://" + uri}};
  if (uri.rfind("./", 0) == 0) uri.erase(0, 2);
  return {{"uri", uri}, {"uriBaseId", "%SRCROOT%"}};
}

json check_sarif(const std::vector<CheckedFile>& files, const std::string& version) {
  json rules = json::array();
  std::map<std::string, size_t> index;
  for (const python::RuleInfo* r : python::rules()) {
    index[std::string(r->code)] = rules.size();
    json rule = {{"id", std::string(r->code)},
                 {"name", std::string(r->name)},
                 {"shortDescription", {{"text", std::string(r->summary)}}},
                 {"fullDescription", {{"text", std::string(r->summary)}}},
                 {"help", {{"text", std::string(r->doc)}, {"markdown", std::string(r->doc)}}},
                 {"defaultConfiguration", {{"level", sarif_level(r->severity)}}}};
    if (!r->entry.empty()) rule["properties"] = {{"entry", std::string(r->entry)}};
    rules.push_back(std::move(rule));
  }
  json results = json::array();
  for (const auto& f : files) {
    core::LineIndex idx(f.source);
    for (const auto& d : f.findings) {
      json region = position_json(f.source, idx, d.range, "startLine", "startColumn", "endLine", "endColumn");
      json res = {{"ruleId", d.code},
                  {"level", sarif_level(d.severity)},
                  {"message", {{"text", d.message}}},
                  {"locations", json::array({{{"physicalLocation",
                                               {{"artifactLocation", sarif_artifact_location(f.path)}, {"region", region}}}}})}};
      if (index.count(d.code)) res["ruleIndex"] = index[d.code];
      if (d.fix) {
        json replacements = json::array();
        for (const auto& e : d.fix->edits)
          replacements.push_back(
              {{"deletedRegion", position_json(f.source, idx, e.range, "startLine", "startColumn", "endLine", "endColumn")},
               {"insertedContent", {{"text", e.new_text}}}});
        res["fixes"] = json::array({{{"description", {{"text", d.fix->title}}},
                                     {"artifactChanges", json::array({{{"artifactLocation", sarif_artifact_location(f.path)},
                                                                       {"replacements", replacements}}})}}});
      }
      results.push_back(std::move(res));
    }
  }
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", json::array({{{"tool",
                                  {{"driver",
                                    {{"name", "denpex"},
                                     {"version", version},
                                     {"informationUri", "https://github.com/denpex/denpex"},
                                     {"rules", rules}}}}},
                                 {"columnKind", "unicodeCodePoints"},
                                 {"results", results}}})}};
}

std::string check_github(const std::vector<CheckedFile>& files) {
  std::string out;
  for (const auto& f : files) {
    core::LineIndex idx(f.source);
    for (const auto& d : f.findings) {
      auto b = human_position(f.source, idx, d.range.start), e = human_position(f.source, idx, d.range.end);
      const char* level = d.severity == core::Severity::Info ? "notice"
                          : (d.severity == core::Severity::Warning ? "warning" : "error");
      out += std::string("::") + level + " title=" + gh_escape("denpex " + d.code, true) +
             ",file=" + gh_escape(f.path, true) + ",line=" + std::to_string(b.line) + ",col=" +
             std::to_string(b.column) + ",endLine=" + std::to_string(e.line) + ",endColumn=" +
             std::to_string(e.column) + "::" + gh_escape(d.code + " " + d.message, false) + "\n";
    }
  }
  return out;
}

std::string check_statistics(const std::vector<CheckedFile>& files) {
  std::map<std::string, std::pair<size_t, size_t>> counts;
  for (const auto& f : files)
    for (const auto& d : f.findings) {
      auto& c = counts[d.code];
      ++c.first;
      if (d.fix && d.fix->safe) ++c.second;
    }
  std::vector<std::pair<std::string, std::pair<size_t, size_t>>> rows(counts.begin(), counts.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
  std::string out;
  for (const auto& [code, c] : rows) {
    char buf[256];
    std::snprintf(buf, sizeof buf, "%6zu  %-7s %s%s\n", c.first, code.c_str(), c.second ? "[*] " : "",
                  rule_name(code).c_str());
    out += buf;
  }
  return out;
}

std::string unified_diff(const std::string& path, std::string_view before, std::string_view after) {
  auto a = split_lines(before), b = split_lines(after);
  // Myers' O(ND) diff over lines; fixes are small, so D is small.
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size()), max = n + m;
  std::vector<int> v(2 * static_cast<size_t>(max) + 2, 0);
  std::vector<std::vector<int>> trace;
  int d_end = 0;
  for (int d = 0; d <= max; ++d) {
    trace.push_back(v);
    bool found = false;
    for (int k = -d; k <= d; k += 2) {
      auto at = [&](int kk) -> int& { return v[static_cast<size_t>(kk + max + 1)]; };
      int x = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? at(k + 1) : at(k - 1) + 1;
      int y = x - k;
      while (x < n && y < m && a[static_cast<size_t>(x)] == b[static_cast<size_t>(y)]) ++x, ++y;
      at(k) = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
    if (found) {
      d_end = d;
      break;
    }
  }
  // Walk back to an edit script: ' ' keep, '-' delete, '+' insert.
  struct Op {
    char kind;
    int ai, bi;
  };
  std::vector<Op> ops;
  int x = n, y = m;
  for (int d = d_end; d > 0; --d) {
    const auto& pv = trace[static_cast<size_t>(d)];
    auto at = [&](int kk) { return pv[static_cast<size_t>(kk + max + 1)]; };
    int k = x - y;
    int pk = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
    int px = at(pk), py = px - pk;
    while (x > px && y > py) ops.push_back({' ', --x, --y});
    if (x == px) ops.push_back({'+', x, --y});
    else ops.push_back({'-', --x, y});
  }
  while (x > 0 && y > 0) ops.push_back({' ', --x, --y});
  std::reverse(ops.begin(), ops.end());
  if (d_end == 0) return {};

  std::string out = "--- a/" + path + "\n+++ b/" + path + "\n";
  const int ctx = 3;
  size_t i = 0;
  while (i < ops.size()) {
    if (ops[i].kind == ' ') {
      ++i;
      continue;
    }
    size_t start = i >= static_cast<size_t>(ctx) ? i - ctx : 0;
    size_t end = i;
    // Extend while changes are within 2*ctx of each other.
    while (end < ops.size()) {
      if (ops[end].kind != ' ') {
        ++end;
        continue;
      }
      size_t run = end;
      while (run < ops.size() && ops[run].kind == ' ') ++run;
      if (run < ops.size() && run - end <= 2 * static_cast<size_t>(ctx)) end = run;
      else {
        end = std::min(ops.size(), end + ctx);
        break;
      }
    }
    int a0 = ops[start].ai, b0 = ops[start].bi, ac = 0, bc = 0;
    std::string body;
    for (size_t j = start; j < end; ++j) {
      const Op& o = ops[j];
      std::string_view line = o.kind == '+' ? b[static_cast<size_t>(o.bi)] : a[static_cast<size_t>(o.ai)];
      body += o.kind;
      body += line;
      if (line.empty() || line.back() != '\n') body += "\n\\ No newline at end of file\n";
      if (o.kind != '+') ++ac;
      if (o.kind != '-') ++bc;
    }
    out += "@@ -" + std::to_string(ac ? a0 + 1 : a0) + "," + std::to_string(ac) + " +" + std::to_string(bc ? b0 + 1 : b0) +
           "," + std::to_string(bc) + " @@\n" + body;
    i = end;
  }
  return out;
}

std::string rules_markdown() {
  std::string out =
      "# Static rules\n\n"
      "Generated by `denpex check --list-rules --output-format markdown` from each rule's documentation in\n"
      "`analyzers/python/rules/`; do not edit by hand (a test fails when this page is stale).\n\n"
      "Precision: true findings / all findings on the judged corpus of public training repositories\n"
      "(`bench/corpus/`). Opt-in rules run only when\n"
      "their code is selected (`--extend-select DPX005`). PyTorch versions: those under which the harm\n"
      "occurs; each rule's \"Versions\" paragraph cites the source.\n\n"
      "| code | name | default | precision on real code | PyTorch versions | severity | entry | fix | summary |\n"
      "|---|---|---|---|---|---|---|---|---|\n";
  for (const python::RuleInfo* r : python::rules()) {
    bool has_fix = r->doc.find("No automatic fix") == std::string_view::npos;
    out += "| " + std::string(r->code) + " | `" + std::string(r->name) + "` | " + (r->opt_in ? "opt-in" : "on") + " | " +
           (r->precision.empty() ? std::string("-") : std::string(r->precision)) + " | " +
           (r->versions.empty() ? std::string("-") : std::string(r->versions)) + " | " +
           std::string(core::to_string(r->severity)) + " | " +
           (r->entry.empty() ? std::string("-") : "[" + std::string(r->entry) + "](encyclopedia/" + std::string(r->entry) + ".md)") +
           " | " + (has_fix ? "yes" : "-") + " | " + std::string(r->summary) + " |\n";
  }
  for (const python::RuleInfo* r : python::rules()) {
    out += "\n---\n\n# " + std::string(r->code) + " `" + std::string(r->name) + "`\n\n";
    out += std::string(r->summary) + "\n\n";
    out += "Severity: " + std::string(core::to_string(r->severity)) + ". ";
    out += r->needs_torch ? "Only in files that import torch or Lightning." : "In every file.";
    if (!r->entry.empty()) out += " Encyclopedia: `denpex explain " + std::string(r->entry) + "`.";
    out += "\n\n";
    // Rule docs use `##` sections; nest them one level below the rule's heading.
    std::string doc(r->doc);
    out += doc;
    if (!doc.empty() && doc.back() != '\n') out += "\n";
  }
  return out;
}

std::string rules_text() {
  std::string out;
  for (const python::RuleInfo* r : python::rules()) {
    char buf[512];
    std::snprintf(buf, sizeof buf, "%s  %-34s %-7s %s\n", std::string(r->code).c_str(), std::string(r->name).c_str(),
                  std::string(core::to_string(r->severity)).c_str(), std::string(r->summary).c_str());
    out += buf;
  }
  return out;
}

json rules_json() {
  json arr = json::array();
  for (const python::RuleInfo* r : python::rules())
    arr.push_back({{"code", std::string(r->code)},
                   {"name", std::string(r->name)},
                   {"entry", r->entry.empty() ? json(nullptr) : json(std::string(r->entry))},
                   {"severity", std::string(core::to_string(r->severity))},
                   {"summary", std::string(r->summary)},
                   {"needs_torch", r->needs_torch},
                   {"default", !r->opt_in},
                   {"precision", std::string(r->precision)},
                   {"versions", std::string(r->versions)},
                   {"doc", std::string(r->doc)}});
  return arr;
}

}  // namespace denpex::features
