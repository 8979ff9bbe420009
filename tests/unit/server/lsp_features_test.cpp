// The language server's features driven through the Server object, compared with the CLI, plus
// the incremental reparse and the threaded scheduler under bursts of edits.
#include <doctest/doctest.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "denpex/server/lsp_server.h"
#include "denpex/server/python_document.h"
#include "process.h"

using namespace denpex::lsp;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Collects what the server sends; thread-safe because workers publish.
struct Client {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<json> sent;
  Server server;

  explicit Client(unsigned threads)
      : server([this](const json& j) {
                 std::lock_guard<std::mutex> lock(mu);
                 sent.push_back(j);
                 cv.notify_all();
               },
               options(threads)) {}
  static ServerOptions options(unsigned threads) {
    ServerOptions o;
    o.threads = threads;
    o.log = [](const std::string&) {};
    return o;
  }
  void send(const json& j) { server.handle_message(j.dump()); }
  void start(json caps = json::object()) {
    send({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"}, {"params", {{"capabilities", caps}, {"rootUri", nullptr}}}});
    send({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", json::object()}});
  }
  void open(const std::string& uri, const std::string& text, int version = 1) {
    send({{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
          {"params", {{"textDocument", {{"uri", uri}, {"languageId", "python"}, {"version", version}, {"text", text}}}}}});
  }
  // The last publishDiagnostics for `uri`.
  json last_publish(const std::string& uri) {
    std::lock_guard<std::mutex> lock(mu);
    for (auto it = sent.rbegin(); it != sent.rend(); ++it)
      if (it->value("method", "") == "textDocument/publishDiagnostics" && (*it)["params"]["uri"] == uri) return (*it)["params"];
    return nullptr;
  }
};

// UTF-16 column -> 1-based code point column, as `denpex check` reports columns.
uint32_t code_point_column(const std::string& line, uint32_t utf16) {
  uint32_t units = 0, cps = 0;
  for (size_t i = 0; i < line.size() && units < utf16;) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    units += n == 4 ? 2 : 1;
    ++cps;
    i += n;
  }
  return cps + 1;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream s(text);
  for (std::string l; std::getline(s, l);) out.push_back(l);
  out.push_back("");
  return out;
}

}  // namespace

TEST_CASE("lsp features: the same findings, positions and messages as `denpex check` for every rule fixture") {
  fs::path dir = fs::path(DENPEX_SOURCE_DIR) / "tests/fixtures/python";
  int files = 0, findings = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".py") continue;
    std::string text = read(e.path());
    auto cli = denpex::testing::run_denpex({"check", "--no-config", "--output-format", "json", e.path().string()});
    json expected = json::parse(cli.out);
    Client c(0);
    c.start();
    std::string uri = "file://" + e.path().string();
    c.open(uri, text);
    json got = c.last_publish(uri);
    REQUIRE(got.is_object());
    auto lines = lines_of(text);
    INFO(e.path().filename().string());
    REQUIRE(got["diagnostics"].size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      const json& d = got["diagnostics"][i];
      const json& x = expected[i];
      CHECK(d["code"] == x["code"]);
      CHECK(d["message"] == x["message"]);
      uint32_t l = d["range"]["start"]["line"], el = d["range"]["end"]["line"];
      CHECK(l + 1 == x["line"].get<uint32_t>());
      CHECK(el + 1 == x["end_line"].get<uint32_t>());
      CHECK(code_point_column(lines[l], d["range"]["start"]["character"]) == x["column"].get<uint32_t>());
      CHECK(code_point_column(lines[el], d["range"]["end"]["character"]) == x["end_column"].get<uint32_t>());
      CHECK(d["data"].contains("fix") == x["fix"].is_object());
      ++findings;
    }
    ++files;
  }
  CHECK(files >= 19);
  CHECK(findings >= 30);
}

TEST_CASE("lsp features: an edit reparses incrementally and gives the findings of a fresh analysis") {
  std::string text = read(fs::path(DENPEX_SOURCE_DIR) / "tests/protocol/workspace/train.py");
  for (int i = 0; i < 200; ++i) text += "\ndef helper_" + std::to_string(i) + "(x):\n    return x * " + std::to_string(i) + "\n";
  denpex::features::PythonDocument doc;
  auto first = doc.analyze(text, {});
  CHECK(doc.last_changed_bytes() == text.size());
  std::mt19937 rng(7);
  for (int step = 0; step < 150; ++step) {
    size_t at = rng() % text.size();
    if (step % 2 == 0) text.insert(at, 1, "x(),\n#"[rng() % 6]);
    else text.erase(at, 1);
    auto inc = doc.analyze(text, {});
    CHECK(doc.last_changed_bytes() <= 2);
    denpex::features::PythonDocument fresh;
    auto full = fresh.analyze(text, {});
    REQUIRE(inc.findings.size() == full.findings.size());
    for (size_t i = 0; i < inc.findings.size(); ++i) {
      CHECK(inc.findings[i].code == full.findings[i].code);
      CHECK(inc.findings[i].range == full.findings[i].range);
    }
    CHECK(inc.syntax_errors == full.syntax_errors);
  }
}

TEST_CASE("lsp threads: a burst of edits on two workers ends with the diagnostics of the final version") {
  std::string base = read(fs::path(DENPEX_SOURCE_DIR) / "tests/protocol/workspace/train.py");
  Client c(2);
  c.start();
  const std::string uri = "file:///burst/train.py";
  c.open(uri, base);
  // 10,000 edits that type and delete a character on line 1, then one that fixes DPX001.
  int version = 1;
  for (int i = 0; i < 10000; ++i) {
    json range = {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", i % 2 ? 1 : 0}}}};
    c.send({{"jsonrpc", "2.0"}, {"method", "textDocument/didChange"},
            {"params", {{"textDocument", {{"uri", uri}, {"version", ++version}}},
                        {"contentChanges", json::array({{{"range", range}, {"text", i % 2 ? "" : "#"}}})}}}});
  }
  json fix_range = {{"start", {{"line", 5}, {"character", 58}}}, {"end", {{"line", 5}, {"character", 62}}}};
  c.send({{"jsonrpc", "2.0"}, {"method", "textDocument/didChange"},
          {"params", {{"textDocument", {{"uri", uri}, {"version", ++version}}},
                      {"contentChanges", json::array({{{"range", fix_range}, {"text", "False"}}})}}}});
  c.server.wait_idle();
  json last = c.last_publish(uri);
  REQUIRE(last.is_object());
  CHECK(last["version"] == version);
  REQUIRE(last["diagnostics"].size() == 1);
  CHECK(last["diagnostics"][0]["code"] == "DPX002");
  // Versions only move forward: a stale result is never published after a newer one.
  int64_t prev = 0;
  std::lock_guard<std::mutex> lock(c.mu);
  for (const auto& m : c.sent) {
    if (m.value("method", "") != "textDocument/publishDiagnostics") continue;
    int64_t v = m["params"]["version"];
    CHECK(v >= prev);
    prev = v;
  }
}

TEST_CASE("lsp threads: pulls during a running analysis are all answered; a settings change mid-run lands") {
  std::string base = read(fs::path(DENPEX_SOURCE_DIR) / "tests/protocol/workspace/train.py");
  Client c(2);
  c.start({{"textDocument", {{"diagnostic", json::object()}}}});
  const std::string uri = "file:///pull/train.py";
  c.open(uri, base);
  auto pull = [&](int id) {
    c.send({{"jsonrpc", "2.0"}, {"id", id}, {"method", "textDocument/diagnostic"}, {"params", {{"textDocument", {{"uri", uri}}}}}});
  };
  // Pulls for the version being analysed must not restart that analysis; each gets its answer.
  for (int i = 0; i < 20; ++i) pull(100 + i);
  // Settings that drop DPX001 arrive while that analysis may still run: its result, read with the
  // old settings, must not be taken as current.
  c.send({{"jsonrpc", "2.0"}, {"method", "workspace/didChangeConfiguration"}, {"params", {{"settings", {{"denpex", {{"ignore", {"DPX001"}}}}}}}}});
  pull(200);
  c.server.wait_idle();
  std::map<int, json> answers;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    for (const auto& m : c.sent)
      if (m.contains("id") && m["id"].is_number_integer() && m.contains("result")) answers[m["id"].get<int>()] = m["result"];
  }
  for (int i = 0; i < 20; ++i) CHECK_MESSAGE(answers.count(100 + i) == 1, "pull " << 100 + i << " was not answered");
  REQUIRE(answers.count(200) == 1);
  for (const auto& d : answers[200]["items"]) CHECK(d["code"] != "DPX001");
}

TEST_CASE("lsp threads: a document pull is answered when a workspace pull brings its document up to date first") {
  // VS Code sends textDocument/diagnostic and workspace/diagnostic together on open. The workspace
  // pull analyses a document the pool has not finished; the waiting document pull must be answered
  // then, or the client keeps that document's diagnostics empty for good.
  std::string base = read(fs::path(DENPEX_SOURCE_DIR) / "tests/protocol/workspace/train.py");
  Client c(2);
  c.start({{"textDocument", {{"diagnostic", json::object()}}}});
  for (int d = 0; d < 100; ++d) {
    std::string uri = "file:///ws/f" + std::to_string(d) + ".py";
    c.open(uri, base);
    c.send({{"jsonrpc", "2.0"}, {"id", 100 + d}, {"method", "textDocument/diagnostic"}, {"params", {{"textDocument", {{"uri", uri}}}}}});
    c.send({{"jsonrpc", "2.0"}, {"id", 1000 + d}, {"method", "workspace/diagnostic"}, {"params", {{"previousResultIds", json::array()}}}});
  }
  c.server.wait_idle();
  std::lock_guard<std::mutex> lock(c.mu);
  std::set<int> answered;
  for (const auto& m : c.sent)
    if (m.contains("id") && m["id"].is_number_integer() && m.contains("result")) answered.insert(m["id"].get<int>());
  for (int d = 0; d < 100; ++d) CHECK_MESSAGE(answered.count(100 + d) == 1, "the pull of f" << d << ".py was never answered");
}

TEST_CASE("lsp threads: requests answered while workers publish, shutdown with work in flight") {
  std::string base = read(fs::path(DENPEX_SOURCE_DIR) / "tests/protocol/workspace/train.py");
  Client c(2);
  c.start();
  for (int d = 0; d < 8; ++d) c.open("file:///many/f" + std::to_string(d) + ".py", base);
  for (int i = 0; i < 50; ++i)
    c.send({{"jsonrpc", "2.0"}, {"id", 100 + i}, {"method", "textDocument/hover"},
            {"params", {{"textDocument", {{"uri", "file:///many/f" + std::to_string(i % 8) + ".py"}}},
                        {"position", {{"line", 5}, {"character", 50}}}}}});
  c.send({{"jsonrpc", "2.0"}, {"id", 999}, {"method", "shutdown"}});
  std::lock_guard<std::mutex> lock(c.mu);
  int replies = 0;
  for (const auto& m : c.sent)
    if (m.contains("id") && m["id"].is_number() && m["id"].get<int>() >= 100 && m["id"].get<int>() < 150) {
      ++replies;
      CHECK(m["result"]["contents"]["value"].get<std::string>().find("DPX001") != std::string::npos);
    }
  CHECK(replies == 50);
}

TEST_CASE("lsp hostile: 200 open documents, a cancel for every request, then all closed") {
  std::string py = read(fs::path(DENPEX_SOURCE_DIR) / "tests/protocol/workspace/train.py");
  std::string log = read(fs::path(DENPEX_SOURCE_DIR) / "tests/fixtures/logs/single-oom.log");
  Client c(2);
  c.start();
  for (int d = 0; d < 200; ++d) {
    const bool is_log = d % 2;
    const std::string uri = "file:///two-hundred/f" + std::to_string(d) + (is_log ? ".log" : ".py");
    c.send({{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
            {"params", {{"textDocument", {{"uri", uri}, {"languageId", is_log ? "log" : "python"}, {"version", 1},
                                          {"text", is_log ? log : py}}}}}});
    // A request and at once its cancellation: exactly one reply either way (a result, or
    // RequestCancelled -32800), never none and never two.
    c.send({{"jsonrpc", "2.0"}, {"id", 1000 + d}, {"method", "textDocument/hover"},
            {"params", {{"textDocument", {{"uri", uri}}}, {"position", {{"line", 5}, {"character", 50}}}}}});
    c.send({{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", 1000 + d}}}});
    c.send({{"jsonrpc", "2.0"}, {"id", 2000 + d}, {"method", "textDocument/diagnostic"},
            {"params", {{"textDocument", {{"uri", uri}}}}}});
    c.send({{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", 2000 + d}}}});
  }
  c.server.wait_idle();
  for (int d = 0; d < 200; ++d)
    c.send({{"jsonrpc", "2.0"}, {"method", "textDocument/didClose"},
            {"params", {{"textDocument", {{"uri", "file:///two-hundred/f" + std::to_string(d) + (d % 2 ? ".log" : ".py")}}}}}});
  c.server.wait_idle();
  CHECK(c.server.documents().size() == 0);
  std::map<int, int> replies;
  std::lock_guard<std::mutex> lock(c.mu);
  for (const auto& m : c.sent)
    if (m.contains("id") && m["id"].is_number() && m["id"].get<int>() >= 1000) {
      ++replies[m["id"].get<int>()];
      CHECK((m.contains("result") || m["error"]["code"] == -32800));
    }
  CHECK(replies.size() == 400);
  for (const auto& [id, n] : replies) {
    CAPTURE(id);
    CHECK(n == 1);
  }
  // Closing a document clears what was published for it.
  for (int d = 0; d < 200; d += 37) {
    const std::string uri = "file:///two-hundred/f" + std::to_string(d) + (d % 2 ? ".log" : ".py");
    for (auto it = c.sent.rbegin(); it != c.sent.rend(); ++it)
      if (it->value("method", "") == "textDocument/publishDiagnostics" && (*it)["params"]["uri"] == uri) {
        CHECK((*it)["params"]["diagnostics"].empty());
        break;
      }
  }
}
