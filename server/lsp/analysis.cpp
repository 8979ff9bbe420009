// Scheduling and running analyses, and publishing their results.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "server_impl.h"

namespace denpex::lsp {
namespace fs = std::filesystem;

namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

// "DPX001 checkpoint-use-reentrant-true" -> "dpx001-checkpoint-use-reentrant-true", the anchor a
// Markdown renderer gives the rule's heading in docs/rules.md.
std::string rule_anchor(const python::RuleInfo& r) {
  std::string a;
  for (char c : std::string(r.code) + "-" + std::string(r.name)) a += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return a;
}

json related(const std::string& uri, const LspRange& range, const std::string& message) {
  return {{"location", {{"uri", uri}, {"range", to_json(range)}}}, {"message", message}};
}

bool same_diagnostic(const json& a, const json& b) {
  return a.value("code", json()) == b.value("code", json()) && a.value("range", json()) == b.value("range", json());
}

}  // namespace

// --- the pool ---

void Server::Impl::start_workers() {
  for (unsigned i = 0; i < options.threads; ++i)
    workers.emplace_back([this] {
      std::unique_lock<std::mutex> lock(mu);
      while (true) {
        work_cv.wait(lock, [this] { return stopping || !queue.empty(); });
        if (stopping) return;
        std::string uri = std::move(queue.front());
        queue.pop_front();
        auto it = states.find(uri);
        if (it == states.end()) continue;
        auto st = it->second;
        st->queued = false;
        ++busy;
        lock.unlock();
        run(st, uri);
        lock.lock();
        --busy;
        if (busy == 0 && queue.empty()) idle_cv.notify_all();
      }
    });
}

void Server::Impl::schedule(const std::string& uri) {
  std::shared_ptr<DocState> st;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = states.find(uri);
    if (it == states.end()) return;
    st = it->second;
    if (!st->log && !st->python) return;
    // A running analysis of an older version would be stale: stop it early. One of this version (a
    // diagnostic pull arriving while it runs) answers the pull when it lands: restarting it would
    // only delay that answer.
    if (st->running && st->running_doc != st->doc) st->cancel.cancel();
    if (options.threads > 0) {
      if (!st->queued) {
        st->queued = true;
        queue.push_back(uri);
        work_cv.notify_one();
      }
      return;
    }
  }
  run(st, uri);
}

void Server::Impl::wait_idle() {
  std::unique_lock<std::mutex> lock(mu);
  idle_cv.wait(lock, [this] { return busy == 0 && queue.empty(); });
}

void Server::Impl::stop() {
  {
    std::lock_guard<std::mutex> lock(mu);
    stopping = true;
    for (auto& [uri, st] : states) st->cancel.cancel();
  }
  work_cv.notify_all();
  for (auto& t : workers) t.join();
  for (auto& t : jobs) t.join();
  workers.clear();
  jobs.clear();
}

void Server::Impl::run(const std::shared_ptr<DocState>& st, const std::string& uri) {
  std::shared_ptr<const Document> doc;
  core::CancelToken token;
  Settings s;
  {
    std::lock_guard<std::mutex> lock(mu);
    // One analysis per document at a time: the incremental parse state is not shared.
    if (st->running || !st->open) return;
    if (st->current()) {
      answer_pulls_locked(*st, uri);
      return;
    }
    st->running = true;
    st->cancel = token;
    doc = st->doc;
    st->running_doc = doc;
    s = settings;
  }
  std::shared_ptr<const PythonResult> py;
  std::shared_ptr<const LogResult> lg;
  try {
    if (st->log) {
      lg = analyze_log(doc, &token);
    } else {
      python::AnalyzeOptions o = options_for(uri);
      o.cancel = &token;
      auto r = std::make_shared<PythonResult>();
      r->doc = doc;
      r->analysis = st->incremental.analyze(doc->text, o);
      r->diagnostics = python_diagnostics(*doc, r->analysis, s);
      py = r;
    }
  } catch (const std::exception& e) {
    log("analysis of " + uri + " failed: " + e.what());
  }
  bool again = false;
  if (lg && lg->log.source) {
    // The log's own diagnostics first; what it points at in source files (a file to read and
    // analyse) follows as soon as it is ready.
    {
      std::lock_guard<std::mutex> lock(mu);
      if (token.cancelled() || !st->open || st->doc != doc) lg.reset();
      else {
        st->log_result = lg;
        publish_locked(uri);
        answer_pulls_locked(*st, uri);
      }
    }
    if (lg) {
      auto full = std::make_shared<LogResult>(*lg);
      try {
        add_source_contributions(*full);
      } catch (const std::exception& e) {
        log("mapping " + uri + " to source failed: " + e.what());
      }
      lg = full;
    }
  }
  {
    std::lock_guard<std::mutex> lock(mu);
    st->running = false;
    st->running_doc.reset();
    bool fresh = !token.cancelled() && st->open && st->doc == doc;
    if (fresh && (py || lg)) {
      if (lg) {
        bool published = st->log_result && st->log_result->doc == doc;
        st->log_result = lg;
        set_contributions_locked(uri, lg->contributions);
        if (!published) {
          publish_locked(uri);
          answer_pulls_locked(*st, uri);
        }
      } else {
        st->python_result = py;
        publish_locked(uri);
        answer_pulls_locked(*st, uri);
      }
    }
    // A newer version arrived meanwhile (or this one was cancelled for it): analyse that one.
    again = st->open && !st->current() && !st->queued && !stopping;
    if (again && options.threads > 0) {
      st->queued = true;
      queue.push_back(uri);
      work_cv.notify_one();
      again = false;
    }
  }
  if (again) run(st, uri);
}

