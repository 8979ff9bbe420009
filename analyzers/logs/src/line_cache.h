#pragma once
// What a regex set said about a line, remembered by the line's exact text. Internal to
// analyzers/logs.
//
// Training logs print the same lines again and again (a warning on every step of every rank),
// and each costs a full DFA pass of a few hundred patterns. Lines are looked up by their whole
// text, compared byte for byte, so a hit returns exactly what the set would say: the cache
// changes the cost, never the answer.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace denpex::logs {

class LineCache {
 public:
  static constexpr size_t kSlots = 4096;  // direct-mapped: a newer line replaces an older one
  static constexpr size_t kMaxKey = 1024;  // longer lines are not kept: at most 4 MiB of text

  // The value for `text`: the remembered one, else `compute(text, &value)` (remembered when
  // the line is short enough).
  template <class Compute>
  const std::vector<int>& get(std::string_view text, Compute&& compute) {
    if (text.size() > kMaxKey) {
      compute(text, &scratch_);
      return scratch_;
    }
    if (slots_.empty()) slots_.resize(kSlots);
    const size_t h = std::hash<std::string_view>()(text);
    Slot& s = slots_[h & (kSlots - 1)];
    if (s.filled && s.hash == h && s.key == text) return s.value;
    compute(text, &s.value);
    s.filled = true;
    s.hash = h;
    s.key.assign(text.data(), text.size());
    return s.value;
  }

  // The value remembered for `text`, or nullptr.
  const std::vector<int>* find(std::string_view text) const {
    if (text.size() > kMaxKey || slots_.empty()) return nullptr;
    const size_t h = std::hash<std::string_view>()(text);
    const Slot& s = slots_[h & (kSlots - 1)];
    return s.filled && s.hash == h && s.key == text ? &s.value : nullptr;
  }
  // The value for `text` to add to: the remembered one, else an empty one that replaces what
  // its slot held; nullptr when `text` is too long to keep.
  std::vector<int>* slot(std::string_view text) {
    if (text.size() > kMaxKey) return nullptr;
    if (slots_.empty()) slots_.resize(kSlots);
    const size_t h = std::hash<std::string_view>()(text);
    Slot& s = slots_[h & (kSlots - 1)];
    if (!(s.filled && s.hash == h && s.key == text)) {
      s.filled = true;
      s.hash = h;
      s.key.assign(text.data(), text.size());
      s.value.clear();
    }
    return &s.value;
  }

 private:
  struct Slot {
    bool filled = false;
    size_t hash = 0;
    std::string key;
    std::vector<int> value;
  };
  std::vector<Slot> slots_;
  std::vector<int> scratch_;
};

}  // namespace denpex::logs
