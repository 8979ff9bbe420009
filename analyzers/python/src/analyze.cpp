#include "denpex/python/analyze.h"

#include <algorithm>

#include "denpex/python/rule.h"
#include "suppression.h"

namespace denpex::python {
namespace {

bool matches(const std::vector<std::string>& selectors, std::string_view code) {
  for (const auto& s : selectors)
    if (s == "ALL" || code.substr(0, s.size()) == s) return true;
  return false;
}

// Unused suppressions: a code that suppressed nothing in this run. Only enabled, known rules
// count: a code switched off by configuration is not "unused", and other tools' noqa codes
// are not ours to judge.
void report_unused(const Module& m, const AnalyzeOptions& o, const std::vector<Suppression>& sups,
                   std::vector<core::Finding>& out) {
  const RuleInfo* rule = find_rule(kUnusedSuppression);
  if (!rule || !o.enabled(rule->code)) return;
  Reporter r(*rule, out);
  for (const auto& s : sups) {
    std::vector<std::string> unused;
    size_t ours = 0;
    if (s.all) {
      if (s.noqa || s.used[0]) continue;  // a bare `# noqa` may be for flake8
      unused.push_back("");
    } else {
      for (size_t i = 0; i < s.codes.size(); ++i) {
        bool known = s.codes[i].rfind("DPX", 0) == 0;
        if (!known && s.noqa) continue;
        ++ours;
        if (!s.used[i] && (!find_rule(s.codes[i]) || o.enabled(s.codes[i]))) unused.push_back(s.codes[i]);
      }
      if (unused.empty()) continue;
    }
    std::string what;
    for (const auto& c : unused) what += (what.empty() ? "" : ", ") + c;
    std::string message = what.empty() ? "unused suppression: nothing on this line is reported"
                                       : "unused suppression for " + what +
                                             (unused.size() == 1 && !find_rule(unused[0]) ? " (no such rule)" : "");
    std::optional<core::Fix> fix;
    // Removing the whole comment is safe only when every code in it is ours and unused.
    if (s.all || (unused.size() == s.codes.size() && ours == s.codes.size())) {
      core::Range range = m.range(s.comment);
      std::string_view line = m.lines().line(m.source(), range.start.line);
      uint32_t b = range.start.column;
      while (b > 0 && (line[b - 1] == ' ' || line[b - 1] == '\t')) --b;
      range.start.column = b;
      // A comment alone on its line goes with its line.
      if (b == 0 && range.start.line + 1 < m.lines().line_count()) range.end = {range.start.line + 1, 0};
      fix = edits::fix("Remove the unused suppression comment", true, {{range, ""}});
    }
    r.report(m.range(s.comment), std::move(message), std::move(fix));
  }
}

}  // namespace

bool may_report(const RuleInfo& rule, std::string_view source) {
  if (rule.tokens.empty()) return true;
  // Python identifiers may hold non-ASCII letters: any byte >= 0x80 counts as a word byte.
  auto word = [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u >= 0x80 || u == '_' || (u >= '0' && u <= '9') || ((u | 0x20) >= 'a' && (u | 0x20) <= 'z');
  };
  std::string_view list = rule.tokens;
  while (!list.empty()) {
    size_t sp = list.find(' ');
    std::string_view token = list.substr(0, sp);
    list = sp == std::string_view::npos ? std::string_view() : list.substr(sp + 1);
    bool prefix = !token.empty() && token.back() == '*';
    if (prefix) token.remove_suffix(1);
    if (token.empty()) continue;
    for (size_t p = source.find(token); p != std::string_view::npos; p = source.find(token, p + 1)) {
      size_t end = p + token.size();
      if ((p == 0 || !word(source[p - 1])) && (prefix || end == source.size() || !word(source[end]))) return true;
    }
  }
  return false;
}

bool may_have_findings(std::string_view source, const AnalyzeOptions& options) {
  // Module::imports_torch() is true only for an import whose text names torch, lightning or
  // pytorch_lightning.
  bool torch_text = source.find("torch") != std::string_view::npos || source.find("lightning") != std::string_view::npos;
  for (const RuleInfo* r : rules()) {
    // DPX100 has no check of its own: it reports the suppressions that the other rules left unused.
    bool runs = r->check || r->code == kUnusedSuppression;
    if (!runs || (r->needs_torch && !torch_text) || !options.enabled(r->code)) continue;
    if (may_report(*r, source)) return true;
  }
  return false;
}

bool may_have_findings(std::string_view source) { return may_have_findings(source, AnalyzeOptions{}); }

bool AnalyzeOptions::enabled(std::string_view code) const {
  const RuleInfo* rule = find_rule(code);
  if (rule && rule->opt_in) {
    // Like ruff's preview rules: no prefix (not "ALL", not "DPX") turns an opt-in rule on.
    if (std::find(select.begin(), select.end(), code) == select.end()) return false;
  } else if (!select.empty() && !matches(select, code)) {
    return false;
  }
  return !matches(ignore, code);
}

Analysis analyze(const Module& m, const AnalyzeOptions& o) {
  Analysis a;
  if (!m.tree()) return a;
  a.syntax_errors = m.tree().has_error();
  for (const RuleInfo* rule : rules()) {
    if (o.cancel && o.cancel->cancelled()) return a;
    if (!rule->check || !o.enabled(rule->code)) continue;
    if (rule->needs_torch && !m.imports_torch()) continue;
    if (!may_report(*rule, m.source())) continue;
    Reporter r(*rule, a.findings);
    rule->check(m, r);
  }
  auto sups = read_suppressions(m);
  apply_suppressions(sups, a.findings);
  report_unused(m, o, sups, a.findings);
  for (auto& f : a.findings) {
    auto it = o.severity.find(f.code);
    if (it != o.severity.end()) f.severity = it->second;
  }
  std::stable_sort(a.findings.begin(), a.findings.end(), [](const core::Finding& x, const core::Finding& y) {
    if (x.range.start != y.range.start) return x.range.start < y.range.start;
    return x.code < y.code;
  });
  return a;
}

Analysis analyze(std::string_view source, const AnalyzeOptions& o) {
  Module m(source);
  return analyze(m, o);
}

}  // namespace denpex::python