// --- the library and configuration ---

std::shared_ptr<const project::Knowledge> Server::Impl::library() {
  {
    std::lock_guard<std::mutex> lock(mu);
    if (knowledge) return knowledge;
  }
  reload_library();
  std::lock_guard<std::mutex> lock(mu);
  return knowledge;
}

void Server::Impl::reload_library() {
  std::vector<std::string> dirs = options.signature_dirs;
  {
    std::lock_guard<std::mutex> lock(mu);
    dirs.insert(dirs.end(), settings.signature_dirs.begin(), settings.signature_dirs.end());
  }
  std::shared_ptr<const project::Knowledge> k;
  try {
    k = project::load_knowledge(dirs);
  } catch (const std::exception& e) {
    show_message(1, std::string("Denpex: ") + e.what() + "; keeping the encyclopedia loaded before");
    std::lock_guard<std::mutex> lock(mu);
    if (!knowledge) knowledge = project::load_knowledge({});  // the built-in library always loads
    return;
  }
  if (!k->loaded.problems.empty()) {
    std::string text = "Denpex: problems in encyclopedia files (those entries are skipped):";
    size_t shown = 0;
    for (const auto& p : k->loaded.problems) {
      log("warning: " + p.str());
      if (shown++ < 5) text += "\n" + p.str();
    }
    if (k->loaded.problems.size() > 5) text += "\n... and " + std::to_string(k->loaded.problems.size() - 5) + " more (see the server log)";
    show_message(2, text);
  }
  std::lock_guard<std::mutex> lock(mu);
  knowledge = std::move(k);
}

python::AnalyzeOptions Server::Impl::options_for(const std::string& uri) {
  auto path = uri_to_path(uri);
  std::string dir = path ? fs::path(*path).parent_path().string() : std::string();
  project::CheckConfig cfg;
  Settings s;
  std::string problem;
  {
    std::lock_guard<std::mutex> lock(mu);
    s = settings;
    if (!dir.empty()) {
      auto it = config_for_dir.find(dir);
      if (it == config_for_dir.end()) {
        auto found = project::find_check_config(dir);
        it = config_for_dir.emplace(dir, found ? std::optional<std::string>(found->string()) : std::nullopt).first;
      }
      if (it->second) {
        const std::string& file = *it->second;
        auto good = good_configs.find(file);
        if (good == good_configs.end()) {
          project::CheckConfig read = project::read_check_config(file);
          for (const auto& w : read.warnings)
            if (reported.insert(w).second) problem += (problem.empty() ? "" : "\n") + w;
          if (read.errors.empty()) {
            last_good_configs[file] = read;
            good = good_configs.emplace(file, std::move(read)).first;
          } else {
            for (const auto& e : read.errors)
              if (reported.insert(e).second) problem += (problem.empty() ? "" : "\n") + e;
            // Cached until the file changes again, so the broken file is not re-read per keystroke.
            auto last = last_good_configs.find(file);
            good = good_configs.emplace(file, last == last_good_configs.end() ? project::CheckConfig{} : last->second).first;
          }
        }
        cfg = good->second;
      }
    }
  }
  if (!problem.empty()) show_message(2, "Denpex: pyproject.toml [tool.denpex]: " + problem + "\n(using the last good configuration)");
  return project::analyze_options(cfg, s.select, s.ignore);
}

// --- diagnostics ---

json Server::Impl::finding_diagnostic(const Positions& pos, const core::Finding& f, const Settings& s) const {
  json d = {{"range", to_json(pos.to_lsp(f.range))},
            {"severity", lsp_severity(f.severity)},
            {"code", f.code},
            {"source", "denpex"},
            {"message", f.message}};
  const python::RuleInfo* rule = python::find_rule(f.code);
  if (!s.docs_url.empty() && rule) d["codeDescription"] = {{"href", s.docs_url + "/rules.md#" + rule_anchor(*rule)}};
  json data = {{"entry", f.entry}};
  if (f.fix) {
    json edits = json::array();
    for (const auto& e : f.fix->edits) edits.push_back(to_json(pos, e));
    data["fix"] = {{"title", f.fix->title}, {"safe", f.fix->safe}, {"edits", std::move(edits)}};
  }
  d["data"] = std::move(data);
  return d;
}

