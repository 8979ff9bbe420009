#include "denpex/server/protocol.h"

namespace denpex::lsp {
namespace {

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw RpcError(kInvalidParams, path + ": " + what);
}

const json& need(const json& obj, const char* key, const std::string& path) {
  if (!obj.is_object()) bad(path, "expected an object");
  auto it = obj.find(key);
  if (it == obj.end()) bad(path + "." + key, "missing");
  return *it;
}

std::string need_string(const json& obj, const char* key, const std::string& path) {
  const json& v = need(obj, key, path);
  if (!v.is_string()) bad(path + "." + key, "expected a string");
  return v.get<std::string>();
}

int64_t need_int(const json& obj, const char* key, const std::string& path) {
  const json& v = need(obj, key, path);
  if (!v.is_number_integer()) bad(path + "." + key, "expected an integer");
  return v.get<int64_t>();
}

uint32_t need_uint(const json& obj, const char* key, const std::string& path) {
  const json& v = need(obj, key, path);
  // LSP's uinteger is 0..2^31-1.
  if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > INT32_MAX)
    bad(path + "." + key, "expected a non-negative integer");
  return static_cast<uint32_t>(v.get<int64_t>());
}

LspPosition parse_position(const json& j, const std::string& path) {
  return {need_uint(j, "line", path), need_uint(j, "character", path)};
}

bool valid_id(const json& id) { return id.is_string() || id.is_number_integer(); }

}  // namespace

Message parse_message(json& j, json* id) {
  *id = nullptr;
  if (!j.is_object()) {
    if (j.is_array()) throw RpcError(kInvalidRequest, "batch messages are not supported by the Language Server Protocol");
    throw RpcError(kInvalidRequest, "a message must be a JSON object");
  }
  Message m;
  auto id_it = j.find("id");
  bool has_id = id_it != j.end();
  if (has_id) {
    if (!valid_id(*id_it)) throw RpcError(kInvalidRequest, "\"id\" must be an integer or a string");
    *id = *id_it;
    m.id = *id_it;
  }
  auto v = j.find("jsonrpc");
  if (v == j.end() || *v != "2.0") throw RpcError(kInvalidRequest, "\"jsonrpc\" must be \"2.0\"");
  auto method = j.find("method");
  if (method == j.end()) {
    if (has_id && (j.contains("result") || j.contains("error"))) {
      m.kind = Message::Kind::Response;
      *id = nullptr;  // never reply to a reply
      return m;
    }
    throw RpcError(kInvalidRequest, "message has no \"method\"");
  }
  if (!method->is_string()) throw RpcError(kInvalidRequest, "\"method\" must be a string");
  m.method = method->get<std::string>();
  auto params = j.find("params");
  if (params != j.end()) {
    if (!params->is_object() && !params->is_array())
      throw RpcError(kInvalidRequest, "\"params\" must be an object or an array");
    m.params = std::move(*params);
  }
  m.kind = has_id ? Message::Kind::Request : Message::Kind::Notification;
  return m;
}

json response(const json& id, json result) { return {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}; }

json error_response(const json& id, int code, const std::string& message) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json notification(const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

InitializeParams parse_initialize(const json& params) {
  InitializeParams p;
  if (!params.is_object()) bad("params", "expected an object");
  // Everything in InitializeParams is optional for us: an old client that sends little still works.
  auto caps = params.find("capabilities");
  if (caps != params.end() && caps->is_object()) {
    auto general = caps->find("general");
    if (general != caps->end() && general->is_object()) {
      auto enc = general->find("positionEncodings");
      if (enc != general->end()) {
        if (!enc->is_array()) bad("params.capabilities.general.positionEncodings", "expected an array");
        for (const auto& e : *enc)
          if (e.is_string()) p.position_encodings.push_back(e.get<std::string>());
      }
    }
  }
  auto info = params.find("clientInfo");
  if (info != params.end() && info->is_object() && info->contains("name") && (*info)["name"].is_string())
    p.client_name = (*info)["name"].get<std::string>();
  return p;
}

DidOpenParams parse_did_open(json& params) {
  const json& doc = need(params, "textDocument", "params");
  DidOpenParams p;
  p.uri = need_string(doc, "uri", "params.textDocument");
  p.language_id = need_string(doc, "languageId", "params.textDocument");
  p.version = need_int(doc, "version", "params.textDocument");
  const json& text = need(doc, "text", "params.textDocument");
  if (!text.is_string()) bad("params.textDocument.text", "expected a string");
  p.text = std::move(params["textDocument"]["text"].get_ref<std::string&>());
  return p;
}

DidChangeParams parse_did_change(const json& params) {
  const json& doc = need(params, "textDocument", "params");
  DidChangeParams p;
  p.uri = need_string(doc, "uri", "params.textDocument");
  p.version = need_int(doc, "version", "params.textDocument");
  const json& changes = need(params, "contentChanges", "params");
  if (!changes.is_array()) bad("params.contentChanges", "expected an array");
  for (size_t i = 0; i < changes.size(); ++i) {
    std::string path = "params.contentChanges[" + std::to_string(i) + "]";
    ContentChange c;
    c.text = need_string(changes[i], "text", path);
    auto range = changes[i].find("range");
    if (range != changes[i].end()) {
      c.range = LspRange{parse_position(need(*range, "start", path + ".range"), path + ".range.start"),
                         parse_position(need(*range, "end", path + ".range"), path + ".range.end")};
    }
    p.changes.push_back(std::move(c));
  }
  return p;
}

std::string parse_did_close(const json& params) {
  return need_string(need(params, "textDocument", "params"), "uri", "params.textDocument");
}

json parse_cancel(const json& params) {
  const json& id = need(params, "id", "params");
  if (!valid_id(id)) bad("params.id", "expected an integer or a string");
  return id;
}

ExecuteCommandParams parse_execute_command(const json& params) {
  ExecuteCommandParams p;
  p.command = need_string(params, "command", "params");
  auto args = params.find("arguments");
  if (args != params.end()) {
    if (!args->is_array()) bad("params.arguments", "expected an array");
    p.arguments = *args;
  }
  return p;
}

TextDocumentPositionParams parse_text_document_position(const json& params) {
  TextDocumentPositionParams p;
  p.uri = parse_did_close(params);
  p.position = parse_position(need(params, "position", "params"), "params.position");
  return p;
}

LspRange parse_range(const json& j, const std::string& path) {
  LspRange r{parse_position(need(j, "start", path), path + ".start"), parse_position(need(j, "end", path), path + ".end")};
  if (r.end < r.start) bad(path, "start is after end");
  return r;
}

CodeActionParams parse_code_action(const json& params) {
  CodeActionParams p;
  p.uri = parse_did_close(params);
  p.range = parse_range(need(params, "range", "params"), "params.range");
  auto ctx = params.find("context");
  if (ctx != params.end() && ctx->is_object()) {
    auto only = ctx->find("only");
    if (only != ctx->end() && only->is_array())
      for (const auto& k : *only)
        if (k.is_string()) p.only.push_back(k.get<std::string>());
  }
  return p;
}

json to_json(LspPosition p) { return {{"line", p.line}, {"character", p.character}}; }
json to_json(const LspRange& r) { return {{"start", to_json(r.start)}, {"end", to_json(r.end)}}; }

}  // namespace denpex::lsp
