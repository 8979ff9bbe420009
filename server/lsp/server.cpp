// Lifecycle and dispatch: one message in, at most one reply out.
#include <csignal>
#include <cstdio>
#include <filesystem>

#include "denpex/server/lsp_commands.h"
#include "server_impl.h"

#ifndef DENPEX_VERSION
#define DENPEX_VERSION "unknown"
#endif

namespace denpex::lsp {

namespace {

const std::vector<std::string> kCommands = {"denpex.diagnose", "denpex.explain", "denpex.copyVerifyCommand",
                                            "denpex.checkWorkspace", std::string(kDiagnoseTextCommand)};

bool has_path(const json& j, std::initializer_list<const char*> keys) {
  const json* p = &j;
  for (const char* k : keys) {
    if (!p->is_object() || !p->contains(k)) return false;
    p = &(*p)[k];
  }
  return !p->is_null() && !(p->is_boolean() && !p->get<bool>());
}

const json& at_path(const json& j, std::initializer_list<const char*> keys) {
  static const json null;
  const json* p = &j;
  for (const char* k : keys) {
    if (!p->is_object() || !p->contains(k)) return null;
    p = &(*p)[k];
  }
  return *p;
}

}  // namespace

Server::Impl::Impl(Send s, ServerOptions o) : send(std::move(s)), options(std::move(o)) {}
Server::Impl::~Impl() { stop(); }

void Server::Impl::log(const std::string& line) const {
  if (options.log) options.log(line);
  else std::fprintf(stderr, "denpex lsp: %s\n", line.c_str());
}

void Server::Impl::show_message(int type, const std::string& text) {
  log(text);
  send(notification("window/showMessage", {{"type", type}, {"message", text}}));
}

void Server::Impl::request(const std::string& method, json params) {
  json m = {{"jsonrpc", "2.0"}, {"id", "denpex-" + std::to_string(next_request_id++)}, {"method", method}};
  if (!params.is_null()) m["params"] = std::move(params);
  send(m);
}

std::shared_future<bool> Server::Impl::request_awaited(const std::string& method, json params) {
  std::string id = "denpex-" + std::to_string(next_request_id++);
  std::shared_future<bool> f;
  {
    std::lock_guard<std::mutex> lock(mu);
    f = awaiting[id].get_future().share();
  }
  json m = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
  send(m);
  return f;
}

void Server::Impl::on_response(const json& id, bool ok) {
  if (!id.is_string()) return;
  std::lock_guard<std::mutex> lock(mu);
  auto it = awaiting.find(id.get<std::string>());
  if (it == awaiting.end()) return;
  it->second.set_value(ok);
  awaiting.erase(it);
}

Server::Server(Send send, ServerOptions options) : impl_(std::make_unique<Impl>(std::move(send), std::move(options))) {}
Server::~Server() = default;

bool Server::exited() const { return impl_->exited; }
int Server::exit_code() const { return impl_->shutdown ? 0 : 1; }
PositionEncoding Server::encoding() const { return impl_->encoding; }
long Server::client_pid() const { return impl_->client_pid; }
const DocumentStore& Server::documents() const { return impl_->documents; }
void Server::wait_idle() { impl_->wait_idle(); }
void Server::note(const std::string& line) const { impl_->log(line); }

void Server::handle(Frame frame) {
  Impl& s = *impl_;
  switch (frame.kind) {
    case Frame::Kind::Message:
      handle_message(std::move(frame.body));
      return;
    case Frame::Kind::BadFrame:
      // The request behind a broken header cannot be identified, so the reply carries id null,
      // as JSON-RPC prescribes when the id cannot be read.
      s.log("bad message header: " + frame.error);
      s.send(error_response(nullptr, kParseError, "bad message header: " + frame.error));
      return;
    case Frame::Kind::TooLarge:
      s.log(frame.error);
      s.send(error_response(nullptr, kInvalidRequest, frame.error));
      return;
    case Frame::Kind::Eof:
      if (!frame.error.empty()) s.log(frame.error);
      return;
  }
}

namespace {

void dispatch_request(Server::Impl& s, const Message& m);
void dispatch_notification(Server::Impl& s, Message& m);

}  // namespace

void Server::handle_message(std::string body) {
  Impl& s = *impl_;
  if (s.exited) return;
  size_t bad = find_invalid_utf8(body);
  if (bad != std::string_view::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(body[bad]));
    std::string msg = "message is not valid UTF-8: ill-formed byte " + std::string(hex) + " at offset " +
                      std::to_string(bad) + " (LSP messages must be UTF-8)";
    s.log(msg);
    s.send(error_response(nullptr, kParseError, msg));
    return;
  }
  json j;
  try {
    j = json::parse(body);
  } catch (const json::parse_error& e) {
    s.log(std::string("invalid JSON: ") + e.what());
    s.send(error_response(nullptr, kParseError, std::string("invalid JSON: ") + e.what()));
    return;
  }
  std::string().swap(body);
  json id;
  Message m;
  try {
    m = parse_message(j, &id);
  } catch (const RpcError& e) {
    s.log(std::string("invalid message: ") + e.what());
    s.send(error_response(id, e.code, e.what()));
    return;
  }
  if (s.options.verbose) s.log("<- " + (m.method.empty() ? std::string("(response)") : m.method));
  switch (m.kind) {
    case Message::Kind::Response:
      // Replies to the server's own requests (progress tokens, refresh, registration): nothing
      // waits on them; an error is worth a log line.
      if (j.contains("error")) s.log("the client answered a server request with an error: " + j["error"].dump());
      s.on_response(m.id, !j.contains("error"));
      return;
    case Message::Kind::Notification:
      try {
        dispatch_notification(s, m);
      } catch (const std::exception& e) {
        s.log(m.method + ": " + e.what());  // notifications get no reply, so the log is all there is
      }
      return;
    case Message::Kind::Request:
      try {
        dispatch_request(s, m);
      } catch (const RpcError& e) {
        s.send(error_response(m.id, e.code, e.what()));
      } catch (const std::exception& e) {
        s.log(m.method + ": internal error: " + e.what());
        s.send(error_response(m.id, kInternalError, std::string("internal error: ") + e.what()));
      }
      return;
  }
}

