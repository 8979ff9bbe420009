#pragma once
// A static rule: its stable code, its documentation (the one source for `--list-rules`,
// docs/rules.md and hover), and its check. One rule per file under analyzers/python/rules/, each
// ending in DENPEX_RULE(stem) { ... };
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "denpex/core/finding.h"
#include "denpex/python/module.h"

namespace denpex::python {

class Reporter;

struct RuleInfo {
  std::string_view code;      // "DPX001": stable, never reused
  std::string_view name;      // "checkpoint-use-reentrant-true": for humans and config
  std::string_view entry;     // encyclopedia entry id, or empty
  core::Severity severity;
  std::string_view summary;   // one line
  std::string_view doc;       // Markdown: What it does / Why it matters / Example / Fix and its safety
  bool needs_torch;           // silent in files that import neither torch nor lightning
  void (*check)(const Module&, Reporter&);
  // Opt-in ("preview") rules run only when a `--select`/`select` entry names their exact code
  // (`--select DPX,DPX005`): their precision on real code is below the default set's bar (0.9).
  bool opt_in;
  // Measured precision on the judged corpus (bench/corpus/judgments.tsv), e.g. "1.00 (13/13)".
  std::string_view precision;
  // Identifiers of which at least one must occur in the file's text (as a whole word; "name*" as a
  // word start) for the rule to report anything, e.g. "load" for a rule about `torch.load`: a call
  // resolves to a qualified name only through an import or attribute that spells its last part.
  // Files with none of the enabled rules' identifiers are not parsed. Empty: no such bound.
  std::string_view tokens;
  // The PyTorch versions under which the harm occurs, in short ("2.0+ (torch.compile)"); the doc's
  // "Versions:" paragraph gives the source.
  std::string_view versions;
};

// Whether `source` contains one of `rule.tokens` (true when the rule declares none).
bool may_report(const RuleInfo& rule, std::string_view source);

// Collects one rule's findings, filling in code, entry and severity.
class Reporter {
 public:
  Reporter(const RuleInfo& rule, std::vector<core::Finding>& out) : rule_(rule), out_(out) {}
  void report(const core::Range& range, std::string message, std::optional<core::Fix> fix = std::nullopt);
  const RuleInfo& rule() const { return rule_; }

 private:
  const RuleInfo& rule_;
  std::vector<core::Finding>& out_;
};

// Every rule, ordered by code.
const std::vector<const RuleInfo*>& rules();
const RuleInfo* find_rule(std::string_view code_or_name);
// The rule's file name under analyzers/python/rules/ (without .cpp): names its test fixtures.
std::string_view rule_stem(const RuleInfo& rule);

// Edit builders shared by rules' fixes.
namespace edits {
core::TextEdit replace(const Module& m, TSNode n, std::string text);
// Adds `name=value` as the last argument of a call. Null when the call has no argument list.
std::optional<core::TextEdit> add_keyword(const Module& m, const Call& c, std::string_view name, std::string_view value);
// Replaces a keyword's value, respecting `**{"k": v}` syntax.
core::TextEdit set_keyword(const Module& m, const Keyword& k, std::string_view value);
core::Fix fix(std::string title, bool safe, std::vector<core::TextEdit> edits);
}  // namespace edits

}  // namespace denpex::python

// Defines the registered rule object for analyzers/python/rules/<stem>.cpp. CMake generates the
// list that references every `denpex_rule_<stem>` (see analyzers/python/CMakeLists.txt).
#define DENPEX_RULE(stem)                                        \
  extern const ::denpex::python::RuleInfo denpex_rule_##stem;   \
  const ::denpex::python::RuleInfo denpex_rule_##stem =
