#pragma once
// Every fingerprint of the library in one unanchored RE2::Set: one pass per line finds which
// patterns hit; only those are re-run with their own RE2 to pull named captures. A
// fingerprint's own RE2 is compiled the first time the Set reports it (most never hit), once,
// under std::call_once: a constructed Matcher is safe to share between threads.
#include <re2/re2.h>
#include <re2/set.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "denpex/core/condition.h"
#include "denpex/core/entry.h"

namespace denpex::logs {

class LiteralPrefilter;

using Captures = std::map<std::string, std::string, std::less<>>;

class Matcher {
 public:
  // `entries` must outlive the matcher. Patterns that fail to compile are skipped (the loader
  // has already reported them); error() says when the Set itself could not be built.
  explicit Matcher(const std::vector<core::Entry>& entries);
  ~Matcher();

  // The Set compiles on a thread of its own, so that a caller can build what else it needs
  // (the diagnoser's screen) meanwhile; ok(), error() and match() wait for it.
  bool ok() const {
    wait();
    return error_.empty();
  }
  const std::string& error() const {
    wait();
    return error_;
  }

  struct Fp {
    uint32_t entry;
    uint32_t index;
    int requires_id = -1;  // pattern id in the Set, -1 when none
    int excludes_id = -1;
    std::optional<core::Condition> when;

   private:
    friend class Matcher;
    const RE2& regex(const std::string& pattern) const;
    mutable std::unique_ptr<std::once_flag> once_ = std::make_unique<std::once_flag>();
    mutable std::unique_ptr<RE2> re_;  // built under once_
  };

  // Pattern ids (fingerprints and requires/excludes helpers) that hit `line`, ascending.
  void match(std::string_view line, std::vector<int>* ids) const;
  // The fingerprint behind a pattern id, or nullptr when the id is a requires/excludes pattern.
  const Fp* fingerprint(int id) const;
  // True when a match of pattern `id` in a line's text also matches wherever that text sits
  // inside a longer line: the pattern holds no `^` but maybe a leading one.
  bool matches_inside(int id) const { return id >= 0 && static_cast<size_t>(id) < inside_.size() && inside_[static_cast<size_t>(id)]; }
  bool extract(const Fp& fp, std::string_view line, Captures* out) const;

  // Lines that differ only in their digits (a clock, a step, a rank) get the same answer from
  // the Set when every pattern that could see the difference is out of the question. Most
  // patterns are digit-blind: wherever they can match a digit they match any (`\d`, `\w`, `.`,
  // `[^)]`), so swapping one digit for another cannot change whether they match. The others
  // (a literal `Xid 79`, `errno: 98`) are ruled out for a line holding none of the literals
  // every match of theirs must contain (a LiteralPrefilter over just those patterns).
  // digit_blind(text) is true when the Set's answer for `text` is its answer for any text of the
  // same length with digits where `text` has digits: then it may be remembered by
  // mask_digits(text). `hits` is scratch space. The prefilter is built at the first call.
  bool digit_blind(std::string_view text, std::vector<std::pair<uint32_t, uint32_t>>* hits) const;
  // `text` with every ASCII digit replaced by '0', into `out`.
  static void mask_digits(std::string_view text, std::string* out);
  // Whether `pattern` matches every ASCII digit alike wherever it can match one (conservative:
  // false when unsure). Exposed for tests.
  static bool digit_uniform(std::string_view pattern);

  const std::vector<core::Entry>& entries() const { return entries_; }
  size_t pattern_count() const { return pattern_count_; }

 private:
  void wait() const;

  const std::vector<core::Entry>& entries_;
  std::unique_ptr<RE2::Set> set_;
  mutable std::thread compiling_;  // compiles set_ and sets error_; joined under compiled_once_
  std::unique_ptr<std::once_flag> compiled_once_ = std::make_unique<std::once_flag>();
  std::vector<int> fp_of_pattern_;  // pattern id -> index into fps_, or -1
  std::vector<bool> inside_;        // pattern id -> matches_inside()
  std::vector<Fp> fps_;
  size_t pattern_count_ = 0;
  std::string error_;
  std::vector<std::string> digit_patterns_;  // the patterns that are not digit_uniform
  // Built under digit_once_ at the first digit_blind(); digit_ready_ false when it cannot be.
  std::unique_ptr<std::once_flag> digit_once_ = std::make_unique<std::once_flag>();
  mutable std::unique_ptr<LiteralPrefilter> digit_prefilter_;
  mutable bool digit_ready_ = false;
};

}  // namespace denpex::logs
