#include "denpex/server/lsp_commands.h"

#include <map>

#include "denpex/logs/scan.h"
#include "denpex/server/entry_render.h"

namespace denpex::lsp {

nlohmann::json diagnose_text(const logs::Matcher& matcher, std::string_view text) {
  nlohmann::json out = nlohmann::json::array();
  std::map<uint32_t, size_t> slot;  // entry -> index in `out`
  for (const auto& hit : logs::scan_text(matcher, text)) {
    const core::Entry& e = matcher.entries()[hit.entry];
    auto [it, fresh] = slot.emplace(hit.entry, out.size());
    if (!fresh) {
      auto& item = out[it->second];
      item["occurrences"] = item["occurrences"].get<int>() + 1;
      if (hit.confidence > item["confidence"].get<double>()) item["confidence"] = hit.confidence;
      continue;
    }
    nlohmann::json captures = nlohmann::json::object();
    for (const auto& [k, v] : hit.captures) captures[k] = v;
    out.push_back({{"id", e.id},
                   {"title", e.title},
                   {"category", e.category},
                   {"severity", core::to_string(e.severity)},
                   {"role", core::to_string(e.role)},
                   {"line", hit.line},
                   {"evidence", hit.text},
                   {"captures", std::move(captures)},
                   {"confidence", hit.confidence},
                   {"occurrences", 1},
                   {"summary", e.summary},
                   {"markdown", features::entry_markdown_brief(e)}});
  }
  return out;
}

}  // namespace denpex::lsp
