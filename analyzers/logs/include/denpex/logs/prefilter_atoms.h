#pragma once
// The literal prefilter's atoms (src/prefilter.h) computed ahead for a list of screen patterns
// (Matcher::screen_patterns): with them the prefilter costs a pass over a sample to build
// instead of ~20 ms, and pays from the first byte. The built-in library's are computed when
// denpex is built (builtin_atoms.h).
#include <cstdint>
#include <string>
#include <vector>

namespace denpex::logs {

struct PrefilterAtoms {
  std::vector<std::string> screen_patterns;  // what they were computed for
  std::vector<std::string> atoms;            // LiteralPrefilter::atoms_for(screen_patterns)
  // routes[s]: atoms (indices into `route_atoms`, the cut before atoms holding a shorter one are
  // dropped) of which every match of screen pattern s contains at least one
  // (LiteralPrefilter::routes_for). A line holding none of them cannot match s, so the matcher
  // runs only the few patterns a line's atoms route to (src/router.h).
  std::vector<std::string> route_atoms;
  std::vector<std::vector<uint16_t>> routes;
  // Whether they are the atoms for a screen of these patterns, in this order.
  bool fit(const std::vector<std::string>& patterns) const { return !atoms.empty() && patterns == screen_patterns; }
  bool routes_fit(const std::vector<std::string>& patterns) const {
    return fit(patterns) && !route_atoms.empty() && routes.size() == screen_patterns.size();
  }
};

}  // namespace denpex::logs
