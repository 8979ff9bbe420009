#pragma once
// The server's state, shared by the dispatcher (server.cpp), the analyses (analysis.cpp) and the
// request handlers (requests.cpp). Private to server/lsp.
//
// Locking: `mu` guards everything below it that workers touch (document states, results,
// contributions, settings, the library). The dispatcher thread alone owns `documents` and the
// lifecycle fields. Messages are only queued by `send` (never written under `mu`), so holding
// `mu` never waits on the client.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "convert.h"
#include "denpex/core/cancel.h"
#include "denpex/python/analyze.h"
#include "denpex/server/check_config.h"
#include "denpex/server/library_loading.h"
#include "denpex/server/log_document.h"
#include "denpex/server/lsp_server.h"
#include "denpex/server/python_document.h"
#include "settings.h"

namespace denpex::lsp {

struct PythonResult {
  std::shared_ptr<const Document> doc;
  python::Analysis analysis;
  json diagnostics = json::array();
};

struct LogResult {
  std::shared_ptr<const Document> doc;
  features::LogDocument log;
  json diagnostics = json::array();
  std::map<std::string, json> contributions;  // workspace file uri -> diagnostics from this log
  std::optional<features::SourceMark> source;
  std::string source_uri;
};

struct DocState {
  std::shared_ptr<const Document> doc;  // the latest version
  bool log = false;
  bool python = false;  // neither: the server holds the text but analyses nothing
  bool open = true;
  bool queued = false, running = false;
  std::shared_ptr<const Document> running_doc;  // the version the running analysis reads
  core::CancelToken cancel;
  features::PythonDocument incremental;  // parse state; used by the running analysis only
  std::shared_ptr<const PythonResult> python_result;
  std::shared_ptr<const LogResult> log_result;
  std::vector<json> pulls;  // textDocument/diagnostic requests waiting for the latest version

  bool current() const {
    if (!log && !python) return true;
    if (log) return log_result && log_result->doc == doc;
    return python_result && python_result->doc == doc;
  }
};

struct Server::Impl {
  Impl(Send send, ServerOptions options);
  ~Impl();

  // --- dispatcher-only ---
  enum class State { Uninitialized, Running, ShutDown };
  State state = State::Uninitialized;
  bool shutdown = false;
  bool exited = false;
  PositionEncoding encoding = PositionEncoding::Utf16;
  DocumentStore documents;
  long client_pid = 0;
  bool pull = false;              // the client pulls diagnostics (textDocument/diagnostic)
  bool refresh_support = false;   // workspace/diagnostic/refresh
  bool resolve_edits = false;     // codeAction/resolve computes edits
  bool progress_support = false;  // window/workDoneProgress/create
  bool watch_registration = false;
  std::atomic<int> next_request_id{1};  // workers send requests too (diagnostic refresh)

  Send send;
  ServerOptions options;

  // --- shared with workers, under mu ---
  std::mutex mu;
  std::condition_variable work_cv, idle_cv;
  std::deque<std::string> queue;
  std::map<std::string, std::shared_ptr<DocState>> states;
  // target uri -> (source key: a log's uri or "check") -> diagnostics
  std::map<std::string, std::map<std::string, json>> contributions;
  Settings settings;
  std::vector<std::string> roots;  // workspace folders, as paths
  std::shared_ptr<const project::Knowledge> knowledge;
  std::map<std::string, std::optional<std::string>> config_for_dir;  // dir -> pyproject with [tool.denpex]
  std::map<std::string, project::CheckConfig> good_configs;          // config in use per file
  std::map<std::string, project::CheckConfig> last_good_configs;     // kept across a broken edit
  std::set<std::string> reported;                                    // problems already shown once
  std::map<std::string, std::promise<bool>> awaiting;  // server request id -> its reply
  int busy = 0;
  bool stopping = false;
  std::vector<std::thread> workers;
  std::vector<std::thread> jobs;  // workspace checks

  // --- dispatcher.cpp ---
  void log(const std::string& line) const;
  void show_message(int type, const std::string& text);
  void request(const std::string& method, json params);  // a server -> client request
  // A request whose reply matters: the future says whether the client accepted it.
  std::shared_future<bool> request_awaited(const std::string& method, json params);
  void on_response(const json& id, bool ok);

  // --- analysis.cpp ---
  void start_workers();
  void schedule(const std::string& uri);                 // latest wins
  void run(const std::shared_ptr<DocState>& st, const std::string& uri);  // one analysis
  std::shared_ptr<const project::Knowledge> library();   // loaded on first use
  void reload_library();
  python::AnalyzeOptions options_for(const std::string& uri);
  std::string resolve_source(std::string_view printed) const;
  json python_diagnostics(const Document& doc, const python::Analysis& a, const Settings& s) const;
  json finding_diagnostic(const Positions& pos, const core::Finding& f, const Settings& s) const;
  // The log's own diagnostics; then, separately, what it points at in workspace files.
  std::shared_ptr<LogResult> analyze_log(const std::shared_ptr<const Document>& doc, const core::CancelToken* cancel);
  void add_source_contributions(LogResult& result);
  // Results for the latest version, computing them here when the pool has not yet.
  std::shared_ptr<const PythonResult> python_now(const std::string& uri);
  std::shared_ptr<const LogResult> log_now(const std::string& uri);
  // Diagnostics of `uri` as published: its own plus what logs contributed. Under mu.
  json merged_locked(const std::string& uri);
  void publish_locked(const std::string& uri);
  void set_contributions_locked(const std::string& source, std::map<std::string, json> by_uri);
  void answer_pulls_locked(DocState& st, const std::string& uri);
  void wait_idle();
  void stop();

  // --- requests.cpp ---
  json hover(const json& params);
  json code_action(const json& params);
  json resolve_code_action(const json& params);
  json document_diagnostic(const json& id, const json& params, bool* deferred);
  json workspace_diagnostic();
  json execute_command(const json& id, const json& params, bool* deferred);
  json check_workspace(const json& id, const json& args, bool* deferred);
};

}  // namespace denpex::lsp
