#pragma once
// Runs the rules over one file: rule selection, severity overrides, `# denpex: ignore[...]` /
// `# noqa: ...` suppression (line and file level), unused-suppression reporting, and applying
// fixes. Pure: text in, findings or text out; thread-safe.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "denpex/core/cancel.h"
#include "denpex/core/finding.h"
#include "denpex/python/module.h"

namespace denpex::python {

inline constexpr std::string_view kUnusedSuppression = "DPX100";

struct AnalyzeOptions {
  // Codes or code prefixes ("DPX0", "ALL"); empty `select` means every default rule. An opt-in
  // rule (RuleInfo::opt_in) runs only when its exact code is listed.
  std::vector<std::string> select;
  std::vector<std::string> ignore;
  std::map<std::string, core::Severity, std::less<>> severity;
  const core::CancelToken* cancel = nullptr;

  bool enabled(std::string_view code) const;
};

struct Analysis {
  std::vector<core::Finding> findings;  // sorted by position, then code
  bool syntax_errors = false;           // the tree has ERROR or MISSING nodes
};

// False when no finding is possible in `source`, decided from its bytes alone, without parsing:
// no enabled rule can report (a rule that needs torch where the text names neither `torch` nor
// `lightning`; a rule none of whose RuleInfo::tokens occurs) and no `denpex:`/`DPX...` suppression
// exists to be reported unused. When false, analyze(source, options) returns no findings; callers
// that only need findings skip it (most files of a tree: on the judged corpus, ~40% of them).
bool may_have_findings(std::string_view source, const AnalyzeOptions& options);
bool may_have_findings(std::string_view source);  // with the default rules

Analysis analyze(const Module& module, const AnalyzeOptions& options = {});
Analysis analyze(std::string_view source, const AnalyzeOptions& options = {});

struct FixOutcome {
  std::string text;
  int applied = 0;  // fixes applied
};

// Applies the fixes of `findings` to `source` (safe ones, plus unsafe ones when asked). Fixes whose
// edits overlap an already chosen fix are skipped; they can apply on the next round.
FixOutcome apply_fixes(std::string_view source, const std::vector<core::Finding>& findings, bool unsafe);
// Analyses and fixes until nothing more applies (at most a few rounds), as `denpex check --fix`.
FixOutcome fix_all(std::string_view source, const AnalyzeOptions& options, bool unsafe);

// The edit that silences `finding` with `# denpex: ignore[CODE]` on its line: the code joins an
// existing `# denpex: ignore[...]` list there, else the comment is appended (after any comment
// already on the line). A line that ends in a `\` continuation cannot take a comment, so the
// finding's last line is used instead. Nullopt when the finding is already suppressed there.
std::optional<core::TextEdit> suppression_edit(const Module& module, const core::Finding& finding);

}  // namespace denpex::python
