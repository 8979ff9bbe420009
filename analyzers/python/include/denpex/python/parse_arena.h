#pragma once
// Batch parsing without per-node frees. While a ParseArena lives on a thread, the trees parsed on
// that thread (and their cursors) are built in a bump arena and dropped all at once when it ends,
// instead of being freed node by node: tree-sitter's malloc/free and its release walk were ~15% of
// `denpex check` on a large tree. Every Tree and Module made in the scope must be gone before it
// ends. Scopes do not nest (an inner one does nothing). Under a sanitizer the arena is off, so that
// ASan and TSan keep seeing every tree-sitter allocation.
namespace denpex::python {

class ParseArena {
 public:
  ParseArena();
  ~ParseArena();
  ParseArena(const ParseArena&) = delete;
  ParseArena& operator=(const ParseArena&) = delete;

 private:
  bool owner_ = false;
};

}  // namespace denpex::python
