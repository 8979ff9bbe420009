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
#include <string>
#include <string_view>
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

  // Appends [begin, end) of every atom occurrence in `text`, ordered by begin. Returns false
  // when the text holds a character whose Unicode lowercase is ASCII (KELVIN SIGN, LONG S):
  // the ASCII-only folding here cannot vouch for such a text, so the caller must screen it.
  bool find(std::string_view text, std::vector<std::pair<uint32_t, uint32_t>>* hits) const;

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
  std::vector<uint32_t> short_;     // the first few atoms, searched apart so the stride can grow
  std::vector<uint64_t> bits_;      // 2^kBits membership bits over window hashes
  std::vector<uint64_t> bits2_;     // the same under a second hash: most collisions end here
  std::vector<Slot> slots_;         // sorted by hash
  size_t stride_ = 1;
};

}  // namespace denpex::logs
