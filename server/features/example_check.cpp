#include "denpex/server/example_check.h"

#include <map>
#include <set>

#include "denpex/logs/scan.h"

namespace denpex::features {

const char* to_string(ExampleResult::Status s) {
  switch (s) {
    case ExampleResult::Status::Validated: return "validated";
    case ExampleResult::Status::Missing: return "missing";
    case ExampleResult::Status::Noisy: return "noisy";
    case ExampleResult::Status::Ambiguous: return "ambiguous";
  }
  return "?";
}

std::vector<ExampleResult> check_examples(const encyclopedia::Library& library, const logs::Matcher& matcher,
                                          const std::vector<std::string>& ids) {
  const auto& entries = library.entries();
  std::set<std::string> wanted(ids.begin(), ids.end());
  std::vector<ExampleResult> out;
  for (uint32_t e = 0; e < entries.size(); ++e) {
    const auto& entry = entries[e];
    if (!wanted.empty() && !wanted.count(entry.id)) continue;
    auto best_per_entry = [&](const std::string& text) {
      std::map<uint32_t, double> best;
      for (const auto& hit : logs::scan_text(matcher, text)) {
        double& b = best[hit.entry];
        b = std::max(b, hit.confidence);
      }
      return best;
    };
    for (size_t i = 0; i < entry.examples_match.size(); ++i) {
      ExampleResult r;
      r.entry = entry.id;
      r.index = i;
      auto best = best_per_entry(entry.examples_match[i]);
      auto self = best.find(e);
      if (self == best.end()) {
        r.status = ExampleResult::Status::Missing;
      } else {
        r.confidence = self->second;
        for (const auto& [other, conf] : best) {
          if (other != e && conf > r.confidence && conf > r.rival_confidence) {
            r.status = ExampleResult::Status::Ambiguous;
            r.rival = entries[other].id;
            r.rival_confidence = conf;
          }
        }
      }
      out.push_back(std::move(r));
    }
    for (size_t i = 0; i < entry.examples_no_match.size(); ++i) {
      ExampleResult r;
      r.entry = entry.id;
      r.positive = false;
      r.index = i;
      auto best = best_per_entry(entry.examples_no_match[i]);
      if (auto self = best.find(e); self != best.end()) {
        r.status = ExampleResult::Status::Noisy;
        r.confidence = self->second;
      }
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace denpex::features
