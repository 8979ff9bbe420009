// The lines the diagnoser does not walk: counted, their ranks noted, a few read for where a rank
// runs, and read backwards for the clock when a walked line needs it.
#include <cstring>

#include "denpex/logs/diagnoser.h"
#include "denpex/logs/normalize.h"
#include "diagnoser_state.h"
#include "find_literal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace denpex::logs {
namespace {

std::string_view cap(std::string_view s, size_t n) { return s.substr(0, std::min(s.size(), n)); }

constexpr size_t kNoRun = SIZE_MAX, kUnsure = SIZE_MAX - 1;

// Where the last `D:DD:D` of p[0, n) starts (its first colon), kNoRun when there is none, or
// kUnsure when the text holds an ESC: removing an escape sequence can join digits and colons
// into a run the raw bytes lack. Folding `\r` rewrites keeps a suffix of the line, so it cannot.
// No run anywhere means no line here can hold a clock (may_hold_clock asks for one).
size_t last_clock_shape(const char* p, size_t n) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  auto run_at = [&](size_t i) {
    return i > 0 && i + 4 < n && digit(p[i - 1]) && digit(p[i + 1]) && digit(p[i + 2]) && p[i + 3] == ':' &&
           digit(p[i + 4]);
  };
  size_t last = kNoRun, i = 0;
#if defined(__SSE2__)
  const __m128i colon = _mm_set1_epi8(':'), esc = _mm_set1_epi8('\x1b');
  for (; i + 19 <= n; i += 16) {
    const __m128i v0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i v3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 3));
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(v0, esc)) != 0) return kUnsure;
    for (unsigned m = static_cast<unsigned>(_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(v0, colon), _mm_cmpeq_epi8(v3, colon))));
         m != 0; m &= m - 1) {
      const size_t at = i + static_cast<size_t>(__builtin_ctz(m));
      if (run_at(at)) last = at;
    }
  }
#endif
  for (; i < n; ++i) {
    if (p[i] == '\x1b') return kUnsure;
    if (p[i] == ':' && run_at(i)) last = i;
  }
  return last;
}

}  // namespace

std::optional<double> Diagnoser::line_clock(std::string_view raw) {
  // Read as a walk reads it: what the terminal showed (ESC sequences and `\r` rewrites folded).
  std::string_view text = cap(raw, kMaxLine);
  if (has_esc_or_cr(text)) {
    normalize_line(text, state_->clock_norm);
    text = state_->clock_norm;
  }
  if (!may_hold_clock(text)) return std::nullopt;
  return parse_timestamp(text);
}

void Diagnoser::catch_up_clock(uint32_t input, std::string_view chunk, size_t begin) {
  // The clock a walked line inherits is that of the nearest stamped line above it, walked or
  // not. Each line is looked at once: from `begin` up to where the last lookback stopped, then
  // (once per chunk) through the previous chunk's last lines kept in `tail`.
  InputState& in = state_->inputs[input];
  const size_t from = std::min(in.clock_from, begin);
  in.clock_from = begin;
  size_t b = begin;
  if (b > from) {
    // Lines below the last `D:DD:D` of the text above hold no clock (may_hold_clock): the walk
    // back starts at that run's line, or is skipped when there is none.
    const size_t run = last_clock_shape(chunk.data() + from, b - 1 - from);
    if (run == kNoRun) {
      b = from;
    } else if (run != kUnsure) {
      const void* nl = std::memchr(chunk.data() + from + run, '\n', b - 1 - from - run);
      if (nl != nullptr) b = static_cast<size_t>(static_cast<const char*>(nl) - chunk.data()) + 1;
    }
  }
  for (; b > from;) {
    const void* nl = b - 1 > from ? memrchr(chunk.data() + from, '\n', b - 1 - from) : nullptr;
    const size_t start = nl ? static_cast<size_t>(static_cast<const char*>(nl) - chunk.data()) + 1 : from;
    if (auto t = line_clock(chunk.substr(start, b - 1 - start))) {
      in.last_time = t;
      return;
    }
    b = start;
  }
  if (from > 0 || in.clock_tail_read) return;
  in.clock_tail_read = true;
  std::string_view tail = in.tail;
  for (size_t b = tail.size(); b > 0;) {
    const void* nl = b >= 2 ? memrchr(tail.data(), '\n', b - 1) : nullptr;
    const size_t start = nl ? static_cast<size_t>(static_cast<const char*>(nl) - tail.data()) + 1 : 0;
    if (auto t = line_clock(tail.substr(start, b - 1 - start))) {
      in.last_time = t;
      return;
    }
    b = start;
  }
}

