#pragma once
// JSON-RPC 2.0 envelopes and the few LSP structures the server uses, each with its from-JSON
// next to it (as clangd's Protocol.h). Parsing is strict about types and names the offending
// field, so a client bug becomes an InvalidParams reply rather than a wrong document.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "denpex/server/document.h"

namespace denpex::lsp {

using json = nlohmann::json;

enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kRequestCancelled = -32800,
};

// Thrown by handlers and parsers; turned into one error reply by the dispatcher.
struct RpcError : std::runtime_error {
  RpcError(int code, const std::string& message) : std::runtime_error(message), code(code) {}
  int code;
};

// The envelope of one incoming message, validated against JSON-RPC 2.0.
struct Message {
  enum class Kind { Request, Notification, Response };
  Kind kind = Kind::Notification;
  json id;  // number or string for requests and responses; null otherwise
  std::string method;
  json params;  // object, array, or null when absent
};

// Throws RpcError(kInvalidRequest) with the id set in `*id` when one could be read, so the
// error reply can still name the request it answers.
// Moves `params` out of `j`.
Message parse_message(json& j, json* id);

json response(const json& id, json result);
json error_response(const json& id, int code, const std::string& message);
json notification(const std::string& method, json params);

// --- LSP structures (only the fields the server reads) ---

struct InitializeParams {
  std::vector<std::string> position_encodings;  // capabilities.general.positionEncodings
  std::string client_name;
};
InitializeParams parse_initialize(const json& params);

struct DidOpenParams {
  std::string uri, language_id, text;
  int64_t version = 0;
};
// Moves the (possibly huge) text out of `params`.
DidOpenParams parse_did_open(json& params);

struct DidChangeParams {
  std::string uri;
  int64_t version = 0;
  std::vector<ContentChange> changes;
};
DidChangeParams parse_did_change(const json& params);

// params.textDocument.uri (didClose and anything else that names only a document)
std::string parse_did_close(const json& params);

json parse_cancel(const json& params);  // the id of the request to cancel

struct ExecuteCommandParams {
  std::string command;
  json arguments = json::array();
};
ExecuteCommandParams parse_execute_command(const json& params);

// params.textDocument.uri + params.position (hover and other position requests)
struct TextDocumentPositionParams {
  std::string uri;
  LspPosition position;
};
TextDocumentPositionParams parse_text_document_position(const json& params);

LspRange parse_range(const json& j, const std::string& path);

struct CodeActionParams {
  std::string uri;
  LspRange range;
  std::vector<std::string> only;  // context.only, empty when absent
};
CodeActionParams parse_code_action(const json& params);

json to_json(LspPosition p);
json to_json(const LspRange& r);

}  // namespace denpex::lsp
