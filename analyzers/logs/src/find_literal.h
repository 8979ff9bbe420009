#pragma once
// std::string_view::find for the per-line helpers (attribution, event tracking), with the same
// answer and a cheaper search, and other per-line byte tests. Internal to analyzers/logs.
//
// libstdc++'s find looks for the needle's first byte with memchr and compares at each: a needle
// that starts with ' ' or a common letter ("terminate called ...", " busId ") makes a call per
// word of a 400-byte warning line, and every walked line passes these searches. Here two bytes
// of the needle (its first and last non-space byte) are compared at 16 positions at a time, and
// only positions where both agree are compared in full (W. Mula's "SIMD-friendly" substring
// search). Positions are tried in increasing order, so the first occurrence is the one found.
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace denpex::logs {

inline size_t find_literal(std::string_view hay, std::string_view needle, size_t from = 0) {
  const size_t n = hay.size(), k = needle.size();
  if (from > n) return std::string_view::npos;
  if (k <= 1 || n - from < k) return hay.find(needle, from);
#if defined(__SSE2__)
  // Anchor bytes: the first and last that are not spaces (spaces are the commonest byte of a log).
  size_t a = 0, b = k - 1;
  while (a < k - 1 && needle[a] == ' ') ++a;
  while (b > a && needle[b] == ' ') --b;
  if (a == b) a = 0, b = k - 1;  // all spaces but one: any two distinct positions do
  const __m128i va = _mm_set1_epi8(needle[a]), vb = _mm_set1_epi8(needle[b]);
  const char* p = hay.data();
  size_t i = from;
  // A candidate start i needs i + k <= n; the loads read p[i + a, i + a + 16) and
  // p[i + b, i + b + 16), so whole blocks run while i + k - 1 + 16 <= n (b <= k - 1).
  for (; i + k + 15 <= n; i += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + a));
    const __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + b));
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(y, vb))));
    while (mask != 0) {
      const size_t at = i + static_cast<size_t>(__builtin_ctz(mask));
      if (std::memcmp(p + at, needle.data(), k) == 0) return at;
      mask &= mask - 1;
    }
  }
  // The last positions, fewer than 16: compared one by one (a find call here costs a memchr
  // call per line for every needle).
  for (; i + k <= n; ++i)
    if (p[i + a] == needle[a] && p[i + b] == needle[b] && std::memcmp(p + i, needle.data(), k) == 0) return i;
  return std::string_view::npos;
#else
  return hay.find(needle, from);
#endif
}

// Whether `text` holds an ESC or a `\r` (a line normalize_line would change): one pass for
// both bytes instead of a memchr for each.
inline bool has_esc_or_cr(std::string_view text) {
  const char* p = text.data();
  const size_t n = text.size();
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i esc = _mm_set1_epi8('\x1b'), cr = _mm_set1_epi8('\r');
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, esc), _mm_cmpeq_epi8(v, cr))) != 0) return true;
  }
#endif
  for (; i < n; ++i)
    if (p[i] == '\x1b' || p[i] == '\r') return true;
  return false;
}

}  // namespace denpex::logs
