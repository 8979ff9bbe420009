#include <algorithm>

#include "denpex/python/rule.h"
#include "denpex/python/rule_list.h"

namespace denpex::python {

void Reporter::report(const core::Range& range, std::string message, std::optional<core::Fix> fix) {
  core::Finding f;
  f.range = range;
  f.code = std::string(rule_.code);
  f.entry = std::string(rule_.entry);
  f.severity = rule_.severity;
  f.message = std::move(message);
  f.fix = std::move(fix);
  out_.push_back(std::move(f));
}

const std::vector<const RuleInfo*>& rules() {
  static const std::vector<const RuleInfo*> sorted = [] {
    std::vector<const RuleInfo*> v;
    for (const auto& e : rule_list()) v.push_back(e.rule);
    std::sort(v.begin(), v.end(), [](const RuleInfo* a, const RuleInfo* b) { return a->code < b->code; });
    return v;
  }();
  return sorted;
}

const RuleInfo* find_rule(std::string_view code_or_name) {
  for (const RuleInfo* r : rules())
    if (r->code == code_or_name || r->name == code_or_name) return r;
  return nullptr;
}

std::string_view rule_stem(const RuleInfo& rule) {
  for (const auto& e : rule_list())
    if (e.rule == &rule) return e.stem;
  return {};
}

namespace edits {

core::TextEdit replace(const Module& m, TSNode n, std::string text) { return {m.range(n), std::move(text)}; }

std::optional<core::TextEdit> add_keyword(const Module& m, const Call& c, std::string_view name, std::string_view value) {
  if (is_null(c.arguments)) return std::nullopt;
  std::string kw = std::string(name) + "=" + std::string(value);
  // After the last real argument (comments inside the list are named nodes too).
  TSNode last{};
  for (uint32_t i = 0; i < ts_node_named_child_count(c.arguments); ++i) {
    TSNode a = ts_node_named_child(c.arguments, i);
    if (kind_of(a) != Kind::Comment) last = a;
  }
  if (is_null(last)) {
    core::Position close = m.end(c.arguments);
    if (close.column == 0) return std::nullopt;
    close.column -= 1;  // before ')'
    return core::TextEdit{{close, close}, kw};
  }
  core::Position after = m.end(last);
  // A one-per-line list with a trailing comma gets the keyword on a line of its own, like the rest.
  TSNode next = ts_node_next_sibling(last);
  if (!is_null(next) && m.text(next) == "," && m.start(last).line != m.end(c.arguments).line) {
    std::string_view line = m.lines().line(m.source(), m.start(last).line);
    std::string indent(line.substr(0, line.find_first_not_of(" \t")));
    core::Position comma_end = m.end(next);
    return core::TextEdit{{comma_end, comma_end}, "\n" + indent + kw + ","};
  }
  return core::TextEdit{{after, after}, ", " + kw};
}

core::TextEdit set_keyword(const Module& m, const Keyword& k, std::string_view value) {
  return {m.range(k.value), std::string(value)};
}

core::Fix fix(std::string title, bool safe, std::vector<core::TextEdit> e) {
  return core::Fix{std::move(title), safe, std::move(e)};
}

}  // namespace edits
}  // namespace denpex::python
