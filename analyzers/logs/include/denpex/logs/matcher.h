#pragma once
// Every fingerprint of the library in one unanchored RE2::Set: one pass per line finds which
// patterns hit; only those are re-run with their own RE2 to pull named captures. A
// fingerprint's own RE2 is compiled the first time the Set reports it (most never hit), once,
// under std::call_once: a constructed Matcher is safe to share between threads. Given routes
// (PrefilterAtoms), a line is first routed (src/router.h): the few patterns its literals can
// match answer it with their own RE2s, and the Set is asked only where routing cannot say.
#include <re2/re2.h>
#include <re2/set.h>

#include <atomic>
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
#include "denpex/logs/prefilter_atoms.h"

namespace denpex::logs {

class LiteralPrefilter;
class Router;

using Captures = std::map<std::string, std::string, std::less<>>;

class Matcher {
 public:
  // `entries` must outlive the matcher. Patterns that fail to compile are skipped (the loader
  // has already reported them); error() says when the Set itself could not be built. With
  // `atoms` whose routes fit this matcher's screen (the built-in library's, builtin_atoms.h),
  // lines are answered by routing (src/router.h) where it can, without waiting for the Set.
  explicit Matcher(const std::vector<core::Entry>& entries, const PrefilterAtoms* atoms = nullptr);
  ~Matcher();

  // The Set compiles on a thread of its own, so that a caller can do what else it needs to
  // meanwhile (routed, it compiles only when first needed); ok() and error() wait for it, and so
  // do match() and screen() for a line that routing cannot answer.
  bool ok() const {
    wait();
    return error_.empty();
  }
  const std::string& error() const {
    wait();
    return error_;
  }
  // Whether some line needed the Set (routing could not answer it) and the Set could not be
  // compiled; does not wait for a Set no line needed.
  bool set_failed() const { return waited_.load() && !error().empty(); }

  struct Fp {
    uint32_t entry;
    uint32_t index;
    int id = -1;           // its pattern id in the Set
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

  // The diagnoser's screen (diagnoser.h): whether any of screen_patterns() matches `text` (raw
  // bytes, one line or many). The same Set answers it, so that a diagnosis compiles one Set,
  // not two: the Set holds, after the fingerprint and helper patterns, the screen form of each
  // pattern whose screen form differs (screen_pattern: a leading `^` dropped, `^`/`$` made
  // per-line) and the event markers. Every pattern of the Set matches only where some screen
  // pattern does, and every screen pattern is in the Set or equal to one, so "any pattern of the
  // Set matches" is exactly the screen's answer. `failed` is set when the DFA ran out of memory.
  // has_screen() is false when that does not hold (a pattern the Set could not take, an empty
  // one): then the caller compiles screen_patterns() itself.
  bool has_screen() const { return has_screen_; }
  // Whether lines are routed (src/router.h); tests compare routed answers with the Set's.
  bool routed() const { return router_ != nullptr; }
  // match() and screen() as the Set alone answers them.
  void match_by_set(std::string_view line, std::vector<int>* ids) const;
  bool screen_by_set(std::string_view text, bool* failed) const;
  bool screen(std::string_view text, bool* failed) const;
  // What the screen must find: every fingerprint, requires and excludes pattern in screen form,
  // then the event markers (the lines the event tracker and the first error line need walked).
  const std::vector<std::string>& screen_patterns() const { return screen_patterns_; }
  // A pattern as the screen runs it on raw lines: a leading `^` means "start of the line after
  // the launcher prefix", which the screen cannot see, so it is dropped (a superset is all a
  // screen needs), and `^`/`$` match at every line of a many-line text.
  static std::string screen_pattern(std::string_view pattern);
  // Whether `pattern` matches exactly what screen_pattern(pattern) matches (no `^` or `$`
  // anchor; conservative: false when unsure). Exposed for tests.
  static bool screen_neutral(std::string_view pattern);

 private:
  void wait() const;
  void compile_set() const;  // sets error_ when the Set cannot be compiled

  const std::vector<core::Entry>& entries_;
  std::unique_ptr<RE2::Set> set_;
  mutable std::thread compiling_;  // compiles set_ and sets error_; joined under compiled_once_
  mutable std::atomic<bool> waited_{false};  // wait() was called
  std::unique_ptr<std::once_flag> compiled_once_ = std::make_unique<std::once_flag>();
  std::vector<int> fp_of_pattern_;  // pattern id -> index into fps_, or -1
  std::vector<bool> inside_;        // pattern id -> matches_inside()
  std::vector<Fp> fps_;
  size_t pattern_count_ = 0;  // ids below it are fingerprints and helpers; the screen's follow
  std::vector<std::string> screen_patterns_;
  bool has_screen_ = false;
  mutable std::string error_;  // written once, by compile_set, before anyone reads it (wait())
  std::vector<std::string> digit_patterns_;  // the patterns that are not digit_uniform
  // Built under digit_once_ at the first digit_blind(); digit_ready_ false when it cannot be.
  std::unique_ptr<std::once_flag> digit_once_ = std::make_unique<std::once_flag>();
  mutable std::unique_ptr<LiteralPrefilter> digit_prefilter_;
  mutable bool digit_ready_ = false;
  std::unique_ptr<Router> router_;  // null without fitting routes
  std::vector<std::string> pending_;  // with fitting routes: the Set's patterns, added by compile_set
};

}  // namespace denpex::logs
