// Requests that read analysis results: hover, code actions, pulled diagnostics, commands.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "denpex/logs/diagnoser.h"
#include "denpex/server/check_files.h"
#include "denpex/server/diagnose_render.h"
#include "denpex/server/entry_render.h"
#include "denpex/server/lsp_commands.h"
#include "server_impl.h"

namespace denpex::lsp {
namespace {

constexpr int kContentModified = -32801;

bool contains(const LspRange& r, LspPosition p) { return !(p < r.start) && !(r.end < p); }
bool overlaps(const LspRange& a, const LspRange& b) { return !(a.end < b.start) && !(b.end < a.start); }

LspRange range_of(const json& j) { return parse_range(j, "range"); }

bool wants(const std::vector<std::string>& only, std::string_view kind) {
  if (only.empty()) return true;
  for (const auto& k : only)
    if (kind == k || (kind.size() > k.size() && kind.substr(0, k.size()) == k && kind[k.size()] == '.')) return true;
  return false;
}

std::string arg_string(const json& args, const char* key, const std::string& command) {
  if (args.is_array() && args.size() == 1) {
    if (args[0].is_string()) return args[0].get<std::string>();
    if (args[0].is_object() && args[0].contains(key) && args[0][key].is_string()) return args[0][key].get<std::string>();
  }
  throw RpcError(kInvalidParams, command + " takes one argument: {\"" + key + "\": \"...\"}");
}

}  // namespace

json Server::Impl::hover(const json& params) {
  auto p = parse_text_document_position(params);
  auto doc = documents.get(p.uri);
  if (!doc) throw RpcError(kInvalidParams, "document is not open: " + p.uri);
  Positions pos(doc->text, encoding);
  std::string md;
  LspRange range{};
  if (auto lr = log_now(p.uri)) {
    range = pos.line_range(p.position.line);
    md = features::log_hover(lr->log, *library()->matcher, p.position.line, pos.line_text(p.position.line));
  } else if (auto pr = python_now(p.uri)) {
    auto k = library();
    for (const auto& f : pr->analysis.findings) {
      LspRange r = pos.to_lsp(f.range);
      if (!contains(r, p.position)) continue;
      md += (md.empty() ? "" : "\n\n---\n\n") + features::finding_hover(f, f.entry.empty() ? nullptr : k->find(f.entry));
      range = r;
    }
  }
  // A line a log pointed at ("rank 5 failed here").
  std::lock_guard<std::mutex> lock(mu);
  for (const auto& [uri, st] : states) {
    if (!st->log || !st->log_result || !st->log_result->source || st->log_result->source_uri != p.uri) continue;
    const auto& sm = *st->log_result->source;
    if (sm.line != p.position.line) continue;
    md += (md.empty() ? "" : "\n\n---\n\n") +
          features::source_mark_hover(sm, knowledge ? knowledge->find(sm.entry) : nullptr, st->log_result->log.report);
    range = pos.line_range(sm.line);
  }
  if (md.empty()) return nullptr;
  return {{"contents", {{"kind", "markdown"}, {"value", md}}}, {"range", to_json(range)}};
}

json Server::Impl::code_action(const json& params) {
  auto p = parse_code_action(params);
  auto doc = documents.get(p.uri);
  if (!doc) throw RpcError(kInvalidParams, "document is not open: " + p.uri);
  Positions pos(doc->text, encoding);
  json out = json::array();
  auto base = [&](const std::string& action) { return json{{"uri", p.uri}, {"version", doc->version}, {"action", action}}; };

  if (auto lr = log_now(p.uri)) {
    auto k = library();
    for (const auto& m : lr->log.marks) {
      if (m.entry.empty() || !overlaps(pos.line_range(m.line), p.range) || !wants(p.only, "quickfix")) continue;
      const core::Entry* e = k->find(m.entry);
      if (!e) continue;
      out.push_back({{"title", "Explain " + e->id}, {"kind", "quickfix"},
                     {"command", {{"title", "Explain " + e->id}, {"command", "denpex.explain"}, {"arguments", json::array({{{"id", e->id}}})}}}});
      if (!e->verify.empty())
        out.push_back({{"title", "Copy verify command (" + e->id + ")"}, {"kind", "quickfix"},
                       {"command", {{"title", "Copy verify command"}, {"command", "denpex.copyVerifyCommand"},
                                    {"arguments", json::array({{{"id", e->id}}})}}}});
    }
    return out;
  }
  auto pr = python_now(p.uri);
  if (!pr) return out;
  bool any_safe = false;
  for (const auto& f : pr->analysis.findings) {
    any_safe = any_safe || (f.fix && f.fix->safe);
    LspRange r = pos.to_lsp(f.range);
    if (!overlaps(r, p.range) || !wants(p.only, "quickfix")) continue;
    json diag = finding_diagnostic(pos, f, settings);
    if (f.fix) {
      json a = {{"title", (f.fix->safe ? "Fix " : "Fix (unsafe) ") + f.code + ": " + f.fix->title}, {"kind", "quickfix"},
                {"diagnostics", json::array({diag})}, {"isPreferred", f.fix->safe}};
      json data = base("fix");
      data["code"] = f.code;
      data["range"] = to_json(r);
      a["data"] = std::move(data);
      out.push_back(std::move(a));
    }
    json s = {{"title", "Suppress " + f.code + " on this line (# denpex: ignore[" + f.code + "])"}, {"kind", "quickfix"},
              {"diagnostics", json::array({std::move(diag)})}};
    json data = base("suppress");
    data["code"] = f.code;
    data["range"] = to_json(r);
    s["data"] = std::move(data);
    out.push_back(std::move(s));
  }
  if (any_safe && wants(p.only, "source.fixAll.denpex") && (!p.only.empty() || !out.empty()))
    out.push_back({{"title", "Fix all safe Denpex findings"}, {"kind", "source.fixAll.denpex"}, {"data", base("fixAll")}});
  if (!resolve_edits)
    for (auto& a : out) a = resolve_code_action(a);
  return out;
}

json Server::Impl::resolve_code_action(const json& params) {
  if (!params.is_object()) throw RpcError(kInvalidParams, "params: expected a CodeAction object");
  // Actions that carry a command and no data (Explain, Copy verify command) are complete as
  // listed; some clients resolve every action anyway.
  if (!params.contains("data") || !params["data"].is_object()) return params;
  json action = params;
  const json& data = params["data"];
  std::string uri = data.value("uri", "");
  std::string kind = data.value("action", "");
  auto doc = documents.get(uri);
  if (!doc) throw RpcError(kInvalidParams, "document is not open: " + uri);
  if (data.value("version", int64_t(-1)) != doc->version)
    throw RpcError(kContentModified, "the document changed since the action was offered; ask for actions again");
  Positions pos(doc->text, encoding);
  auto pr = python_now(uri);
  if (!pr) throw RpcError(kInvalidParams, "not a Python document: " + uri);
  json edits = json::array();
  if (kind == "fixAll") {
    if (auto e = features::fix_all_edit(doc->text, options_for(uri))) edits.push_back(to_json(pos, *e));
  } else {
    LspRange want = range_of(data.value("range", json::object()));
    std::string code = data.value("code", "");
    const core::Finding* f = nullptr;
    for (const auto& x : pr->analysis.findings) {
      LspRange r = pos.to_lsp(x.range);
      if (x.code == code && r.start == want.start && r.end == want.end) f = &x;
    }
    if (!f) throw RpcError(kContentModified, "the finding is gone; ask for actions again");
    if (kind == "fix" && f->fix) {
      for (const auto& e : f->fix->edits) edits.push_back(to_json(pos, e));
    } else if (kind == "suppress") {
      python::Module module(doc->text);
      if (auto e = python::suppression_edit(module, *f)) edits.push_back(to_json(pos, *e));
    }
  }
  action["edit"] = {{"documentChanges", json::array({{{"textDocument", {{"uri", uri}, {"version", doc->version}}}, {"edits", edits}}})}};
  return action;
}

json Server::Impl::document_diagnostic(const json& id, const json& params, bool* deferred) {
  std::string uri = parse_did_close(params);
  if (!documents.get(uri)) throw RpcError(kInvalidParams, "document is not open: " + uri);
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = states.find(uri);
    if (it != states.end() && !it->second->current()) {
      it->second->pulls.push_back(id);
      *deferred = true;
    } else {
      std::string rid = it != states.end() ? std::to_string(it->second->doc->version) : "0";
      return {{"kind", "full"}, {"resultId", rid}, {"items", merged_locked(uri)}};
    }
  }
  schedule(uri);
  return nullptr;
}

