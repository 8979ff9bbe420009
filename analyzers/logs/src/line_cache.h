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
  // The table starts small and grows (x4, up to kSlots) once it has computed more values than
  // it has slots: a short input touches a few KiB instead of 4096 slots' worth of fresh pages.
  static constexpr size_t kFirstSlots = 256;

  // The value for `text`: the remembered one, else `compute(text, &value)` (remembered when
  // the line is short enough).
  template <class Compute>
  const std::vector<int>& get(std::string_view text, Compute&& compute) {
    if (text.size() > kMaxKey) {
      compute(text, &scratch_);
      return scratch_;
    }
    const size_t h = std::hash<std::string_view>()(text);
    if (Slot* s = lookup(h, text)) return s->value;
    Slot& s = fresh(h);
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
    const Slot& s = slots_[h & (slots_.size() - 1)];
    return s.filled && s.hash == h && s.key == text ? &s.value : nullptr;
  }
  // The value for `text` to add to: the remembered one, else an empty one that replaces what
  // its slot held; nullptr when `text` is too long to keep.
  std::vector<int>* slot(std::string_view text) {
    if (text.size() > kMaxKey) return nullptr;
    const size_t h = std::hash<std::string_view>()(text);
    if (Slot* s = lookup(h, text)) return &s->value;
    Slot& s = fresh(h);
    s.filled = true;
    s.hash = h;
    s.key.assign(text.data(), text.size());
    s.value.clear();
    return &s.value;
  }

 private:
  struct Slot {
    bool filled = false;
    size_t hash = 0;
    std::string key;
    std::vector<int> value;
  };
  Slot* lookup(size_t h, std::string_view text) {
    if (slots_.empty()) return nullptr;
    Slot& s = slots_[h & (slots_.size() - 1)];
    return s.filled && s.hash == h && s.key == text ? &s : nullptr;
  }
  // The slot a new value for hash `h` goes to (the caller fills it in), growing the table
  // first when it is time.
  Slot& fresh(size_t h) {
    if (slots_.empty()) {
      slots_.resize(kFirstSlots);
    } else if (++computed_ > slots_.size() && slots_.size() < kSlots) {
      std::vector<Slot> old(slots_.size() * 4);
      old.swap(slots_);
      for (auto& o : old)
        if (o.filled) slots_[o.hash & (slots_.size() - 1)] = std::move(o);
      computed_ = 0;
    }
    return slots_[h & (slots_.size() - 1)];
  }

  std::vector<Slot> slots_;
  size_t computed_ = 0;  // values computed since the table last grew
  std::vector<int> scratch_;
};

}  // namespace denpex::logs
