#include <algorithm>
#include <set>

#include "denpex/logs/normalize.h"
#include "denpex/logs/scan.h"

namespace denpex::logs {

std::vector<Hit> scan_text(const Matcher& matcher, std::string_view text) {
  Scanner scanner(matcher);
  std::string line;
  uint64_t number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    normalize_line(text.substr(pos, end - pos), line);
    ++number;
    uint32_t source = 0;
    std::string_view body = line;
    if (auto prefix = rank_prefix(body)) {
      source = static_cast<uint32_t>(prefix->rank) + 1;
      body.remove_prefix(prefix->length);
    }
    scanner.feed(source, number, body);
    pos = end + 1;
  }
  // The fallback entry for unknown exceptions (tag `fallback`) stands in only for lines no other
  // entry knows: where a known entry hit the same line, its hit is dropped.
  std::vector<Hit> hits = scanner.finish();
  auto fallback = [&](const Hit& h) { return matcher.entries()[h.entry].has_tag("fallback"); };
  std::set<std::pair<uint32_t, uint64_t>> known;
  for (const auto& h : hits)
    if (!fallback(h)) known.insert({h.source, h.line});
  std::erase_if(hits, [&](const Hit& h) { return fallback(h) && known.count({h.source, h.line}); });
  return hits;
}

}  // namespace denpex::logs