json Server::Impl::workspace_diagnostic() {
  std::vector<std::string> open;
  {
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& [uri, st] : states) open.push_back(uri);
  }
  for (const auto& uri : open) {
    // Brings every open document up to date; results land in the states like a pool run would.
    if (auto pr = python_now(uri)) {
      std::lock_guard<std::mutex> lock(mu);
      auto it = states.find(uri);
      if (it != states.end() && it->second->doc == pr->doc && !it->second->current()) {
        auto r = std::make_shared<PythonResult>(*pr);
        r->diagnostics = python_diagnostics(*r->doc, r->analysis, settings);
        it->second->python_result = r;
        // The state is current now, so no pool run will answer the pulls waiting for it.
        answer_pulls_locked(*it->second, uri);
      }
    }
  }
  json items = json::array();
  std::lock_guard<std::mutex> lock(mu);
  std::set<std::string> uris(open.begin(), open.end());
  for (const auto& [uri, c] : contributions) uris.insert(uri);
  for (const auto& uri : uris) {
    json item = {{"uri", uri}, {"kind", "full"}, {"items", merged_locked(uri)}};
    auto it = states.find(uri);
    item["version"] = it != states.end() ? json(it->second->doc->version) : json(nullptr);
    items.push_back(std::move(item));
  }
  return {{"items", std::move(items)}};
}

