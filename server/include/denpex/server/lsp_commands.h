#pragma once
// `workspace/executeCommand` commands. Pure functions over the engines: no JSON-RPC state, so
// they can be tested and reused without a server.
#include <nlohmann/json.hpp>
#include <string_view>

#include "denpex/logs/matcher.h"

namespace denpex::lsp {

inline constexpr std::string_view kDiagnoseTextCommand = "denpex.diagnoseText";

// The encyclopedia entries whose fingerprints match `text` (a pasted traceback or log excerpt),
// one object per entry in order of first appearance, with the line that matched first.
// A deliberately small precursor of the full diagnosis (causality, confidence ranking).
nlohmann::json diagnose_text(const logs::Matcher& matcher, std::string_view text);

}  // namespace denpex::lsp
