#pragma once
// Routing: the matcher's answers from the few patterns a line's atoms route to, instead of the
// whole RE2::Set. Internal to analyzers/logs.
//
// The Set's DFA is fast on lines it has seen the like of, but every new kind of line builds new
// states, each over a few hundred patterns: on a 1 MB selection with a warning every few lines,
// some 300 such lines cost more than the rest of the diagnosis. Each screen pattern has routes
// computed at build time (PrefilterAtoms::routes): the literal atoms of which every match holds
// one. A line's atoms (the literal prefilter) pick the screen patterns it can match; their own
// RE2s, small DFAs compiled at first use, decide. The answer is the Set's, by construction: a
// pattern left out cannot match (its routes are absent), and every one run is run exactly.
// A line that routes to many patterns, or that the prefilter cannot vouch for, is left to the Set.
#include <re2/re2.h>

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "denpex/logs/prefilter_atoms.h"

namespace denpex::logs {

class LiteralPrefilter;

class Router {
 public:
  // `screen_patterns` as Matcher::screen_patterns(); `set_patterns[id]` the Set's pattern `id`
  // (fingerprints and helpers) and `screen_of[id]` the index of its screen form. nullptr when the
  // atoms do not fit these patterns.
  static std::unique_ptr<Router> make(const PrefilterAtoms& atoms, const std::vector<std::string>& screen_patterns,
                                      std::vector<std::string> set_patterns, const std::vector<int>& screen_of,
                                      const RE2::Options& options);
  ~Router();

  // The Set ids that match `line`, ascending, as Matcher::match gives them; false when routing
  // cannot say (then the Set must).
  bool match(std::string_view line, std::vector<int>* ids) const;
  // Whether any screen pattern matches `text`, into `hit`; false when routing cannot say.
  bool screen(std::string_view text, bool* hit) const;
  // The RE2 of the Set's pattern `id`, compiled at first use (once for routing and captures);
  // nullptr if it cannot be.
  const RE2* set_regex(int id) const { return regex(set_re_.get(), set_patterns_, static_cast<size_t>(id)); }

  // More candidates than this and the Set's one pass is cheaper than their passes.
  static constexpr size_t kMaxCandidates = 48;
  // Longer texts (the screen's 16 KiB blocks) hold too many atoms to route.
  static constexpr size_t kMaxText = 4096;

 private:
  struct Lazy {
    std::once_flag once;
    std::unique_ptr<RE2> re;
  };
  Router() = default;
  // The RE2 of pattern `i` of `patterns`, compiled at first use; nullptr if it cannot be.
  const RE2* regex(Lazy* lazies, const std::vector<std::string>& patterns, size_t i) const;
  // The candidates for `text`: screen patterns in `screens` and, when `ids` is given, the Set
  // ids of those screen forms; false when the prefilter cannot vouch or there are too many.
  bool candidates(std::string_view text, std::vector<uint32_t>* screens, std::vector<int>* ids) const;

  std::unique_ptr<LiteralPrefilter> prefilter_;
  std::vector<std::vector<uint32_t>> screens_of_atom_;  // atom -> screen patterns it routes to
  std::vector<std::vector<int>> ids_of_screen_;         // screen pattern -> Set ids of that form
  // screen pattern -> a Set id whose pattern matches just what it does (Matcher::screen_neutral),
  // whose RE2 then answers for it; -1 when none.
  std::vector<int> neutral_id_of_screen_;
  std::vector<std::string> screen_patterns_, set_patterns_;
  RE2::Options options_;
  std::unique_ptr<Lazy[]> screen_re_, set_re_;
};

}  // namespace denpex::logs