json Server::Impl::execute_command(const json& id, const json& params, bool* deferred) {
  auto p = parse_execute_command(params);
  const json& args = p.arguments;
  if (p.command == kDiagnoseTextCommand) {
    if (args.size() != 1 || !args[0].is_string())
      throw RpcError(kInvalidParams, std::string(kDiagnoseTextCommand) + " takes one argument: the log text (a string)");
    return diagnose_text(*library()->matcher, args[0].get<std::string>());
  }
  if (p.command == "denpex.diagnose") {
    std::string text, name = "<selection>";
    if (args.size() == 1 && args[0].is_object() && args[0].contains("text") && args[0]["text"].is_string()) {
      text = args[0]["text"].get<std::string>();
    } else if (args.size() == 1 && args[0].is_object() && args[0].contains("uri")) {
      std::string uri = args[0].value("uri", "");
      auto doc = documents.get(uri);
      if (!doc) throw RpcError(kInvalidParams, "document is not open: " + uri);
      name = uri_basename(uri);
      text = doc->text;
      if (args[0].contains("range")) {
        Positions pos(doc->text, encoding);
        LspRange r = parse_range(args[0]["range"], "arguments[0].range");
        core::LineIndex index(doc->text);
        size_t a = index.offset(pos.from_lsp(r.start)), b = index.offset(pos.from_lsp(r.end));
        text = doc->text.substr(a, b - a);
      }
    } else {
      throw RpcError(kInvalidParams, "denpex.diagnose takes one argument: {\"text\": \"...\"} or {\"uri\": \"...\", \"range\": {...}}");
    }
    logs::Diagnoser d(*library()->matcher);
    uint32_t in = d.open(name);
    d.feed(in, text);
    d.close(in);
    logs::Report report = d.finish();
    json out = features::diagnose_json(report);
    out["markdown"] = features::diagnose_markdown(report);
    return out;
  }
  if (p.command == "denpex.explain" || p.command == "denpex.copyVerifyCommand") {
    std::string what = arg_string(args, "id", p.command);
    auto k = library();
    const core::Entry* e = k->find(what);
    if (p.command == "denpex.copyVerifyCommand") {
      if (!e) throw RpcError(kInvalidParams, "no encyclopedia entry '" + what + "'");
      return e->verify;
    }
    if (e) return features::entry_markdown(*e);
    if (const python::RuleInfo* r = python::find_rule(what)) return features::rule_markdown(*r);
    throw RpcError(kInvalidParams, "no encyclopedia entry or rule '" + what + "' (see `denpex signatures list`, `denpex check --list-rules`)");
  }
  if (p.command == "denpex.checkWorkspace") return check_workspace(id, params, deferred);
  throw RpcError(kInvalidParams, "unknown command '" + p.command + "'");
}

