// A whole language-server session from bytes: framing, JSON-RPC, dispatch, documents, analyses
// (inline). Invariants: no crash, no sanitizer report, every output is serialisable JSON.
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <string>

#include "denpex/server/lsp_server.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  size_t pos = 0;
  denpex::lsp::FrameReader reader(
      [&](char* buf, size_t n) -> long {
        size_t k = std::min(n, size - pos);
        std::memcpy(buf, data + pos, k);
        pos += k;
        return static_cast<long>(k);
      },
      1 << 20);
  denpex::lsp::ServerOptions options;
  options.threads = 0;
  options.log = [](const std::string&) {};
  denpex::lsp::Server server([](const denpex::lsp::json& m) { (void)m.dump(-1, ' ', false, denpex::lsp::json::error_handler_t::replace); },
                             options);
  for (int frames = 0; frames < 256 && !server.exited(); ++frames) {
    denpex::lsp::Frame f = reader.next();
    if (f.kind == denpex::lsp::Frame::Kind::Eof) break;
    server.handle(std::move(f));
  }
  return 0;
}
