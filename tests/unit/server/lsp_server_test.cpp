#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "denpex/server/lsp_server.h"

using namespace denpex::lsp;

namespace {

struct Harness {
  std::vector<json> sent;
  std::vector<std::string> logged;
  Server server{[this](const json& j) { sent.push_back(j); }, options()};

  ServerOptions options() {
    ServerOptions o;
    o.log = [this](const std::string& line) { logged.push_back(line); };
    return o;
  }

  void send(const json& j) { server.handle_message(j.dump()); }
  void initialize(json capabilities = json::object()) {
    send({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"}, {"params", {{"capabilities", capabilities}}}});
    REQUIRE(sent.size() == 1);
    sent.clear();
  }
};

}  // namespace

TEST_CASE("lsp server: position encoding is UTF-16 unless the client offers UTF-8") {
  Harness a;
  a.initialize();
  CHECK(a.server.encoding() == PositionEncoding::Utf16);
  Harness b;
  b.initialize({{"general", {{"positionEncodings", {"utf-32", "utf-8", "utf-16"}}}}});
  CHECK(b.server.encoding() == PositionEncoding::Utf8);
  Harness c;
  c.initialize({{"general", {{"positionEncodings", {"utf-32"}}}}});
  CHECK(c.server.encoding() == PositionEncoding::Utf16);
}

TEST_CASE("lsp server: exit code is 0 only after shutdown") {
  Harness h;
  h.initialize();
  CHECK(h.server.exit_code() == 1);
  h.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "shutdown"}});
  h.send({{"jsonrpc", "2.0"}, {"method", "exit"}});
  CHECK(h.server.exited());
  CHECK(h.server.exit_code() == 0);
  // Nothing is handled after exit, not even a request.
  h.send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "shutdown"}});
  CHECK(h.sent.size() == 1);
}

TEST_CASE("lsp server: every request gets exactly one reply, whatever its params") {
  Harness h;
  h.initialize();
  std::vector<json> params = {nullptr, json::object(), json::array(), {{"command", 1}}, {{"textDocument", 5}},
                              {{"command", "denpex.diagnoseText"}, {"arguments", {"", ""}}}};
  std::vector<std::string> methods = {"workspace/executeCommand", "denpex/documentText", "textDocument/hover",
                                      "initialize", "$/x"};
  int id = 1;
  for (const auto& m : methods)
    for (const auto& p : params) {
      json msg = {{"jsonrpc", "2.0"}, {"id", id}, {"method", m}};
      if (!p.is_null()) msg["params"] = p;
      size_t before = h.sent.size();
      h.send(msg);
      CAPTURE(msg.dump());
      REQUIRE(h.sent.size() == before + 1);
      CHECK(h.sent.back()["id"] == id);
      CHECK(h.sent.back().contains("error") != h.sent.back().contains("result"));
      ++id;
    }
}

TEST_CASE("lsp server: notifications never get a reply, even malformed ones") {
  Harness h;
  h.initialize();
  for (const char* m : {"textDocument/didOpen", "textDocument/didChange", "textDocument/didClose", "$/cancelRequest",
                        "initialized", "unknown/thing"}) {
    h.send({{"jsonrpc", "2.0"}, {"method", m}, {"params", {{"textDocument", {{"uri", 3}}}}}});
    h.send({{"jsonrpc", "2.0"}, {"method", m}});
  }
  CHECK(h.sent.empty());
  CHECK(h.server.documents().size() == 0);
  // The log is the only place a client author can learn what was wrong.
  CHECK(std::count(h.logged.begin(), h.logged.end(),
                   "textDocument/didOpen: params.textDocument.uri: expected a string") == 1);
  CHECK(std::count(h.logged.begin(), h.logged.end(), "textDocument/didChange: params.textDocument.uri: expected a string") == 1);
}

TEST_CASE("lsp server: random bytes and deep nesting produce errors, never a crash") {
  Harness h;
  h.initialize();
  std::mt19937 rng(42);
  for (int i = 0; i < 300; ++i) {
    std::string body(rng() % 64, '\0');
    for (auto& c : body) c = static_cast<char>(rng() % 256);
    size_t before = h.sent.size();
    h.server.handle_message(body);
    CHECK(h.sent.size() <= before + 1);
  }
  h.sent.clear();
  h.server.handle_message(std::string(200000, '[') + std::string(200000, ']'));
  REQUIRE(h.sent.size() == 1);
  CHECK(h.sent[0]["error"]["code"] == kInvalidRequest);
  h.sent.clear();
  h.server.handle_message(std::string(200000, '['));
  REQUIRE(h.sent.size() == 1);
  CHECK(h.sent[0]["error"]["code"] == kParseError);
}

TEST_CASE("lsp server: framing errors from the transport become one error reply with id null") {
  Harness h;
  h.server.handle(Frame{Frame::Kind::BadFrame, "", "message has no Content-Length header"});
  h.server.handle(Frame{Frame::Kind::TooLarge, "", "too big"});
  h.server.handle(Frame{Frame::Kind::Eof, "", ""});
  REQUIRE(h.sent.size() == 2);
  CHECK(h.sent[0]["id"].is_null());
  CHECK(h.sent[0]["error"]["code"] == kParseError);
  CHECK(h.sent[1]["error"]["code"] == kInvalidRequest);
}

TEST_CASE("lsp server: serve() stops at end of input and reports the exit code") {
  std::string input;
  auto frame = [&](const json& j) {
    std::string b = j.dump();
    input += "Content-Length: " + std::to_string(b.size()) + "\r\n\r\n" + b;
  };
  frame({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", json::object()}});
  frame({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "shutdown"}});
  size_t pos = 0;
  FrameReader in([&](char* buf, size_t n) -> long {
    size_t k = std::min(n, input.size() - pos);
    std::copy_n(input.data() + pos, k, buf);
    pos += k;
    return static_cast<long>(k);
  });
  std::string out;
  FrameWriter w([&](const char* p, size_t n) {
    out.append(p, n);
    return true;
  });
  ServerOptions quiet;
  quiet.log = [](const std::string&) {};
  CHECK(serve(in, w, quiet) == 0);  // shutdown then EOF: an orderly end
  CHECK(out.find("\"id\":2,\"jsonrpc\":\"2.0\",\"result\":null") != std::string::npos);
}
