#pragma once
// The language server: lifecycle, dispatch, and the scheduling of analyses. It knows JSON-RPC and
// LSP; what each feature computes lives in features/ (pure functions, no JSON) and the engines.
//
// Threads: the caller's thread reads and handles messages in order and owns the document store;
// analyses run on a small pool over immutable document snapshots, latest version wins (a newer
// edit cancels the running analysis of that document); results are published only for the
// version they were computed from. `threads = 0` analyses inline, in message order, which makes
// tests deterministic.
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "denpex/server/document.h"
#include "denpex/server/protocol.h"
#include "denpex/server/transport.h"

namespace denpex::lsp {

struct ServerOptions {
  std::vector<std::string> signature_dirs;  // user encyclopedia directories, as `--signatures`
  bool verbose = false;                     // log every message's method
  unsigned threads = 0;                     // analysis workers; 0: inline
  // Where log lines go; stderr when empty. Never stdout: that belongs to the protocol.
  std::function<void(const std::string&)> log;
};

class Server {
 public:
  // `send` receives every outgoing message; it must be safe to call from any thread.
  using Send = std::function<void(const json&)>;
  Server(Send send, ServerOptions options);
  ~Server();

  // Handles one frame from the transport (a message, or a framing error to report). Both take
  // their input by value: a 50 MB didOpen is parsed once and its bytes freed before the document
  // is stored, so a big log costs about twice its size, not five times.
  void handle(Frame frame);
  void handle_message(std::string body);

  bool exited() const;
  // 0 after shutdown then exit, 1 when the client exited (or went away) without shutdown.
  int exit_code() const;
  PositionEncoding encoding() const;
  // The client's process id from initialize, 0 when it gave none.
  long client_pid() const;
  const DocumentStore& documents() const;
  // Blocks until no analysis is queued or running (tests and benchmarks).
  void wait_idle();
  void note(const std::string& line) const;  // for the loop around the server

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Reads frames until `exit` or end of input; returns the process exit code. Outgoing messages are
// written by one writer thread; the server exits when the client's process (initialize's
// processId) dies.
int serve(FrameReader& in, FrameWriter& out, const ServerOptions& options);

}  // namespace denpex::lsp
