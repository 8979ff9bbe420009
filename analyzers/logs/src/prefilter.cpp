#include "prefilter.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace denpex::logs {
namespace {

constexpr size_t kWindow = 4;  // bytes hashed per probe; also the shortest usable atom
constexpr size_t kMaxStride = 8;
// Atoms shorter than kWindow + kShortStride - 1 bytes would hold the probe to a small stride;
// when there are few of them they are searched apart, two bytes at a time over 16 positions.
constexpr size_t kShortStride = 4;
constexpr size_t kMaxShort = 12;

inline uint32_t load32(const char* p) {
  uint32_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

template <int Bits>
inline uint32_t window_hash(uint32_t w) {
  // `| 0x20` folds ASCII upper case onto lower case (and merges a few other byte pairs, which
  // only adds candidates that the exact compare then rejects).
  return ((w | 0x20202020u) * 0x9E3779B1u) >> (32 - Bits);
}

template <int Bits>
inline uint32_t window_hash2(uint32_t w) {
  return ((w | 0x20202020u) * 0x85EBCA77u) >> (32 - Bits);
}

inline unsigned char lower(unsigned char c) { return (c >= 'A' && c <= 'Z') ? static_cast<unsigned char>(c | 0x20) : c; }

// The longest run of ASCII bytes of an atom: RE2 lowercases atoms by Unicode rules, the probe
// here folds ASCII only, so a non-ASCII part could be spelled differently in the text.
std::string_view ascii_core(std::string_view atom) {
  std::string_view best;
  size_t start = 0;
  for (size_t i = 0; i <= atom.size(); ++i) {
    if (i == atom.size() || static_cast<unsigned char>(atom[i]) >= 0x80) {
      if (i - start > best.size()) best = atom.substr(start, i - start);
      start = i + 1;
    }
  }
  return best;
}

// Characters outside ASCII whose Unicode lowercase is ASCII, so that RE2's case folding can
// match them where an atom has an ASCII letter: U+017F LATIN SMALL LETTER LONG S (s) and
// U+212A KELVIN SIGN (k). These are the only two (checked against RE2 over all code points).
bool has_ascii_folding_rune(const char* p, size_t n) {
  // One pass for the lead bytes of both (0xC5, 0xE2); text without either holds neither rune.
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i c5 = _mm_set1_epi8(static_cast<char>(0xC5)), e2 = _mm_set1_epi8(static_cast<char>(0xE2));
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, c5), _mm_cmpeq_epi8(v, e2))) != 0) break;
  }
#endif
  for (; i < n; ++i)
    if (static_cast<unsigned char>(p[i]) == 0xC5 || static_cast<unsigned char>(p[i]) == 0xE2) break;
  if (i == n) return false;
  const char* end = p + n;
  for (const char* q = p + i; (q = static_cast<const char*>(std::memchr(q, 0xC5, static_cast<size_t>(end - q))));) {
    if (q + 1 < end && static_cast<unsigned char>(q[1]) == 0xBF) return true;
    ++q;
  }
  for (const char* q = p + i; (q = static_cast<const char*>(std::memchr(q, 0xE2, static_cast<size_t>(end - q))));) {
    if (q + 2 < end && static_cast<unsigned char>(q[1]) == 0x84 && static_cast<unsigned char>(q[2]) == 0xAA) return true;
    ++q;
  }
  return false;
}

#if defined(__x86_64__)
// find_short's candidate test over 32 positions at a time, where the CPU has AVX2 (checked at
// run time; the build targets baseline x86-64), as Teddy does it: each three-byte prefix gets a
// bucket bit, and six 16-entry nibble tables (low and high nibble of each of the three bytes)
// say which buckets a byte may belong to; a position whose six lookups share a bit is a
// candidate. A superset of the prefixes' positions (prefixes sharing a bucket, nibbles of one
// prefix combined with another's), so find_short's compare still decides. Returns where it stopped.
template <class At>
__attribute__((target("avx2"))) size_t find_short_avx2(const char* p, size_t n, const char* c0s, const char* c1s,
                                                        const char* c2s, size_t triples, At& at) {
  alignas(32) uint8_t t[6][32] = {};
  for (size_t k = 0; k < triples; ++k) {
    const uint8_t bit = static_cast<uint8_t>(1u << (k % 8));
    const unsigned char c[3] = {static_cast<unsigned char>(c0s[k]), static_cast<unsigned char>(c1s[k]),
                                static_cast<unsigned char>(c2s[k])};
    for (int j = 0; j < 3; ++j)
      for (int lane = 0; lane < 32; lane += 16) {
        t[2 * j][lane + (c[j] & 15)] |= bit;
        t[2 * j + 1][lane + (c[j] >> 4)] |= bit;
      }
  }
  __m256i lo[3], hi[3];
  for (int j = 0; j < 3; ++j) {
    lo[j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(t[2 * j]));
    hi[j] = _mm256_load_si256(reinterpret_cast<const __m256i*>(t[2 * j + 1]));
  }
  const __m256i fold = _mm256_set1_epi8(0x20), nib = _mm256_set1_epi8(0x0F), zero = _mm256_setzero_si256();
  size_t i = 0;
  for (; i + 34 <= n; i += 32) {
    __m256i r = _mm256_set1_epi8(-1);
    for (int j = 0; j < 3; ++j) {
      const __m256i v = _mm256_or_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + j)), fold);
      r = _mm256_and_si256(r, _mm256_shuffle_epi8(lo[j], _mm256_and_si256(v, nib)));
      r = _mm256_and_si256(r, _mm256_shuffle_epi8(hi[j], _mm256_and_si256(_mm256_srli_epi16(v, 4), nib)));
    }
    for (unsigned mask = ~static_cast<unsigned>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(r, zero))); mask != 0;
         mask &= mask - 1)
      at(i + static_cast<size_t>(__builtin_ctz(mask)));
  }
  return i;
}

