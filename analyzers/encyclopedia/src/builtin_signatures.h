#pragma once
#include <cstddef>
#include <string_view>

namespace denpex::encyclopedia {
struct EmbeddedFile {
  const char* path;  // relative to signatures/
  std::string_view text;
};
extern const EmbeddedFile kBuiltinSignatures[];
extern const size_t kBuiltinSignatureCount;
}  // namespace denpex::encyclopedia
