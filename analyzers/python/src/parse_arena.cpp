#include "denpex/python/parse_arena.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "denpex/python/parse.h"
#include "parse_arena_state.h"

// GCC says it with macros, clang with __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define DENPEX_PARSE_ARENA 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define DENPEX_PARSE_ARENA 0
#endif
#endif
#ifndef DENPEX_PARSE_ARENA
#define DENPEX_PARSE_ARENA 1
#endif

namespace denpex::python {
namespace {

// Every block handed to tree-sitter carries this header, so free() and realloc() know where the
// block came from without searching the arena's chunks.
struct alignas(16) Header {
  size_t size;
  uint64_t tag;
};
constexpr uint64_t kHeapTag = 0x68656170626c6b21ull;   // malloc'd: freed one by one
constexpr uint64_t kArenaTag = 0x6172656e61626c6bull;  // in an arena: dropped with it

constexpr size_t kChunk = size_t{1} << 20;
constexpr size_t kKeep = size_t{8} << 20;     // chunks kept for the thread's next scope
constexpr size_t kLimit = size_t{512} << 20;  // beyond this a pathological file goes back to malloc

struct Arena {
  std::vector<char*> chunks;  // chunks[used - 1] is being filled
  size_t used = 0;
  size_t offset = 0;          // in the current chunk
  size_t total = 0;           // bytes handed out in this scope
  char* last = nullptr;       // the most recent block: it can grow in place
  bool open = false;
  bool spilled = false;       // some allocation of this scope went to malloc
  TSParser* parser = nullptr;

  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() {  // the chunks kept for the thread's next scope go with the thread
    for (char* c : chunks) std::free(c);
  }
};

thread_local Arena t_arena;

size_t round16(size_t n) { return (n + 15) & ~size_t{15}; }
Header* header(void* p) { return static_cast<Header*>(p) - 1; }

void* heap_alloc(size_t n, bool zero) {
  if (n > SIZE_MAX - sizeof(Header)) return nullptr;
  void* raw = zero ? std::calloc(1, sizeof(Header) + n) : std::malloc(sizeof(Header) + n);
  if (!raw) return nullptr;
  auto* h = static_cast<Header*>(raw);
  h->size = n;
  h->tag = kHeapTag;
  return h + 1;
}

void* arena_alloc(size_t n) {
  Arena& a = t_arena;
  size_t need = sizeof(Header) + round16(n);
  if (n > kLimit || a.total + need > kLimit) {
    a.spilled = true;
    return heap_alloc(n, false);
  }
  if (a.used == 0 || a.offset + need > kChunk) {
    if (need > kChunk) {  // a large block gets a chunk of its own, inserted before the current one
      a.spilled = true;
      return heap_alloc(n, false);
    }
    if (a.used == a.chunks.size()) {
      char* c = static_cast<char*>(std::malloc(kChunk));
      if (!c) return nullptr;
      a.chunks.push_back(c);
    }
    ++a.used;
    a.offset = 0;
  }
  char* at = a.chunks[a.used - 1] + a.offset;
  a.offset += need;
  a.total += need;
  auto* h = reinterpret_cast<Header*>(at);
  h->size = n;
  h->tag = kArenaTag;
  a.last = reinterpret_cast<char*>(h + 1);
  return a.last;
}

void* ts_alloc(size_t n) { return t_arena.open ? arena_alloc(n) : heap_alloc(n, false); }

// The allocator functions are installed only when the arena is on (not under sanitizers).
[[maybe_unused]] void* ts_zalloc(size_t count, size_t size) {
  if (size != 0 && count > SIZE_MAX / size) return nullptr;
  size_t n = count * size;
  if (!t_arena.open) return heap_alloc(n, true);
  void* p = arena_alloc(n);
  if (p) std::memset(p, 0, n);
  return p;
}

[[maybe_unused]] void ts_release(void* p) {
  if (p && header(p)->tag == kHeapTag) std::free(header(p));
}

[[maybe_unused]] void* ts_resize(void* p, size_t n) {
  if (!p) return ts_alloc(n);
  Header* h = header(p);
  if (h->tag == kHeapTag) {
    if (n > SIZE_MAX - sizeof(Header)) return nullptr;
    auto* moved = static_cast<Header*>(std::realloc(h, sizeof(Header) + n));
    if (!moved) return nullptr;
    moved->size = n;
    return moved + 1;
  }
  Arena& a = t_arena;
  // The last block of the current chunk grows in place: tree-sitter's arrays double as they fill.
  if (a.open && p == a.last) {
    size_t old_need = round16(h->size), new_need = round16(n);
    if (new_need <= old_need || (a.offset - old_need + new_need <= kChunk && a.total - old_need + new_need <= kLimit)) {
      a.offset = a.offset - old_need + new_need;
      a.total = a.total - old_need + new_need;
      h->size = n;
      return p;
    }
  }
  void* q = ts_alloc(n);
  if (q) std::memcpy(q, p, h->size < n ? h->size : n);
  return q;
}

}  // namespace

namespace arena {

void install() {
#if DENPEX_PARSE_ARENA
  static std::once_flag once;
  std::call_once(once, [] { ts_set_allocator(ts_alloc, ts_zalloc, ts_resize, ts_release); });
#endif
}

TSParser* scope_parser() {
  Arena& a = t_arena;
  if (!a.open) return nullptr;
  if (!a.parser) {
    a.parser = ts_parser_new();
    if (!ts_parser_set_language(a.parser, language())) {
      ts_parser_delete(a.parser);
      a.parser = nullptr;
    }
  }
  return a.parser;
}

bool spilled() { return t_arena.spilled; }

}  // namespace arena

ParseArena::ParseArena() {
#if DENPEX_PARSE_ARENA
  arena::install();
  if (t_arena.open) return;
  t_arena.open = true;
  owner_ = true;
#endif
}

ParseArena::~ParseArena() {
  if (!owner_) return;
  Arena& a = t_arena;
  // The parser holds the external scanner's state, which the grammar allocates with plain malloc.
  if (a.parser) ts_parser_delete(a.parser);
  a.parser = nullptr;
  a.open = false;
  size_t keep = kKeep / kChunk;
  while (a.chunks.size() > keep) {
    std::free(a.chunks.back());
    a.chunks.pop_back();
  }
  a.used = a.offset = a.total = 0;
  a.last = nullptr;
  a.spilled = false;
}

}  // namespace denpex::python