namespace {

json initialize(Server::Impl& s, const json& params) {
  auto p = parse_initialize(params);
  s.encoding = PositionEncoding::Utf16;  // the spec's default, which every client supports
  for (const auto& e : p.position_encodings)
    if (e == "utf-8") s.encoding = PositionEncoding::Utf8;  // no conversion at all: columns are bytes
  const json& caps = at_path(params, {"capabilities"});
  s.pull = has_path(caps, {"textDocument", "diagnostic"});
  s.refresh_support = has_path(caps, {"workspace", "diagnostics", "refreshSupport"});
  s.progress_support = has_path(caps, {"window", "workDoneProgress"});
  s.watch_registration = has_path(caps, {"workspace", "didChangeWatchedFiles", "dynamicRegistration"});
  const json& props = at_path(caps, {"textDocument", "codeAction", "resolveSupport", "properties"});
  if (props.is_array())
    for (const auto& x : props) s.resolve_edits = s.resolve_edits || x == "edit";
  s.resolve_edits = s.resolve_edits && has_path(caps, {"textDocument", "codeAction", "dataSupport"});
  if (const json& pid = at_path(params, {"processId"}); pid.is_number_integer()) s.client_pid = pid.get<long>();

  std::vector<std::string> roots;
  if (const json& folders = at_path(params, {"workspaceFolders"}); folders.is_array()) {
    for (const auto& f : folders)
      if (f.is_object() && f.contains("uri") && f["uri"].is_string())
        if (auto path = uri_to_path(f["uri"].get<std::string>())) roots.push_back(*path);
  }
  if (roots.empty())
    if (const json& root = at_path(params, {"rootUri"}); root.is_string())
      if (auto path = uri_to_path(root.get<std::string>())) roots.push_back(*path);
  if (roots.empty())
    if (const json& root = at_path(params, {"rootPath"}); root.is_string()) roots.push_back(root.get<std::string>());

  std::vector<std::string> problems;
  Settings settings = parse_settings(at_path(params, {"initializationOptions"}), Settings{}, &problems);
  {
    std::lock_guard<std::mutex> lock(s.mu);
    s.settings = std::move(settings);
    s.roots = std::move(roots);
  }
  for (const auto& pr : problems) s.show_message(2, "Denpex: " + pr);
  s.log("initialize" + (p.client_name.empty() ? std::string() : " from " + p.client_name) + "; position encoding " +
        std::string(to_string(s.encoding)) + (s.pull ? "; pull diagnostics" : "; push diagnostics"));

  json capabilities = {
      {"positionEncoding", to_string(s.encoding)},
      {"textDocumentSync", {{"openClose", true}, {"change", 2 /* Incremental */}}},
      {"hoverProvider", true},
      {"codeActionProvider",
       {{"codeActionKinds", {"quickfix", "source.fixAll.denpex"}}, {"resolveProvider", s.resolve_edits}}},
      {"executeCommandProvider", {{"commands", kCommands}}},
      {"workspace", {{"workspaceFolders", {{"supported", true}}}}},
  };
  if (s.pull)
    capabilities["diagnosticProvider"] = {{"identifier", "denpex"}, {"interFileDependencies", true}, {"workspaceDiagnostics", true}};
  return {{"capabilities", std::move(capabilities)}, {"serverInfo", {{"name", "denpex"}, {"version", DENPEX_VERSION}}}};
}

void initialized(Server::Impl& s) {
  s.start_workers();
  if (s.watch_registration) {
    json watchers = json::array({{{"globPattern", "**/pyproject.toml"}}});
    std::vector<std::string> dirs = s.options.signature_dirs;
    dirs.insert(dirs.end(), s.settings.signature_dirs.begin(), s.settings.signature_dirs.end());
    for (const auto& d : dirs) watchers.push_back({{"globPattern", (std::filesystem::absolute(d) / "**/*.yaml").string()}});
    s.request("client/registerCapability",
              {{"registrations", json::array({{{"id", "denpex-watch"}, {"method", "workspace/didChangeWatchedFiles"},
                                                 {"registerOptions", {{"watchers", watchers}}}}})}});
  }
  // Load the encyclopedia now, after initialize was answered, so the first log opens fast.
  if (s.options.threads > 0) s.library();
}

void reanalyze_all(Server::Impl& s, bool logs_only) {
  std::vector<std::string> uris;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    for (auto& [uri, st] : s.states) {
      if (logs_only && !st->log) continue;
      // Forget the results so the next analysis is not skipped as current; one running now read
      // the old settings, so it must not land as current either.
      st->python_result.reset();
      st->log_result.reset();
      if (st->running) st->cancel.cancel();
      uris.push_back(uri);
    }
  }
  for (const auto& uri : uris) s.schedule(uri);
}

