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
  return scanner.finish();
}

}  // namespace denpex::logs
