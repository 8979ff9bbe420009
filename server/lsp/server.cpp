#include "denpex/server/lsp_server.h"

#include <cstdio>

#include "denpex/logs/matcher.h"
#include "denpex/server/library_loading.h"
#include "denpex/server/lsp_commands.h"

#ifndef DENPEX_VERSION
#define DENPEX_VERSION "unknown"
#endif

namespace denpex::lsp {

struct Server::Knowledge {
  std::shared_ptr<const project::Knowledge> k;
  const logs::Matcher* matcher;
};

Server::Server(Send send, ServerOptions options) : send_(std::move(send)), options_(std::move(options)) {}
Server::~Server() = default;

void Server::log(const std::string& line) const {
  if (options_.log) options_.log(line);
  else std::fprintf(stderr, "denpex lsp: %s\n", line.c_str());
}

void Server::handle(const Frame& frame) {
  switch (frame.kind) {
    case Frame::Kind::Message:
      handle_message(frame.body);
      return;
    case Frame::Kind::BadFrame:
      // The request behind a broken header cannot be identified, so the reply carries id null,
      // as JSON-RPC prescribes when the id cannot be read.
      log("bad message header: " + frame.error);
      send_(error_response(nullptr, kParseError, "bad message header: " + frame.error));
      return;
    case Frame::Kind::TooLarge:
      log(frame.error);
      send_(error_response(nullptr, kInvalidRequest, frame.error));
      return;
    case Frame::Kind::Eof:
      if (!frame.error.empty()) log(frame.error);
      return;
  }
}

void Server::handle_message(std::string_view body) {
  if (exited_) return;
  size_t bad = find_invalid_utf8(body);
  if (bad != std::string_view::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(body[bad]));
    std::string msg = "message is not valid UTF-8: ill-formed byte " + std::string(hex) + " at offset " +
                      std::to_string(bad) + " (LSP messages must be UTF-8)";
    log(msg);
    send_(error_response(nullptr, kParseError, msg));
    return;
  }
  json j;
  try {
    j = json::parse(body);
  } catch (const json::parse_error& e) {
    log(std::string("invalid JSON: ") + e.what());
    send_(error_response(nullptr, kParseError, std::string("invalid JSON: ") + e.what()));
    return;
  }
  json id;
  Message m;
  try {
    m = parse_message(j, &id);
  } catch (const RpcError& e) {
    log(std::string("invalid message: ") + e.what());
    send_(error_response(id, e.code, e.what()));
    return;
  }
  if (options_.verbose) log("<- " + (m.method.empty() ? std::string("(response)") : m.method));
  switch (m.kind) {
    case Message::Kind::Response:
      // The server sends no requests yet, so no reply can be expected.
      log("ignoring a response to a request the server did not send");
      return;
    case Message::Kind::Notification:
      try {
        dispatch_notification(m);
      } catch (const std::exception& e) {
        log(m.method + ": " + e.what());  // notifications get no reply, so the log is all there is
      }
      return;
    case Message::Kind::Request:
      try {
        dispatch_request(m);
      } catch (const RpcError& e) {
        send_(error_response(m.id, e.code, e.what()));
      } catch (const std::exception& e) {
        log(m.method + ": internal error: " + e.what());
        send_(error_response(m.id, kInternalError, std::string("internal error: ") + e.what()));
      }
      return;
  }
}

void Server::dispatch_request(const Message& m) {
  if (state_ == State::Uninitialized) {
    if (m.method != "initialize")
      throw RpcError(kServerNotInitialized, "'" + m.method + "' before initialize: send initialize first");
    json result = initialize(m.params);
    state_ = State::Running;
    send_(response(m.id, std::move(result)));
    return;
  }
  if (state_ == State::ShutDown)
    throw RpcError(kInvalidRequest, "'" + m.method + "' after shutdown: only the exit notification is accepted");
  if (m.method == "initialize") throw RpcError(kInvalidRequest, "initialize may be sent only once");
  if (m.method == "shutdown") {
    state_ = State::ShutDown;
    shutdown_ = true;
    send_(response(m.id, nullptr));
    return;
  }
  if (m.method == "workspace/executeCommand") {
    send_(response(m.id, execute_command(m.params)));
    return;
  }
  if (m.method == "denpex/documentText") {
    // Not part of LSP: shows what the server believes a document holds, so tests (and people
    // chasing a sync bug) can see the result of didOpen/didChange directly.
    std::string uri = parse_did_close(m.params);
    auto doc = documents_.get(uri);
    if (!doc) throw RpcError(kInvalidParams, "document is not open: " + uri);
    send_(response(m.id, {{"uri", doc->uri}, {"languageId", doc->language_id}, {"version", doc->version}, {"text", doc->text}}));
    return;
  }
  throw RpcError(kMethodNotFound, "unknown method '" + m.method + "'");
}