void did_change_configuration(Server::Impl& s, const json& params) {
  std::vector<std::string> problems;
  Settings old;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    old = s.settings;
  }
  Settings next = parse_settings(at_path(params, {"settings"}), old, &problems);
  for (const auto& p : problems) s.show_message(2, "Denpex: " + p);
  bool library_changed = next.signature_dirs != old.signature_dirs;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    s.settings = std::move(next);
  }
  if (library_changed) s.reload_library();
  reanalyze_all(s, false);
}

void did_change_watched_files(Server::Impl& s, const json& params) {
  bool config = false, library = false;
  if (const json& changes = at_path(params, {"changes"}); changes.is_array())
    for (const auto& c : changes) {
      std::string uri = c.value("uri", "");
      if (uri.size() >= 14 && uri.compare(uri.size() - 14, 14, "pyproject.toml") == 0) config = true;
      if (uri.size() >= 5 && (uri.compare(uri.size() - 5, 5, ".yaml") == 0 || uri.compare(uri.size() - 4, 4, ".yml") == 0)) library = true;
    }
  if (config) {
    std::lock_guard<std::mutex> lock(s.mu);
    s.config_for_dir.clear();
    s.good_configs.clear();
    s.reported.clear();
  }
  if (library) s.reload_library();
  if (config || library) reanalyze_all(s, !config);
}

void did_open(Server::Impl& s, json& params) {
  auto p = parse_did_open(params);
  std::string uri = p.uri;
  s.documents.open(std::move(p.uri), std::move(p.language_id), p.version, std::move(p.text));
  auto doc = s.documents.get(uri);
  {
    std::lock_guard<std::mutex> lock(s.mu);
    auto st = std::make_shared<DocState>();
    st->doc = doc;
    st->log = is_log_document(uri, doc->language_id, s.settings.log_globs);
    st->python = !st->log && is_python_document(uri, doc->language_id);
    if (auto old = s.states.find(uri); old != s.states.end()) old->second->open = false;
    s.states[uri] = st;
    // A workspace check's result for this file is superseded by the live analysis.
    if (auto c = s.contributions.find(uri); c != s.contributions.end()) c->second.erase("check");
  }
  s.schedule(uri);
}