json Server::Impl::check_workspace(const json& id, const json& params, bool* deferred) {
  std::vector<std::string> roots_now;
  {
    std::lock_guard<std::mutex> lock(mu);
    roots_now = roots;
  }
  if (roots_now.empty()) throw RpcError(kInvalidParams, "denpex.checkWorkspace: the client opened no workspace folder");
  json token = params.contains("workDoneToken") ? params["workDoneToken"] : json();
  // A token of the server's own may be used once the client has accepted it, so only off the
  // reading thread (which is the one that reads the client's reply).
  std::shared_future<bool> created;
  if (token.is_null() && progress_support && options.threads > 0) {
    token = "denpex-check-" + std::to_string(next_request_id.load());
    created = request_awaited("window/workDoneProgress/create", {{"token", token}});
  }
  auto job = [this, id, roots_now, token, created]() mutable {
    if (created.valid() && (created.wait_for(std::chrono::seconds(5)) != std::future_status::ready || !created.get()))
      token = nullptr;
    auto progress = [this, &token](json value) {
      if (!token.is_null()) send(notification("$/progress", {{"token", token}, {"value", std::move(value)}}));
    };
    std::vector<std::string> exclude;
    for (const auto& r : roots_now)
      if (auto cfg = project::find_check_config(r)) {
        auto c = project::read_check_config(*cfg);
        exclude.insert(exclude.end(), c.exclude.begin(), c.exclude.end());
      }
    project::Discovered found = project::discover_python_files(roots_now, exclude);
    progress({{"kind", "begin"}, {"title", "Denpex: checking the workspace"}, {"percentage", 0},
              {"message", std::to_string(found.files.size()) + " Python files"}});
    size_t findings = 0, done = 0;
    for (const auto& path : found.files) {
      std::string uri = path_to_uri(std::filesystem::absolute(path).lexically_normal().string());
      bool open;
      {
        std::lock_guard<std::mutex> lock(mu);
        if (stopping) return;
        open = states.count(uri) > 0;
      }
      std::string text;
      std::ifstream in(path, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      text = ss.str();
      if (!open && in) {
        // Text that cannot yield a finding is not parsed; it still clears what an earlier check
        // published for it (the file may have been fixed outside the editor).
        json diags = json::array();
        python::AnalyzeOptions o = options_for(uri);
        if (python::may_have_findings(text, o)) {
          python::Analysis a = python::analyze(std::string_view(text), o);
          findings += a.findings.size();
          Document doc{uri, "python", 0, std::move(text)};
          Settings s;
          {
            std::lock_guard<std::mutex> lock(mu);
            s = settings;
          }
          diags = python_diagnostics(doc, a, s);
        }
        std::lock_guard<std::mutex> lock(mu);
        auto had = contributions.find(uri);
        bool changed = !diags.empty() || (had != contributions.end() && had->second.count("check"));
        if (!states.count(uri) && changed) {
          contributions[uri]["check"] = std::move(diags);
          if (contributions[uri]["check"].empty()) contributions[uri].erase("check");
          if (contributions[uri].empty()) contributions.erase(uri);
          publish_locked(uri);
        }
      }
      ++done;
      if (done % 50 == 0 || done == found.files.size())
        progress({{"kind", "report"}, {"percentage", static_cast<int>(100 * done / std::max<size_t>(1, found.files.size()))},
                  {"message", std::to_string(done) + "/" + std::to_string(found.files.size()) + " files"}});
    }
    progress({{"kind", "end"}, {"message", std::to_string(findings) + " findings in " + std::to_string(done) + " files"}});
    send(response(id, {{"files", done}, {"findings", findings}}));
  };
  *deferred = true;
  if (options.threads == 0) job();
  else jobs.emplace_back(job);
  return nullptr;
}

}  // namespace denpex::lsp