json Server::Impl::python_diagnostics(const Document& doc, const python::Analysis& a, const Settings& s) const {
  json out = json::array();
  if (a.findings.empty()) return out;
  Positions pos(doc.text, encoding);
  for (const auto& f : a.findings) out.push_back(finding_diagnostic(pos, f, s));
  return out;
}

std::string Server::Impl::resolve_source(std::string_view printed) const {
  // Library frames are never the user's code, even when a file of the same name exists.
  if (printed.empty() || printed.front() == '<' || printed.find("site-packages/") != std::string_view::npos ||
      printed.find("dist-packages/") != std::string_view::npos)
    return {};
  std::error_code ec;
  fs::path p(printed);
  auto inside = [&](const fs::path& file) {
    for (const auto& r : roots) {
      std::string f = file.lexically_normal().string(), root = fs::path(r).lexically_normal().string();
      if (!root.empty() && root.back() != '/') root += '/';
      if (f.rfind(root, 0) == 0) return true;
    }
    return false;
  };
  if (p.is_absolute() && inside(p) && fs::is_regular_file(p, ec)) return p.lexically_normal().string();
  // The job ran elsewhere (a container's /workspace, another machine): match the longest tail.
  std::vector<fs::path> parts(p.begin(), p.end());
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i] == "/" || parts[i].empty()) continue;
    fs::path tail;
    for (size_t j = i; j < parts.size(); ++j) tail /= parts[j];
    for (const auto& r : roots) {
      fs::path candidate = fs::path(r) / tail;
      if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal().string();
    }
  }
  return {};
}

std::shared_ptr<LogResult> Server::Impl::analyze_log(const std::shared_ptr<const Document>& doc, const core::CancelToken* cancel) {
  auto k = library();
  Settings s;
  {
    std::lock_guard<std::mutex> lock(mu);
    s = settings;
  }
  auto r = std::make_shared<LogResult>();
  r->doc = doc;
  r->log = features::diagnose_log_document(*k->matcher, uri_basename(doc->uri), doc->text,
                                           [this](std::string_view p) { return resolve_source(p); }, cancel);
  if (r->log.cancelled) return nullptr;
  Positions pos(doc->text, encoding);
  LspRange init_range{};
  bool have_init = false;
  for (const auto& m : r->log.marks) {
    LspRange range = pos.line_range(m.line);
    json d = {{"range", to_json(range)}, {"severity", lsp_severity(m.severity)}, {"source", "denpex"}, {"message", m.message}};
    if (!m.entry.empty()) {
      d["code"] = m.entry;
      if (!s.docs_url.empty()) d["codeDescription"] = {{"href", s.docs_url + "/encyclopedia/" + m.entry + ".md"}};
    }
    d["data"] = {{"entry", m.entry}, {"rank", m.rank},
                 {"kind", m.kind == features::LogMark::Kind::Initiator ? "initiator"
                          : m.kind == features::LogMark::Kind::Collateral ? "collateral" : "unknown"}};
    if (m.kind == features::LogMark::Kind::Initiator) {
      init_range = range;
      have_init = true;
    } else if (m.kind == features::LogMark::Kind::Collateral && have_init) {
      d["relatedInformation"] = json::array({related(doc->uri, init_range, "initiating fault: " + r->log.marks.front().message)});
    }
    r->diagnostics.push_back(std::move(d));
  }
  return r;
}