void did_change(Server::Impl& s, const json& params) {
  auto p = parse_did_change(params);
  if (auto err = s.documents.change(p.uri, p.version, p.changes, s.encoding)) throw RpcError(kInvalidParams, *err);
  {
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.states.find(p.uri);
    if (it == s.states.end()) return;
    it->second->doc = s.documents.get(p.uri);
  }
  s.schedule(p.uri);
}

void did_close(Server::Impl& s, const json& params) {
  std::string uri = parse_did_close(params);
  if (!s.documents.close(uri)) {
    s.log("didClose for a document that is not open: " + uri);
    return;
  }
  std::lock_guard<std::mutex> lock(s.mu);
  auto it = s.states.find(uri);
  if (it == s.states.end()) return;
  auto st = it->second;
  st->open = false;
  st->cancel.cancel();
  for (const auto& id : st->pulls) s.send(error_response(id, kRequestCancelled, "the document was closed"));
  st->pulls.clear();
  s.states.erase(it);
  // What this log pointed at in source files disappears with it.
  if (st->log) s.set_contributions_locked(uri, {});
  // Clear what the editor shows for it (what other logs point at in it stays).
  if (st->log || st->python || s.contributions.count(uri)) s.publish_locked(uri);
}

void dispatch_request(Server::Impl& s, const Message& m) {
  if (s.state == Server::Impl::State::Uninitialized) {
    if (m.method != "initialize")
      throw RpcError(kServerNotInitialized, "'" + m.method + "' before initialize: send initialize first");
    json result = initialize(s, m.params);
    s.state = Server::Impl::State::Running;
    s.send(response(m.id, std::move(result)));
    return;
  }
  if (s.state == Server::Impl::State::ShutDown)
    throw RpcError(kInvalidRequest, "'" + m.method + "' after shutdown: only the exit notification is accepted");
  if (m.method == "initialize") throw RpcError(kInvalidRequest, "initialize may be sent only once");
  if (m.method == "shutdown") {
    s.state = Server::Impl::State::ShutDown;
    s.shutdown = true;
    s.stop();
    s.send(response(m.id, nullptr));
    return;
  }
  bool deferred = false;
  json result;
  if (m.method == "textDocument/hover") result = s.hover(m.params);
  else if (m.method == "textDocument/codeAction") result = s.code_action(m.params);
  else if (m.method == "codeAction/resolve") result = s.resolve_code_action(m.params);
  else if (m.method == "textDocument/diagnostic") result = s.document_diagnostic(m.id, m.params, &deferred);
  else if (m.method == "workspace/diagnostic") result = s.workspace_diagnostic();
  else if (m.method == "workspace/executeCommand") result = s.execute_command(m.id, m.params, &deferred);
  else if (m.method == "denpex/documentText") {
    // Not part of LSP: shows what the server believes a document holds, so tests (and people
    // chasing a sync bug) can see the result of didOpen/didChange directly.
    std::string uri = parse_did_close(m.params);
    auto doc = s.documents.get(uri);
    if (!doc) throw RpcError(kInvalidParams, "document is not open: " + uri);
    result = {{"uri", doc->uri}, {"languageId", doc->language_id}, {"version", doc->version}, {"text", doc->text}};
  } else {
    throw RpcError(kMethodNotFound, "unknown method '" + m.method + "'");
  }
  if (!deferred) s.send(response(m.id, std::move(result)));
}

void dispatch_notification(Server::Impl& s, Message& m) {
  if (m.method == "exit") {
    s.exited = true;
    return;
  }
  // The spec says notifications before initialize are dropped; after shutdown only exit matters.
  if (s.state != Server::Impl::State::Running) {
    if (s.options.verbose) s.log("dropping '" + m.method + "' outside the running state");
    return;
  }
  if (m.method == "initialized") return initialized(s);
  if (m.method == "$/cancelRequest") {
    // Requests are answered in order (a deferred one as soon as its analysis is done), so there is
    // nothing to stop; validated so a client bug shows in the log.
    parse_cancel(m.params);
    return;
  }
  if (m.method == "textDocument/didOpen") return did_open(s, m.params);
  if (m.method == "textDocument/didChange") return did_change(s, m.params);
  if (m.method == "textDocument/didClose") return did_close(s, m.params);
  if (m.method == "textDocument/didSave") return;
  if (m.method == "workspace/didChangeConfiguration") return did_change_configuration(s, m.params);
  if (m.method == "workspace/didChangeWatchedFiles") return did_change_watched_files(s, m.params);
  // Unknown notifications (including $/ ones) are ignored, as the spec allows.
}

}  // namespace

}  // namespace denpex::lsp
