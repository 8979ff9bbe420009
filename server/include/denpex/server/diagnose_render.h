#pragma once
// A log diagnosis rendered for people (terminal text, a Markdown post-mortem) and for programs
// (JSON, schema in docs/diagnose.md). Pure functions: no I/O, no terminal detection.
#include <nlohmann/json.hpp>
#include <string>

#include "denpex/logs/diagnosis.h"

namespace denpex::features {

constexpr int kDiagnoseSchemaVersion = 1;

nlohmann::json diagnose_json(const logs::Report& report);
// `color`: ANSI styling; `context_lines`: how many preceding lines to print (0: none);
// `command`: the training command, shell-quoted, when known (`denpex run`), for the verify line.
std::string diagnose_text(const logs::Report& report, bool color, size_t context_lines = 10,
                          const std::string& command = "");

// The command that checks a fix of this diagnosis: `denpex run --expect-absent ENTRY -- CMD`,
// with `<your training command>` when the command is not known.
std::string verify_command(const logs::Diagnosis& d, const std::string& command = "");
// `a b` -> `a b`, `it's` -> `'it'\''s'`: words as a POSIX shell reads them back.
std::string shell_quote(const std::vector<std::string>& words);
std::string diagnose_markdown(const logs::Report& report);

}  // namespace denpex::features