// The window probe at stride 4, eight windows at a time where the CPU has AVX2: 32 bytes are
// eight consecutive 4-byte windows, hashed as window_hash does (multiply, keep the top bits),
// their bits fetched from the table (`bits`, read as 32-bit words) with one gather. Calls
// `probed(position)` for each window whose bit is set, as the scalar loop calls verify, and
// returns where it stopped (a multiple of 32, so the scalar loop's positions go on in step).
template <class Probed>
__attribute__((target("avx2"))) size_t probe4_avx2(const char* p, size_t last, const uint64_t* bits, int shift,
                                                    Probed& probed) {
  const __m256i fold = _mm256_set1_epi32(0x20202020), mul = _mm256_set1_epi32(static_cast<int>(0x9E3779B1u));
  const __m256i low5 = _mm256_set1_epi32(31), one = _mm256_set1_epi32(1);
  const __m128i count = _mm_cvtsi32_si128(shift);
  const int* words = reinterpret_cast<const int*>(bits);
  size_t i = 0;
  for (; i + 28 <= last; i += 32) {
    const __m256i w = _mm256_or_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)), fold);
    const __m256i h = _mm256_srl_epi32(_mm256_mullo_epi32(w, mul), count);
    const __m256i word = _mm256_i32gather_epi32(words, _mm256_srli_epi32(h, 5), 4);
    const __m256i bit = _mm256_and_si256(_mm256_srlv_epi32(word, _mm256_and_si256(h, low5)), one);
    unsigned mask = static_cast<unsigned>(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(bit, one))));
    for (; mask != 0; mask &= mask - 1) probed(i + 4 * static_cast<size_t>(__builtin_ctz(mask)));
  }
  return i;
}
#endif

}  // namespace

std::unique_ptr<LiteralPrefilter> LiteralPrefilter::build(const std::vector<std::string>& patterns,
                                                           std::string_view sample) {
  auto atoms = atoms_for(patterns);
  return atoms ? from_atoms(*atoms, sample) : nullptr;
}

std::optional<std::vector<std::string>> LiteralPrefilter::atoms_for(const std::vector<std::string>& patterns,
                                                                    std::vector<std::string>* whole_cut) {
  if (patterns.empty()) return std::nullopt;
  re2::FilteredRE2 filter(static_cast<int>(kWindow));
  RE2::Options options;
  options.set_log_errors(false);
  for (const auto& p : patterns) {
    int id = 0;
    if (filter.Add(p, options, &id) != RE2::NoError) return std::nullopt;
  }
  std::vector<std::string> atoms;
  filter.Compile(&atoms);
  std::vector<int> passed;
  filter.AllPotentials({}, &passed);
  if (!passed.empty()) return std::nullopt;  // some pattern has no usable literal

  // The cut: assume atoms present, shortest (most common) first, while no pattern passes.
  std::vector<int> order(atoms.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return atoms[a].size() < atoms[b].size(); });
  std::vector<int> present;
  std::vector<bool> assumed(atoms.size(), false);
  for (int a : order) {
    std::vector<int> trial = present;
    trial.insert(std::upper_bound(trial.begin(), trial.end(), a), a);
    passed.clear();
    filter.AllPotentials(trial, &passed);
    if (passed.empty()) {
      present = std::move(trial);
      assumed[static_cast<size_t>(a)] = true;
    }
  }
  std::vector<std::string> cut;
  for (size_t i = 0; i < atoms.size(); ++i) {
    if (assumed[i]) continue;
    std::string_view core = ascii_core(atoms[i]);
    if (core.size() < kWindow) return std::nullopt;
    cut.emplace_back(core);
  }
  if (cut.empty()) return std::nullopt;
  // An atom containing another cut atom adds nothing: wherever it occurs, so does the shorter.
  std::sort(cut.begin(), cut.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  cut.erase(std::unique(cut.begin(), cut.end()), cut.end());
  if (whole_cut) *whole_cut = cut;
  std::vector<std::string> kept;
  for (auto& a : cut) {
    bool redundant = false;
    for (const auto& k : kept)
      if (a.find(k) != std::string::npos) {
        redundant = true;
        break;
      }
    if (!redundant) kept.push_back(std::move(a));
  }
  return kept;
}