void Diagnoser::skip_range(uint32_t input, std::string_view range) {
  // Nothing to match, but which ranks are alive matters for hangs: a rank that logs only
  // healthy lines is the one that never reached the collective. One pass finds the newlines
  // (counted) and looks at the line after each for a rank prefix.
  InputState& in = state_->inputs[input];
  const char* p = range.data();
  const size_t size = range.size();
  auto look = [&](size_t pos) {
    int rank = -1;
    if (size - pos >= 5 && std::memcmp(p + pos, "[rank", 5) == 0) {
      // rank_prefix() inlined for the common torchrun form: "[rank" up to 7 digits "]:",
      // within the 32 bytes it looks at.
      const size_t lim = std::min(size, pos + 32);
      size_t j = pos + 5;
      const size_t start = j;
      int value = 0;
      while (j < lim && p[j] >= '0' && p[j] <= '9' && j - start < 7) value = value * 10 + (p[j++] - '0');
      if (j > start && j + 2 <= lim && p[j] == ']' && p[j + 1] == ':') rank = value;
    } else if (p[pos] == '[' || p[pos] == ' ' || (p[pos] >= '0' && p[pos] <= '9')) {
      if (auto prefix = rank_prefix(range.substr(pos, 32))) rank = prefix->rank;
    } else if (p[pos] == '{') {
      rank = json_rank(range.substr(pos, 256));
    }
    if (rank >= 0) {
      auto& seen = in.ranks_seen;
      const size_t r = static_cast<size_t>(rank);
      if (r >= seen.size() && r < (1u << 20)) seen.resize(r + 1);
      if (r < seen.size() && !seen[r]) {
        seen[r] = true;
        note_rank(input, rank);
      }
    }
    // Where a rank runs (node, local rank) is printed in lines nobody matches (NCCL's
    // `host:pid:tid [3] NCCL INFO`): the first few skipped lines of each rank are read for it.
    auto& tries = in.attribution_tries;
    const size_t slot = static_cast<size_t>(rank + 1);
    if (slot >= tries.size()) {
      if (slot >= (1u << 20)) return;
      tries.resize(slot + 1, 0);
    }
    if (tries[slot] >= kAttributionTries) return;
    ++tries[slot];
    const char* nl = static_cast<const char*>(std::memchr(p + pos, '\n', size - pos));
    attribute_skipped(input, range.substr(pos, nl ? static_cast<size_t>(nl - p) - pos : size - pos));
  };
  if (size == 0) return;
  look(0);
  uint64_t n = 0;
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i nl = _mm_set1_epi8('\n');
  for (; i + 16 <= size; i += 16) {
    unsigned mask = static_cast<unsigned>(
        _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)), nl)));
    while (mask != 0) {
      const size_t k = i + static_cast<size_t>(__builtin_ctz(mask));
      mask &= mask - 1;
      ++n;
      if (k + 1 < size) look(k + 1);
    }
  }
#endif
  for (; i < size; ++i)
    if (p[i] == '\n') {
      ++n;
      if (i + 1 < size) look(i + 1);
    }
  in.summary.lines += n;
  state_->order += n;
}

void Diagnoser::attribute_skipped(uint32_t input, std::string_view raw) {
  State& st = *state_;
  raw = cap(raw, kMaxLine);
  std::string_view norm = raw;
  if (has_esc_or_cr(raw)) {
    normalize_line(raw, st.norm);
    norm = st.norm;
  }
  Attribution a = attribute_line(norm);
  note_pid(a, a.rank >= 0 && !a.rank_local_to_node() ? a.rank : st.inputs[input].file_attr.rank, a.body(norm));
  if (a.local_rank < 0 && a.node.empty()) return;
  SourceInfo& src = st.sources[note_rank(input, source_key(input, a, a.body(norm)))];
  if (src.local_rank < 0 && a.local_rank >= 0) src.local_rank = a.local_rank;
  if (src.node.empty() && !a.node.empty()) src.node = a.node;
}

}  // namespace denpex::logs
