#pragma once
// Streams lines through the Matcher and resolves each fingerprint's context rules
// (`requires`/`excludes` within `window` lines of the same source, `when` over captures).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "denpex/logs/matcher.h"

namespace denpex::logs {

class LineCache;

struct Hit {
  uint32_t source = 0;  // caller's id: a file, a rank within a file, ...
  uint64_t line = 0;    // caller's line number (1-based by convention)
  uint32_t entry = 0;   // index into matcher.entries()
  uint32_t fingerprint = 0;
  double confidence = 0;
  Captures captures;
  std::string text;  // the normalized line, capped at kMaxHitText bytes
  // Later lines of the same source the same advisory fingerprint matched (Scanner::feed): a
  // warning printed on every step is one hit with a count, not one hit per step.
  uint64_t repeats = 0;
  uint64_t last_line = 0;  // the last of them; 0 when there were none
};

class Scanner {
 public:
  static constexpr size_t kMaxHitText = 2048;
  // Beyond this many candidates per entry and source, later ones are counted but not kept.
  static constexpr size_t kMaxHitsPerEntrySource = 64;
  // A fingerprint of a warning or info entry with no context rule and no `when` is summarised:
  // its first hit per source is kept, later lines it matches only count (Hit::repeats). A
  // warning that recurs on every step says nothing new at its hundredth step; errors keep every
  // hit (up to the cap), since where a fatal line recurs can matter (a rank's second timeout).

  explicit Scanner(const Matcher& matcher);
  // Once the Set has answered this many lines no earlier line repeated, answers are also
  // remembered by digit mask (Matcher::digit_blind, which builds a small prefilter at first use):
  // short inputs never pay for it. Read when a Scanner is made; tests set 0 to mask from the start.
  static inline uint64_t mask_after = 4096;
  ~Scanner();

  // `text` is a normalized line with any rank prefix already removed. Lines of one source must
  // come in increasing line order.
  void feed(uint32_t source, uint64_t line, std::string_view text) { feed(source, line, text, ids(text)); }
  // The same, with `ids(text)` already at hand.
  void feed(uint32_t source, uint64_t line, std::string_view text, const std::vector<int>& ids);
  // The pattern ids the matcher's Set reports for `text`, ascending (remembered by text).
  const std::vector<int>& ids(std::string_view text);
  // Hits that satisfy their context rules, in feed order.
  std::vector<Hit> finish();
  // Candidates seen so far, before context rules are resolved (live detection, bookkeeping).
  size_t candidate_count() const { return candidates_.size(); }
  const Hit& candidate(size_t i) const { return candidates_[i].second; }

 private:
  struct Key {
    int pattern;
    uint32_t source;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return std::hash<uint64_t>()((uint64_t(k.pattern) << 32) | k.source); }
  };
  bool near(int pattern, uint32_t source, uint64_t line, int window) const;

  const Matcher& matcher_;
  std::unique_ptr<LineCache> ids_;     // the Set's answer by line text
  std::unique_ptr<LineCache> masked_;  // the same, by Matcher::mask_digits of a digit-blind text
  std::unique_ptr<LineCache> rejected_;  // pattern ids whose `when` turned the text down
  uint64_t misses_ = 0;
  uint64_t mask_after_ = mask_after;
  std::string mask_;
  std::vector<std::pair<uint32_t, uint32_t>> prefilter_hits_;
  std::vector<std::pair<const Matcher::Fp*, Hit>> candidates_;
  std::unordered_map<Key, std::vector<uint64_t>, KeyHash> helper_lines_;
  std::unordered_map<uint64_t, size_t> kept_;  // (entry, source) -> candidates kept
  std::unordered_map<uint64_t, size_t> first_;  // (pattern id, source) -> its summarising candidate
};

}  // namespace denpex::logs

namespace denpex::logs {

// Scans a whole text held in memory (an example, a pasted traceback): lines are normalized,
// launcher rank prefixes become sources (rank r -> source r + 1; unprefixed lines -> source 0),
// line numbers are 1-based.
std::vector<Hit> scan_text(const Matcher& matcher, std::string_view text);

}  // namespace denpex::logs