std::vector<std::vector<uint16_t>> LiteralPrefilter::routes_for(const std::vector<std::string>& patterns,
                                                               const std::vector<std::string>& atoms) {
  if (atoms.size() > UINT16_MAX) return {};  // no routes: they fit no matcher
  std::vector<std::vector<uint16_t>> routes(patterns.size());
  RE2::Options options;
  options.set_log_errors(false);
  for (size_t p = 0; p < patterns.size(); ++p) {
    re2::FilteredRE2 alone(static_cast<int>(kWindow));
    int id = 0;
    std::vector<std::string> literals;
    std::vector<int> passed;
    if (alone.Add(patterns[p], options, &id) == RE2::NoError) {
      alone.Compile(&literals);
      alone.AllPotentials({}, &passed);
    }
    auto& route = routes[p];
    if (!passed.empty() || literals.empty()) {
      // A pattern FilteredRE2 cannot bound (none here: atoms_for would have failed) routes
      // from every atom, which any line that can match some pattern holds.
      for (size_t a = 0; a < atoms.size(); ++a) route.push_back(static_cast<uint16_t>(a));
      continue;
    }
    // A text holding a literal holds every atom inside it: one of them is enough, and the
    // longest is the one that sends the fewest other lines this pattern's way.
    for (const auto& l : literals) {
      const std::string_view core = ascii_core(l);
      int best = -1;
      for (size_t a = 0; a < atoms.size(); ++a)
        if ((best < 0 || atoms[a].size() > atoms[static_cast<size_t>(best)].size()) &&
            core.find(atoms[a]) != std::string_view::npos)
          best = static_cast<int>(a);
      if (best >= 0) route.push_back(static_cast<uint16_t>(best));
    }
    std::sort(route.begin(), route.end());
    route.erase(std::unique(route.begin(), route.end()), route.end());
  }
  return routes;
}

