#include "denpex/server/python_document.h"

#include <algorithm>
#include <cstring>

#include "denpex/python/module.h"
#include "denpex/server/entry_render.h"

namespace denpex::features {
namespace {

TSPoint point_at(std::string_view text, size_t offset) {
  // Rows and byte columns as tree-sitter counts them: only '\n' ends a row.
  uint32_t row = 0;
  size_t line_start = 0;
  const char* p = text.data();
  const char* end = p + offset;
  while (const void* nl = p < end ? std::memchr(p, '\n', static_cast<size_t>(end - p)) : nullptr) {
    ++row;
    p = static_cast<const char*>(nl) + 1;
    line_start = static_cast<size_t>(p - text.data());
  }
  return TSPoint{row, static_cast<uint32_t>(offset - line_start)};
}

}  // namespace

Replacement diff_span(std::string_view before, std::string_view after) {
  size_t n = std::min(before.size(), after.size());
  size_t pre = 0;
  while (pre < n && before[pre] == after[pre]) ++pre;
  size_t suf = 0;
  while (suf < n - pre && before[before.size() - 1 - suf] == after[after.size() - 1 - suf]) ++suf;
  return {pre, before.size() - suf, after.size() - suf};
}

python::Analysis PythonDocument::analyze(std::string_view text, const python::AnalyzeOptions& options) {
  // Same shortcut as `denpex check`, so the editor shows exactly what the CLI reports.
  if (!python::may_have_findings(text, options)) {
    last_changed_ = 0;
    return {};
  }
  if (tree_) {
    Replacement r = diff_span(text_, text);
    TSInputEdit e{};
    e.start_byte = static_cast<uint32_t>(r.start);
    e.old_end_byte = static_cast<uint32_t>(r.old_end);
    e.new_end_byte = static_cast<uint32_t>(r.new_end);
    e.start_point = point_at(text_, r.start);
    e.old_end_point = point_at(text_, r.old_end);
    e.new_end_point = point_at(text, r.new_end);
    tree_.edit(e);
    last_changed_ = (r.old_end - r.start) + (r.new_end - r.start);
    tree_ = python::parse(text, &tree_);
  } else {
    last_changed_ = text.size();
    tree_ = python::parse(text);
  }
  text_.assign(text);
  // The Module reads the tree (shared, not copied) and `text_`, which stays as it is until the
  // next analysis of this document.
  python::Module module(text_, tree_);
  return python::analyze(module, options);
}

std::string rule_markdown(const python::RuleInfo& r) {
  std::string out = "### " + std::string(r.code) + " " + std::string(r.name) + "\n\n" + std::string(r.doc);
  if (!out.empty() && out.back() != '\n') out += '\n';
  if (!r.entry.empty()) out += "\nThe failure it prevents: `denpex explain " + std::string(r.entry) + "`\n";
  return out;
}

std::string finding_hover(const core::Finding& f, const core::Entry* entry) {
  std::string out = "**" + f.code + "**: " + f.message + "\n";
  if (f.fix) out += "\nFix available: " + f.fix->title + (f.fix->safe ? " (safe)" : " (unsafe: review the change)") + "\n";
  if (const python::RuleInfo* r = python::find_rule(f.code)) out += "\n---\n\n" + rule_markdown(*r);
  if (entry) out += "\n---\n\n" + entry_markdown_brief(*entry);
  return out;
}

std::optional<core::TextEdit> fix_all_edit(std::string_view source, const python::AnalyzeOptions& options) {
  python::FixOutcome fixed = python::fix_all(source, options, /*unsafe=*/false);
  if (fixed.applied == 0 || fixed.text == source) return std::nullopt;
  Replacement r = diff_span(source, fixed.text);
  core::LineIndex index(source);
  return core::TextEdit{{index.position(r.start), index.position(r.old_end)}, fixed.text.substr(r.start, r.new_end - r.start)};
}

}  // namespace denpex::features
