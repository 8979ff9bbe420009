#pragma once
// A log diagnosis rendered for people (terminal text, a Markdown post-mortem) and for programs
// (JSON, schema in docs/diagnose.md). Pure functions: no I/O, no terminal detection.
#include <nlohmann/json.hpp>
#include <string>

#include "denpex/logs/diagnosis.h"

namespace denpex::features {

constexpr int kDiagnoseSchemaVersion = 1;

nlohmann::json diagnose_json(const logs::Report& report);
// `color`: ANSI styling; `context_lines`: how many preceding lines to print (0: none).
std::string diagnose_text(const logs::Report& report, bool color, size_t context_lines = 10);
std::string diagnose_markdown(const logs::Report& report);

}  // namespace denpex::features