std::unique_ptr<LiteralPrefilter> LiteralPrefilter::from_atoms(const std::vector<std::string>& atoms,
                                                                std::string_view sample) {
  if (atoms.empty()) return nullptr;
  for (size_t i = 0; i < atoms.size(); ++i)
    if (atoms[i].size() < kWindow || (i > 0 && atoms[i].size() < atoms[i - 1].size())) return nullptr;
  auto out = std::unique_ptr<LiteralPrefilter>(new LiteralPrefilter());
  out->atoms_ = atoms;
  for (size_t a = 0; a < atoms.size(); ++a) out->atom_index_.emplace(atoms[a], static_cast<uint32_t>(a));
  // A window histogram of the first 256 KiB says well enough which windows the log repeats
  // ("NCCL INFO", "[rank"); more costs time on short inputs and changes nothing else. Below
  // 64 KiB the input is too short for the choice to matter, and the histogram's 512 KiB of
  // counters would cost more than it saves.
  if (sample.size() < (64 << 10)) sample = {};
  sample = sample.substr(0, std::min<size_t>(sample.size(), 256 << 10));
  size_t shortest = out->atoms_.front().size();
  size_t short_count = 0;
  for (const auto& a : out->atoms_) short_count += a.size() < kWindow + kShortStride - 1 ? 1 : 0;
  if (short_count > 0 && short_count <= kMaxShort && short_count < out->atoms_.size()) {
    for (uint32_t a = 0; a < short_count; ++a) out->short_.push_back(a);  // atoms_ is sorted by length
    shortest = out->atoms_[short_count].size();
  }
  out->stride_ = std::clamp<size_t>(shortest - kWindow + 1, 1, kMaxStride);
  // How often each window hash occurs in the sample.
  std::vector<uint32_t> seen(sample.size() >= kWindow ? size_t(1) << kBits : 0, 0);
  for (size_t i = 0; i + kWindow <= sample.size(); ++i) {
    uint32_t& c = seen[window_hash<kBits>(load32(sample.data() + i))];
    if (c < UINT32_MAX) ++c;
  }
  out->bits_.assign((size_t(1) << kBits) / 64, 0);
  out->bits2_.assign((size_t(1) << kBits) / 64, 0);
  for (uint32_t a = static_cast<uint32_t>(out->short_.size()); a < out->atoms_.size(); ++a) {
    const std::string& atom = out->atoms_[a];
    // Every occurrence covers exactly one probed position, at one of `stride` consecutive
    // window offsets starting at `base`; the base whose windows the sample holds least wins.
    const size_t bases = atom.size() - kWindow - out->stride_ + 2;
    uint32_t base = 0;
    uint64_t best = UINT64_MAX;
    for (size_t b = 0; b < bases && !seen.empty(); ++b) {
      uint64_t cost = 0;
      for (size_t off = b; off < b + out->stride_; ++off) cost += seen[window_hash<kBits>(load32(atom.data() + off))];
      if (cost < best) {
        best = cost;
        base = static_cast<uint32_t>(b);
      }
    }
    for (uint32_t off = base; off < base + out->stride_; ++off) {
      uint32_t h = window_hash<kBits>(load32(atom.data() + off));
      out->bits_[h >> 6] |= uint64_t(1) << (h & 63);
      uint32_t h2 = window_hash2<kBits>(load32(atom.data() + off));
      out->bits2_[h2 >> 6] |= uint64_t(1) << (h2 & 63);
      out->slots_.push_back(Slot{h, a, off});
    }
  }
  std::sort(out->slots_.begin(), out->slots_.end(),
            [](const Slot& x, const Slot& y) { return x.hash != y.hash ? x.hash < y.hash : x.atom < y.atom; });
  // bucket_[b]: the first slot whose hash >> kBucketShift is b or more.
  out->bucket_.assign((size_t(1) << (kBits - kBucketShift)) + 1, 0);
  for (size_t b = 0, k = 0; b < out->bucket_.size(); ++b) {
    while (k < out->slots_.size() && (out->slots_[k].hash >> kBucketShift) < b) ++k;
    out->bucket_[b] = static_cast<uint32_t>(k);
  }
  return out;
}

void LiteralPrefilter::verify(const char* text, size_t n, size_t at, uint32_t hash,
                              std::vector<std::pair<uint32_t, uint32_t>>* hits) const {
  const uint32_t h2 = window_hash2<kBits>(load32(text + at));
  if (((bits2_[h2 >> 6] >> (h2 & 63)) & 1) == 0) return;
  // The slots of hash's bucket start at bucket_[hash >> kBucketShift]; sorted by hash within.
  auto it = slots_.begin() + bucket_[hash >> kBucketShift];
  while (it != slots_.end() && it->hash < hash) ++it;
  for (; it != slots_.end() && it->hash == hash; ++it) {
    if (at < it->offset) continue;
    const size_t start = at - it->offset;
    const std::string& atom = atoms_[it->atom];
    if (start + atom.size() > n) continue;
    size_t k = 0;
    while (k < atom.size() && lower(static_cast<unsigned char>(text[start + k])) == static_cast<unsigned char>(atom[k])) ++k;
    if (k == atom.size()) hits->emplace_back(static_cast<uint32_t>(start), static_cast<uint32_t>(start + atom.size()));
  }
}

