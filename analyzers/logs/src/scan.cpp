#include "denpex/logs/scan.h"

#include <algorithm>

#include "line_cache.h"

namespace denpex::logs {

Scanner::Scanner(const Matcher& matcher)
    : matcher_(matcher),
      ids_(std::make_unique<LineCache>()),
      masked_(std::make_unique<LineCache>()),
      rejected_(std::make_unique<LineCache>()) {}
Scanner::~Scanner() = default;

const std::vector<int>& Scanner::ids(std::string_view text) {
  return ids_->get(text, [&](std::string_view t, std::vector<int>* out) {
    // Not seen as it is. A line seen before but for its digits (a clock, a step, a rank) gets
    // the same answer when the matcher says no pattern could tell them apart (digit_blind).
    if (misses_ < mask_after_ || t.size() > LineCache::kMaxKey) {
      ++misses_;
      matcher_.match(t, out);
      return;
    }
    if (std::none_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        !matcher_.digit_blind(t, &prefilter_hits_)) {
      matcher_.match(t, out);
      return;
    }
    Matcher::mask_digits(t, &mask_);
    *out = masked_->get(mask_, [&](std::string_view, std::vector<int>* v) { matcher_.match(t, v); });
  });
}

void Scanner::feed(uint32_t source, uint64_t line, std::string_view text, const std::vector<int>& ids) {
  for (int id : ids) {
    const Matcher::Fp* fp = matcher_.fingerprint(id);
    if (fp == nullptr) {
      // requires/excludes helper: remember where it hit. Consecutive duplicates carry no news.
      auto& lines = helper_lines_[(uint64_t(uint32_t(id)) << 32) | source];
      if (lines.empty() || lines.back() != line) lines.push_back(line);
      continue;
    }
    const core::Entry& entry = matcher_.entries()[fp->entry];
    const auto& def = entry.fingerprints[fp->index];
    // A minor entry repeated is news once; a per-worker report (tag `per-worker`) says something
    // new on each line.
    const bool summarised = entry.severity != core::Severity::Fatal && entry.severity != core::Severity::Error &&
                            fp->requires_id < 0 && fp->excludes_id < 0 && !fp->when &&
                            !entry.has_tag("per-worker");
    const uint64_t first_key = (uint64_t(uint32_t(id)) << 32) | source;
    if (summarised) {
      if (Summary* first = first_.find(first_key)) {
        ++first->repeats;
        first->last_line = line;
        continue;
      }
    }
    auto& kept = kept_[(uint64_t(fp->entry) << 32) | source];
    if (kept >= kMaxHitsPerEntrySource) continue;
    // Whether a `when` holds depends on the text alone: a text it turned down (a loss scale
    // overflow that is not yet a collapse, printed on every step) is turned down again unmatched.
    if (fp->when)
      if (const std::vector<int>* r = rejected_->find(text); r && std::find(r->begin(), r->end(), id) != r->end())
        continue;
    Hit hit;
    hit.source = source;
    hit.line = line;
    hit.entry = fp->entry;
    hit.fingerprint = fp->index;
    hit.confidence = def.confidence;
    if (!matcher_.extract(*fp, text, &hit.captures) || (fp->when && !fp->when->evaluate(hit.captures))) {
      if (fp->when)
        if (std::vector<int>* r = rejected_->slot(text)) r->push_back(id);
      continue;
    }
    hit.text = std::string(text.substr(0, kMaxHitText));
    ++kept;
    if (summarised) first_[first_key].candidate = candidates_.size();
    candidates_.push_back({fp, std::move(hit)});
  }
}

bool Scanner::near(int pattern, uint32_t source, uint64_t line, int window) const {
  const std::vector<uint64_t>* found = helper_lines_.find((uint64_t(uint32_t(pattern)) << 32) | source);
  if (found == nullptr) return false;
  const auto& lines = *found;
  uint64_t lo = line > uint64_t(window) ? line - uint64_t(window) : 0;
  auto pos = std::lower_bound(lines.begin(), lines.end(), lo);
  return pos != lines.end() && *pos <= line + uint64_t(window);
}

std::vector<Hit> Scanner::finish() {
  first_.for_each([&](uint64_t, Summary& s) {
    Hit& first = candidates_[s.candidate].second;
    first.repeats = s.repeats;
    first.last_line = s.last_line;
  });
  std::vector<Hit> out;
  for (auto& [fp, hit] : candidates_) {
    const auto& def = matcher_.entries()[hit.entry].fingerprints[hit.fingerprint];
    if (fp->requires_id >= 0 && !near(fp->requires_id, hit.source, hit.line, def.window)) continue;
    if (fp->excludes_id >= 0 && near(fp->excludes_id, hit.source, hit.line, def.window)) continue;
    out.push_back(std::move(hit));
  }
  candidates_.clear();
  helper_lines_.clear();
  kept_.clear();
  first_.clear();
  return out;
}

}  // namespace denpex::logs