void Server::Impl::add_source_contributions(LogResult& result) {
  // From run time back to source: the failing frame in the user's file, and the static findings
  // of the rules that prevent this failure, in that file.
  if (!result.log.source) return;
  LogResult* r = &result;
  auto k = library();
  Settings s;
  std::shared_ptr<const Document> target_open;
  {
    std::lock_guard<std::mutex> lock(mu);
    s = settings;
  }
  const auto& doc = r->doc;
  Positions pos(doc->text, encoding);
  const bool have_init = !r->log.marks.empty() && r->log.marks.front().kind == features::LogMark::Kind::Initiator;
  const LspRange init_range = have_init ? pos.line_range(r->log.marks.front().line) : LspRange{};
  const features::SourceMark& sm = *r->log.source;
  std::string uri = path_to_uri(sm.path);
  std::string text;
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = states.find(uri); it != states.end() && it->second->open) target_open = it->second->doc;
  }
  if (target_open) text = target_open->text;
  else if (!read_file(sm.path, text)) return;
  Positions tpos(text, encoding);
  LspRange line = tpos.line_range(sm.line);
  std::string_view lt = tpos.line_text(std::min(sm.line, tpos.line_count() - 1));
  size_t indent = lt.find_first_not_of(" \t");
  if (indent != std::string_view::npos) line.start.character = encoded_column(lt, indent, encoding);
  json here = {{"range", to_json(line)}, {"severity", 1}, {"source", "denpex"}, {"code", sm.entry}, {"message", sm.message},
               {"relatedInformation", json::array({related(doc->uri, pos.line_range(sm.log_line), "traceback frame in " + uri_basename(doc->uri))})},
               {"data", {{"entry", sm.entry}, {"kind", "source"}, {"log", doc->uri}}}};
  json diags = json::array({std::move(here)});
  const core::Entry* entry = k->find(sm.entry);
  python::AnalyzeOptions o = options_for(uri);
  if (entry) o.select = entry->codes;
  if (entry && !entry->codes.empty() && python::may_have_findings(text, o)) {
    python::Analysis a = python::analyze(std::string_view(text), o);
    for (const auto& f : a.findings) {
      json d = finding_diagnostic(tpos, f, s);
      d["message"] = f.message + " (linked to the failure in " + uri_basename(doc->uri) + ")";
      if (have_init) d["relatedInformation"] = json::array({related(doc->uri, init_range, r->log.marks.front().message)});
      diags.push_back(std::move(d));
    }
  }
  r->source = sm;
  r->source_uri = uri;
  r->contributions[uri] = std::move(diags);
}

std::shared_ptr<const PythonResult> Server::Impl::python_now(const std::string& uri) {
  std::shared_ptr<const Document> doc;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = states.find(uri);
    if (it == states.end() || !it->second->python) return nullptr;
    if (it->second->current()) return it->second->python_result;
    doc = it->second->doc;
  }
  // The pool has not caught up: analyse this version here, from scratch (the incremental state
  // belongs to the pool).
  auto r = std::make_shared<PythonResult>();
  r->doc = doc;
  features::PythonDocument fresh;
  r->analysis = fresh.analyze(doc->text, options_for(uri));
  return r;
}

std::shared_ptr<const LogResult> Server::Impl::log_now(const std::string& uri) {
  std::shared_ptr<const Document> doc;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = states.find(uri);
    if (it == states.end() || !it->second->log) return nullptr;
    if (it->second->current()) return it->second->log_result;
    doc = it->second->doc;
  }
  return analyze_log(doc, nullptr);
}

json Server::Impl::merged_locked(const std::string& uri) {
  json out = json::array();
  if (auto it = states.find(uri); it != states.end() && it->second->open) {
    const DocState& st = *it->second;
    if (st.log && st.log_result) out = st.log_result->diagnostics;
    if (!st.log && st.python_result) out = st.python_result->diagnostics;
  }
  if (auto it = contributions.find(uri); it != contributions.end()) {
    for (const auto& [source, diags] : it->second)
      for (const auto& d : diags) {
        bool dup = false;
        for (const auto& o : out) dup = dup || same_diagnostic(o, d);
        if (!dup) out.push_back(d);
      }
  }
  return out;
}

void Server::Impl::publish_locked(const std::string& uri) {
  if (pull) return;
  auto it = states.find(uri);
  bool open = it != states.end() && it->second->open;
  // An open document whose analysis is behind publishes when that analysis lands: merging another
  // source's diagnostics into its stale result now would stamp old findings with the new version.
  if (open && !it->second->current()) return;
  json params = {{"uri", uri}, {"diagnostics", merged_locked(uri)}};
  if (open) params["version"] = it->second->doc->version;
  send(notification("textDocument/publishDiagnostics", std::move(params)));
}

void Server::Impl::set_contributions_locked(const std::string& source, std::map<std::string, json> by_uri) {
  std::set<std::string> touched;
  for (auto it = contributions.begin(); it != contributions.end();) {
    if (it->second.erase(source)) touched.insert(it->first);
    it = it->second.empty() ? contributions.erase(it) : std::next(it);
  }
  for (auto& [uri, diags] : by_uri) {
    touched.insert(uri);
    contributions[uri][source] = std::move(diags);
  }
  for (const auto& uri : touched)
    if (uri != source) publish_locked(uri);
  if (pull && refresh_support && !touched.empty()) request("workspace/diagnostic/refresh", nullptr);
}

void Server::Impl::answer_pulls_locked(DocState& st, const std::string& uri) {
  if (st.pulls.empty() || !st.current()) return;
  json report = {{"kind", "full"}, {"resultId", std::to_string(st.doc->version)}, {"items", merged_locked(uri)}};
  for (const auto& id : st.pulls) send(response(id, report));
  st.pulls.clear();
}

}  // namespace denpex::lsp
