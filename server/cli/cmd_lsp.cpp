// `denpex lsp`: the language server on stdin/stdout. Logs go to stderr only.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "denpex/server/cli.h"
#include "denpex/server/lsp_server.h"
#include "denpex/server/options.h"
#include "denpex/server/transport.h"

namespace denpex::cli {
namespace {

const char* kHelp =
    "Usage: denpex lsp [options]\n\n"
    "Start the Denpex language server. It speaks the Language Server Protocol (JSON-RPC with\n"
    "Content-Length framing) on stdin/stdout and logs to stderr; editors start it for you.\n\n"
    "Options:\n"
    "  --signatures DIR           Also load entries from DIR (repeatable; overrides built-in ids)\n"
    "  --max-message-bytes N      Refuse messages larger than N bytes (default: 256 MiB)\n"
    "  --threads N                Analysis worker threads (default: 2; 0 analyses inline, in order)\n"
    "  --verbose                  Log every incoming method to stderr\n"
    "  --stdio                    Accepted for clients that always pass it (stdio is the only transport)\n"
    "  -h, --help                 Show this help\n\n"
    "Exit codes: 0 after shutdown and exit, 1 when the client exits or disconnects without shutdown.\n"
    "See docs/lsp.md for the supported methods.\n";

}  // namespace

int cmd_lsp(const Args& args) {
  Options opts("lsp", kHelp);
  opts.value("signatures").value("max-message-bytes").value("threads").flag("verbose").flag("stdio");
  if (auto rc = opts.parse(args)) return *rc;
  if (opts.help()) return kOk;
  if (!opts.positional().empty()) return opts.usage_error("unexpected argument '" + opts.positional()[0] + "'");
  size_t max_bytes = lsp::kDefaultMaxMessageBytes;
  if (opts.has("max-message-bytes")) {
    std::string v = opts.get("max-message-bytes");
    try {
      size_t used = 0;
      unsigned long long n = std::stoull(v, &used);
      if (used != v.size() || n == 0 || v[0] == '-') throw std::invalid_argument(v);
      max_bytes = static_cast<size_t>(n);
    } catch (const std::exception&) {
      return opts.usage_error("--max-message-bytes expects a positive number of bytes, got '" + v + "'");
    }
  }
  lsp::ServerOptions server_options;
  server_options.signature_dirs = opts.all("signatures");
  server_options.verbose = opts.has("verbose");
  server_options.threads = 2;
  if (opts.has("threads")) {
    const std::string v = opts.get("threads");
    char* end = nullptr;
    long n = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || n < 0 || n > 64) return opts.usage_error("--threads expects 0..64, got '" + v + "'");
    server_options.threads = static_cast<unsigned>(n);
  }

  // A client that disappears must end the server with an error, not kill it mid-write.
  std::signal(SIGPIPE, SIG_IGN);
  // The protocol owns stdout. Keep it on a private descriptor and point fd 1 at stderr, so a
  // stray printf anywhere in the engines ends up in the log instead of corrupting the stream.
  int protocol_out = ::dup(STDOUT_FILENO);
  if (protocol_out < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::perror("denpex lsp: cannot set up stdout");
    return kUsage;
  }
  auto in = lsp::FrameReader::from_fd(STDIN_FILENO, max_bytes);
  auto out = lsp::FrameWriter::to_fd(protocol_out);
  int rc = lsp::serve(in, out, server_options);
  ::close(protocol_out);
  return rc;
}

}  // namespace denpex::cli