void LiteralPrefilter::find_short(const char* p, size_t n, std::vector<std::pair<uint32_t, uint32_t>>* hits) const {
  auto at = [&](size_t i) {
    for (uint32_t a : short_) {
      const std::string& atom = atoms_[a];
      if (i + atom.size() > n) continue;
      size_t k = 0;
      while (k < atom.size() && lower(static_cast<unsigned char>(p[i + k])) == static_cast<unsigned char>(atom[k])) ++k;
      if (k == atom.size()) hits->emplace_back(static_cast<uint32_t>(i), static_cast<uint32_t>(i + atom.size()));
    }
  };
  size_t i = 0;
#if defined(__SSE2__)
  // Candidates where the first three bytes of some short atom stand (folded as window_hash
  // folds); atoms sharing them share the compare. Two bytes let through too many in prose
  // ("er", "ex", "fa" are everywhere in a warning's text).
  const __m128i fold = _mm_set1_epi8(0x20);
  __m128i b0[kMaxShort], b1[kMaxShort], b2[kMaxShort];
  char c0s[kMaxShort], c1s[kMaxShort], c2s[kMaxShort];
  size_t triples = 0;
  for (uint32_t a : short_) {
    const char c0 = static_cast<char>(atoms_[a][0] | 0x20), c1 = static_cast<char>(atoms_[a][1] | 0x20),
               c2 = static_cast<char>(atoms_[a][2] | 0x20);
    bool seen = false;
    for (uint32_t b : short_) {
      if (b == a) break;
      seen = seen || ((atoms_[b][0] | 0x20) == c0 && (atoms_[b][1] | 0x20) == c1 && (atoms_[b][2] | 0x20) == c2);
    }
    if (seen) continue;
    c0s[triples] = c0;
    c1s[triples] = c1;
    c2s[triples] = c2;
    b0[triples] = _mm_set1_epi8(c0);
    b1[triples] = _mm_set1_epi8(c1);
    b2[triples++] = _mm_set1_epi8(c2);
  }
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) i = find_short_avx2(p, n, c0s, c1s, c2s, triples, at);
#endif
  for (; i + 18 <= n; i += 16) {
    const __m128i v0 = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), fold);
    const __m128i v1 = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 1)), fold);
    const __m128i v2 = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 2)), fold);
    __m128i any = _mm_setzero_si128();
    for (size_t k = 0; k < triples; ++k)
      any = _mm_or_si128(any, _mm_and_si128(_mm_and_si128(_mm_cmpeq_epi8(v0, b0[k]), _mm_cmpeq_epi8(v1, b1[k])),
                                            _mm_cmpeq_epi8(v2, b2[k])));
    for (unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(any)); mask != 0; mask &= mask - 1)
      at(i + static_cast<size_t>(__builtin_ctz(mask)));
  }
#endif
  for (; i + 3 < n; ++i) at(i);
}

bool LiteralPrefilter::find(std::string_view text, std::vector<std::pair<uint32_t, uint32_t>>* hits) const {
  const char* p = text.data();
  const size_t n = text.size();
  if (has_ascii_folding_rune(p, n)) return false;
  if (n < kWindow && short_.empty()) return true;
  const size_t first_hit = hits->size();
  if (!short_.empty()) find_short(p, n, hits);
  if (n < kWindow) return true;
  const uint64_t* bits = bits_.data();
  const size_t s = stride_;
  const size_t last = n - kWindow;  // the last position a window fits at
  auto test = [bits](uint32_t h) { return (bits[h >> 6] >> (h & 63)) & 1; };
  size_t i = 0;
#if defined(__x86_64__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2 && s == 4) {
    auto probed = [&](size_t at) { verify(p, n, at, window_hash<kBits>(load32(p + at)), hits); };
    i = probe4_avx2(p, last, bits, 32 - kBits, probed);
  }
#endif
  // Four independent probes per step: no dependency between them, unlike a DFA's state chain.
  for (; i + 3 * s <= last; i += 4 * s) {
    const uint32_t h0 = window_hash<kBits>(load32(p + i));
    const uint32_t h1 = window_hash<kBits>(load32(p + i + s));
    const uint32_t h2 = window_hash<kBits>(load32(p + i + 2 * s));
    const uint32_t h3 = window_hash<kBits>(load32(p + i + 3 * s));
    if ((test(h0) | test(h1) | test(h2) | test(h3)) == 0) [[likely]]
      continue;
    if (test(h0)) verify(p, n, i, h0, hits);
    if (test(h1)) verify(p, n, i + s, h1, hits);
    if (test(h2)) verify(p, n, i + 2 * s, h2, hits);
    if (test(h3)) verify(p, n, i + 3 * s, h3, hits);
  }
  for (; i <= last; i += s) {
    const uint32_t h = window_hash<kBits>(load32(p + i));
    if (test(h)) verify(p, n, i, h, hits);
  }
  // Atoms are probed at different offsets, short ones apart: occurrences come out of order.
  std::sort(hits->begin() + static_cast<std::ptrdiff_t>(first_hit), hits->end());
  return true;
}

bool LiteralPrefilter::find_atoms(std::string_view text, std::vector<std::pair<uint32_t, uint32_t>>* scratch,
                                  std::vector<uint32_t>* atoms) const {
  scratch->clear();
  atoms->clear();
  if (!find(text, scratch)) return false;
  std::string folded;
  for (const auto& [begin, end] : *scratch) {
    folded.assign(text.data() + begin, end - begin);
    for (char& c : folded) c = static_cast<char>(lower(static_cast<unsigned char>(c)));
    if (auto it = atom_index_.find(folded); it != atom_index_.end()) atoms->push_back(it->second);
  }
  std::sort(atoms->begin(), atoms->end());
  atoms->erase(std::unique(atoms->begin(), atoms->end()), atoms->end());
  return true;
}

}  // namespace denpex::logs
