#pragma once
// Streams lines through the Matcher and resolves each fingerprint's context rules
// (`requires`/`excludes` within `window` lines of the same source, `when` over captures).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
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
  // Candidates seen so far, before context rules are resolved (live detection, bookkeeping);
  // their `repeats` and `last_line` are only filled in by finish().
  size_t candidate_count() const { return candidates_.size(); }
  const Hit& candidate(size_t i) const { return candidates_[i].second; }

 private:
  bool near(int pattern, uint32_t source, uint64_t line, int window) const;

  // 64-bit keys ((pattern or entry) << 32 | source) to small values, by open addressing: one
  // multiply and mostly one cache line per lookup, where std::unordered_map divides and follows
  // a node (a summarised warning's repeat costs a lookup on every line that prints it).
  template <class V>
  class KeyMap {
   public:
    V* find(uint64_t key) { return const_cast<V*>(std::as_const(*this).find(key)); }
    const V* find(uint64_t key) const {
      if (slots_.empty()) return nullptr;
      for (size_t i = index(key);; i = (i + 1) & (slots_.size() - 1)) {
        if (slots_[i].key == key) return &slots_[i].value;
        if (slots_[i].key == kEmpty) return nullptr;
      }
    }
    V& operator[](uint64_t key) {
      if (V* v = find(key)) return *v;
      if ((used_ + 1) * 4 > slots_.size() * 3) grow();
      size_t i = index(key);
      while (slots_[i].key != kEmpty) i = (i + 1) & (slots_.size() - 1);
      slots_[i].key = key;
      ++used_;
      return slots_[i].value;
    }
    template <class F>
    void for_each(F&& f) {
      for (auto& s : slots_)
        if (s.key != kEmpty) f(s.key, s.value);
    }
    void clear() {
      slots_.clear();
      used_ = 0;
      shift_ = 64;
    }

   private:
    static constexpr uint64_t kEmpty = ~uint64_t(0);  // no key: sources and ids stay below 2^32 - 1
    struct Slot {
      uint64_t key = kEmpty;
      V value{};
    };
    size_t index(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_); }
    void grow() {
      std::vector<Slot> old;
      old.swap(slots_);
      const size_t n = old.empty() ? 64 : old.size() * 2;
      slots_.resize(n);
      shift_ = 64 - static_cast<unsigned>(__builtin_ctzll(n));
      for (auto& s : old)
        if (s.key != kEmpty) {
          size_t i = index(s.key);
          while (slots_[i].key != kEmpty) i = (i + 1) & (n - 1);
          slots_[i] = std::move(s);
        }
    }
    std::vector<Slot> slots_;
    size_t used_ = 0;
    unsigned shift_ = 64;
  };
  // A summarised fingerprint's first hit on a source, and the lines that repeated it since
  // (added to the candidate's Hit at finish(), so that a repeat touches this slot only).
  struct Summary {
    size_t candidate = 0;
    uint64_t repeats = 0;
    uint64_t last_line = 0;
  };

  const Matcher& matcher_;
  std::unique_ptr<LineCache> ids_;     // the Set's answer by line text
  std::unique_ptr<LineCache> masked_;  // the same, by Matcher::mask_digits of a digit-blind text
  std::unique_ptr<LineCache> rejected_;  // pattern ids whose `when` turned the text down
  uint64_t misses_ = 0;
  uint64_t mask_after_ = mask_after;
  std::string mask_;
  std::vector<std::pair<uint32_t, uint32_t>> prefilter_hits_;
  std::vector<std::pair<const Matcher::Fp*, Hit>> candidates_;
  KeyMap<std::vector<uint64_t>> helper_lines_;  // (pattern id, source) -> lines it hit
  KeyMap<size_t> kept_;    // (entry, source) -> candidates kept
  KeyMap<Summary> first_;  // (pattern id, source) -> its summarising candidate
};

}  // namespace denpex::logs

namespace denpex::logs {

// Scans a whole text held in memory (an example, a pasted traceback): lines are normalized,
// launcher rank prefixes become sources (rank r -> source r + 1; unprefixed lines -> source 0),
// line numbers are 1-based.
std::vector<Hit> scan_text(const Matcher& matcher, std::string_view text);

}  // namespace denpex::logs
