#pragma once
// The language server's lifecycle and dispatch: one message in, at most one reply out, in order.
// It knows JSON-RPC and LSP; the work behind each method lives in features/ and the engines.
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
  // Where log lines go; stderr when empty. Never stdout: that belongs to the protocol.
  std::function<void(const std::string&)> log;
};

class Server {
 public:
  // `send` receives every outgoing message; it must be safe to call from any thread.
  using Send = std::function<void(const json&)>;
  Server(Send send, ServerOptions options);
  ~Server();

  // Handles one frame from the transport (a message, or a framing error to report).
  void handle(const Frame& frame);
  void handle_message(std::string_view body);

  bool exited() const { return exited_; }
  // 0 after shutdown then exit, 1 when the client exited (or went away) without shutdown.
  int exit_code() const { return shutdown_ ? 0 : 1; }
  PositionEncoding encoding() const { return encoding_; }
  const DocumentStore& documents() const { return documents_; }
  void note(const std::string& line) const { log(line); }  // for the loop around the server

 private:
  enum class State { Uninitialized, Running, ShutDown };
  void dispatch_request(const Message& m);
  void dispatch_notification(const Message& m);
  json initialize(const json& params);
  json execute_command(const json& params);
  void log(const std::string& line) const;

  struct Knowledge;  // the encyclopedia and its matcher, loaded on first use
  const Knowledge& knowledge();

  Send send_;
  ServerOptions options_;
  State state_ = State::Uninitialized;
  bool shutdown_ = false;
  bool exited_ = false;
  PositionEncoding encoding_ = PositionEncoding::Utf16;
  DocumentStore documents_;
  std::unique_ptr<Knowledge> knowledge_;
};

// Reads frames until `exit` or end of input; returns the process exit code.
int serve(FrameReader& in, FrameWriter& out, const ServerOptions& options);

}  // namespace denpex::lsp
