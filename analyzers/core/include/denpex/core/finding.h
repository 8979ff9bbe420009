#pragma once
// What the static analyzers report: a range in a file, a rule code, and an optional fix.
#include <optional>
#include <string>
#include <vector>

#include "denpex/core/entry.h"
#include "denpex/core/text.h"

namespace denpex::core {

struct TextEdit {
  Range range;
  std::string new_text;
};

struct Fix {
  std::string title;
  bool safe = true;  // safe fixes never change behaviour beyond the rule's intent; `--fix` applies only these
  std::vector<TextEdit> edits;
};

struct Finding {
  Range range;
  std::string code;   // "DPX001"
  std::string entry;  // encyclopedia entry id, may be empty
  Severity severity = Severity::Warning;
  std::string message;
  std::optional<Fix> fix;
};

}  // namespace denpex::core
