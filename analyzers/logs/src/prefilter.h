#pragma once
// A literal prefilter in front of the chunk screen. Internal to analyzers/logs.
//
// re2::FilteredRE2 reduces every screen pattern to an AND/OR tree of lowercase literals
// ("atoms") that any match must contain. From those trees one set of atoms is chosen such that
// no pattern can match a text holding none of them (a cut: greedily, the shortest atoms are
// assumed present as long as no pattern would pass with them alone). A text without any cut atom
// therefore cannot hit the RE2::Set screen, and is skipped without running the DFA; a text
// with one is screened exactly as before, so the result never changes, only the cost.
//
// The search is a hashed 4-byte window probe (no loop-carried dependency, unlike a DFA), with a
// stride when every atom is long enough, then a case-insensitive compare of the candidates. The
// few atoms too short for a stride of 4 (`exit`, `error`, `fatal`) are found apart, by a 16-byte
// SSE2 compare of their first three bytes.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace denpex::logs {

class LiteralPrefilter {
 public:
  // nullptr when the patterns cannot all be covered by atoms (a pattern without a literal of
  // at least 4 bytes, one that does not parse, or none at all): then screen everything.
  // `sample` (text of the input at hand, may be empty) steers which 4-byte window of each atom
  // is probed: the one rarest in the sample, so that words the log repeats on every line
  // ("NCCL INFO", "[rank") do not send each line to the compare. Only speed depends on it.
  static std::unique_ptr<LiteralPrefilter> build(const std::vector<std::string>& patterns,
                                                 std::string_view sample = {});
  // The two halves of build(): the atoms (lowercase ASCII, each >= 4 bytes, shortest first;
  // nullopt where build() gives nullptr), which cost ~20 ms for the library's ~440 patterns
  // (FilteredRE2 compiles each), and the prefilter over given atoms, which costs a pass over
  // the sample. from_atoms(*atoms_for(p), s) is build(p, s): the built-in library's atoms are
  // computed when denpex is built (embed_atoms) and passed in (DiagnoseOptions::atoms).
  // `whole_cut`, when given, gets the cut before atoms holding a shorter one are dropped (for
  // routes_for: a long atom says more about which pattern a text can match).
  static std::optional<std::vector<std::string>> atoms_for(const std::vector<std::string>& patterns,
                                                           std::vector<std::string>* whole_cut = nullptr);
  static std::unique_ptr<LiteralPrefilter> from_atoms(const std::vector<std::string>& atoms, std::string_view sample = {});
  // For each pattern, the atoms (indices into `atoms`: the whole cut atoms_for(patterns, &cut)
  // gave) of which every match of that pattern contains one: for each literal FilteredRE2 finds
  // in that pattern alone, the longest cut atom inside it. Why that is enough: a match of pattern p holds
  // literals of p that satisfy its AND/OR tree (FilteredRE2's own promise; the tree in the
  // whole set is this one or pruned); by the cut, not all of them are atoms assumed present,
  // and any other holds a cut atom, so its chosen one. Costs what atoms_for costs: build time.
  static std::vector<std::vector<uint16_t>> routes_for(const std::vector<std::string>& patterns,
                                                       const std::vector<std::string>& atoms);

  // Appends [begin, end) of every atom occurrence in `text`, ordered by begin. Returns false
  // when the text holds a character whose Unicode lowercase is ASCII (KELVIN SIGN, LONG S):
  // the ASCII-only folding here cannot vouch for such a text, so the caller must screen it.
  bool find(std::string_view text, std::vector<std::pair<uint32_t, uint32_t>>* hits) const;
  // The indices of the atoms `text` holds, ascending, each once; false as find() is false.
  bool find_atoms(std::string_view text, std::vector<std::pair<uint32_t, uint32_t>>* scratch,
                  std::vector<uint32_t>* atoms) const;

  size_t atom_count() const { return atoms_.size(); }
  size_t stride() const { return stride_; }
  const std::vector<std::string>& atoms() const { return atoms_; }

 private:
  static constexpr int kBits = 17;
  struct Slot {
    uint32_t hash;
    uint32_t atom;
    uint32_t offset;  // where in the atom the probed window starts
  };
  void verify(const char* text, size_t n, size_t at, uint32_t hash,
              std::vector<std::pair<uint32_t, uint32_t>>* hits) const;
  void find_short(const char* text, size_t n, std::vector<std::pair<uint32_t, uint32_t>>* hits) const;

  std::vector<std::string> atoms_;  // lowercase ASCII, each >= 4 bytes, shortest first
  std::unordered_map<std::string, uint32_t> atom_index_;  // atom -> its index, for find_atoms
  std::vector<uint32_t> short_;     // the first few atoms, searched apart so the stride can grow
  std::vector<uint64_t> bits_;      // 2^kBits membership bits over window hashes
  std::vector<uint64_t> bits2_;     // the same under a second hash: most collisions end here
  std::vector<Slot> slots_;         // sorted by hash
  static constexpr int kBucketShift = 7;  // 1024 buckets of 128 hashes: about one slot each
  std::vector<uint32_t> bucket_;    // where each bucket's slots start in slots_
  size_t stride_ = 1;
};

}  // namespace denpex::logs
