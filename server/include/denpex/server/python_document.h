#pragma once
// A Python file open in an editor: its findings, kept up to date cheaply while it is typed in.
// Each analysis diffs the new text against the text of the previous tree (common prefix and
// suffix), records that as one tree-sitter edit (ts_tree_edit) and reparses incrementally, so a
// keystroke costs a small reparse whatever the client's change events were and however many
// versions latest-wins scheduling skipped. Plus the Markdown and edits the editor features need.
#include <optional>
#include <string>
#include <string_view>

#include "denpex/core/cancel.h"
#include "denpex/core/entry.h"
#include "denpex/core/finding.h"
#include "denpex/python/analyze.h"
#include "denpex/python/parse.h"
#include "denpex/python/rule.h"

namespace denpex::features {

// Not thread-safe: one analysis at a time per document (the scheduler guarantees it).
class PythonDocument {
 public:
  python::Analysis analyze(std::string_view text, const python::AnalyzeOptions& options);
  // Bytes tree-sitter had to treat as changed in the last analysis (the edit's old + new span);
  // the whole text when it parsed from scratch. Lets tests see that reparsing was incremental.
  size_t last_changed_bytes() const { return last_changed_; }

 private:
  std::string text_;  // the text `tree_` was parsed from
  python::Tree tree_;
  size_t last_changed_ = 0;
};

// A rule's page: heading, its documentation, the failure it prevents.
std::string rule_markdown(const python::RuleInfo& rule);
// Hover on a finding: its message, the fix on offer, the rule's doc and the entry in brief.
std::string finding_hover(const core::Finding& finding, const core::Entry* entry);

// `source.fixAll`: the safe fixes of every finding, applied until nothing changes, as one edit
// that replaces only the changed span. Nullopt when there is nothing to fix. Idempotent: the
// result has no safe fix left.
std::optional<core::TextEdit> fix_all_edit(std::string_view source, const python::AnalyzeOptions& options);

// The smallest single replacement turning `before` into `after` (common prefix and suffix kept).
struct Replacement {
  size_t start = 0, old_end = 0, new_end = 0;  // byte offsets; [start, old_end) in `before`
};
Replacement diff_span(std::string_view before, std::string_view after);

}  // namespace denpex::features
