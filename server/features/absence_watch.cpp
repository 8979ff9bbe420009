#include "denpex/server/absence_watch.h"

#include "denpex/logs/attribution.h"
#include "denpex/logs/matcher.h"
#include "denpex/logs/normalize.h"
#include "denpex/logs/scan.h"

namespace denpex::features {

// As the diagnoser: a line is examined up to this many bytes.
constexpr size_t kMaxLine = 64 * 1024;

AbsenceWatch::AbsenceWatch(std::vector<core::Entry> entries, std::vector<std::string> streams)
    : entries_(std::move(entries)),
      streams_(std::move(streams)),
      matcher_(std::make_unique<logs::Matcher>(entries_)),
      scanner_(std::make_unique<logs::Scanner>(*matcher_)),
      partial_(streams_.size()),
      lines_(streams_.size(), 0) {}

AbsenceWatch::~AbsenceWatch() = default;

void AbsenceWatch::line(uint32_t stream, std::string_view raw) {
  ++lines_[stream];
  if (raw.size() > kMaxLine) raw = raw.substr(0, kMaxLine);
  logs::normalize_line(raw, norm_);
  logs::Attribution a = logs::attribute_line(norm_);
  scanner_->feed(stream, lines_[stream], a.body(norm_));
}

void AbsenceWatch::feed(uint32_t stream, std::string_view bytes) {
  std::string& part = partial_[stream];
  while (!bytes.empty()) {
    size_t nl = bytes.find('\n');
    if (nl == std::string_view::npos) {
      if (part.size() < kMaxLine) part.append(bytes.substr(0, kMaxLine - part.size()));
      return;
    }
    if (part.empty()) {
      line(stream, bytes.substr(0, nl));
    } else {
      if (part.size() < kMaxLine) part.append(bytes.substr(0, std::min(nl, kMaxLine - part.size())));
      line(stream, part);
      part.clear();
    }
    bytes.remove_prefix(nl + 1);
  }
}

std::vector<Sighting> AbsenceWatch::finish() {
  for (uint32_t s = 0; s < partial_.size(); ++s)
    if (!partial_[s].empty()) {
      line(s, partial_[s]);
      partial_[s].clear();
    }
  std::vector<Sighting> out;
  for (const auto& h : scanner_->finish())
    out.push_back({entries_[h.entry].id, streams_[h.source], h.line, h.text, h.repeats});
  return out;
}

}  // namespace denpex::features