void Server::dispatch_notification(const Message& m) {
  if (m.method == "exit") {
    exited_ = true;
    return;
  }
  // The spec says notifications before initialize are dropped; after shutdown only exit matters.
  if (state_ != State::Running) {
    if (options_.verbose) log("dropping '" + m.method + "' outside the running state");
    return;
  }
  if (m.method == "initialized") return;
  if (m.method == "$/cancelRequest") {
    // Requests are answered before the next message is read, so by the time a cancellation is
    // read its request has its reply. Validated anyway so a client bug shows in the log.
    parse_cancel(m.params);
    return;
  }
  if (m.method == "textDocument/didOpen") {
    auto p = parse_did_open(m.params);
    documents_.open(std::move(p.uri), std::move(p.language_id), p.version, std::move(p.text));
    return;
  }
  if (m.method == "textDocument/didChange") {
    auto p = parse_did_change(m.params);
    if (auto err = documents_.change(p.uri, p.version, p.changes, encoding_)) throw RpcError(kInvalidParams, *err);
    return;
  }
  if (m.method == "textDocument/didClose") {
    std::string uri = parse_did_close(m.params);
    if (!documents_.close(uri)) log("didClose for a document that is not open: " + uri);
    return;
  }
  // Unknown notifications (including $/ ones) are ignored, as the spec allows.
}

json Server::initialize(const json& params) {
  auto p = parse_initialize(params);
  encoding_ = PositionEncoding::Utf16;  // the spec's default, which every client supports
  for (const auto& e : p.position_encodings)
    if (e == "utf-8") encoding_ = PositionEncoding::Utf8;  // no conversion at all: columns are bytes
  log("initialize" + (p.client_name.empty() ? std::string() : " from " + p.client_name) +
      "; position encoding " + std::string(to_string(encoding_)));
  return {{"capabilities",
           {{"positionEncoding", to_string(encoding_)},
            {"textDocumentSync", {{"openClose", true}, {"change", 2 /* Incremental */}}},
            {"executeCommandProvider", {{"commands", {kDiagnoseTextCommand}}}}}},
          {"serverInfo", {{"name", "denpex"}, {"version", DENPEX_VERSION}}}};
}

const Server::Knowledge& Server::knowledge() {
  if (!knowledge_) {
    auto k = std::make_unique<Knowledge>();
    k->k = project::load_knowledge(options_.signature_dirs);
    for (const auto& p : k->k->loaded.problems) log("warning: " + p.str());
    k->matcher = k->k->matcher.get();
    knowledge_ = std::move(k);
  }
  return *knowledge_;
}

json Server::execute_command(const json& params) {
  auto p = parse_execute_command(params);
  if (p.command != kDiagnoseTextCommand) throw RpcError(kInvalidParams, "unknown command '" + p.command + "'");
  if (p.arguments.size() != 1 || !p.arguments[0].is_string())
    throw RpcError(kInvalidParams, std::string(kDiagnoseTextCommand) + " takes one argument: the log text (a string)");
  return diagnose_text(*knowledge().matcher, p.arguments[0].get<std::string>());
}

int serve(FrameReader& in, FrameWriter& out, const ServerOptions& options) {
  // error_handler_t::replace: text cut from a log (evidence lines are capped) may end inside a
  // UTF-8 sequence; a reply must never fail to serialise because of it.
  Server server([&out](const json& j) { out.send(j.dump(-1, ' ', false, json::error_handler_t::replace)); }, options);
  while (!server.exited()) {
    Frame f = in.next();
    if (f.kind == Frame::Kind::Eof) {
      server.handle(f);
      server.note("input closed without an exit notification");
      break;
    }
    server.handle(f);
    if (!out.ok()) {
      server.note("cannot write to the client; stopping");
      break;
    }
  }
  return server.exit_code();
}

}  // namespace denpex::lsp
