// `denpex explain ID`: an encyclopedia entry for the terminal, as Markdown or as JSON.
#include <cstdio>

#include "denpex/python/rule.h"
#include "denpex/server/entry_render.h"
#include "denpex/server/library_loading.h"
#include "denpex/server/options.h"
#include "denpex/server/terminal.h"

namespace denpex::cli {
namespace {

const char* kHelp =
    "Usage: denpex explain [options] ID\n\n"
    "Show an encyclopedia entry: what broke, why, how to confirm it, the fix and how to verify it.\n"
    "ID may also be a static-check rule (DPX001 or its name): its documentation and its entry.\n\n"
    "Options:\n"
    "  --format text|markdown|json  Output format (default: text)\n"
    "  --signatures DIR             Also load entries from DIR (repeatable; overrides built-in ids)\n"
    "  --color auto|always|never    Colour in text output (default: auto; NO_COLOR disables)\n"
    "  -h, --help                   Show this help\n\n"
    "`denpex signatures list` shows every id.\n";

void print_block(const Style& st, const char* heading, const std::string& body) {
  if (body.empty()) return;
  std::printf("\n%s\n%s", st.bold(heading).c_str(), features::indent_block(body, "  ").c_str());
}

void print_text(const core::Entry& e, const Style& st) {
  std::printf("%s  %s\n", st.bold(e.title).c_str(), st.dim("(" + e.id + ")").c_str());
  std::printf("%s · severity %s · role %s\n", e.category.c_str(), std::string(core::to_string(e.severity)).c_str(),
              std::string(core::to_string(e.role)).c_str());
  print_block(st, "What broke", e.summary);
  print_block(st, "Mechanism", e.mechanism);
  if (!e.symptoms.empty()) {
    std::string s;
    for (const auto& sym : e.symptoms) s += "- " + sym.symptom + "\n  " + sym.why + "\n";
    print_block(st, "Symptoms", s);
  }
  if (!e.confirm.empty()) {
    std::string s;
    for (const auto& c : e.confirm) s += "[ ] " + c + "\n";
    print_block(st, "Confirm", s);
  }
  print_block(st, "Fix", e.fix);
  print_block(st, "Prevention", e.prevention);
  print_block(st, "Verify", features::verify_with_denpex(e));
  std::string links;
  if (!e.codes.empty()) {
    links += "Static checks:";
    for (const auto& c : e.codes) links += " " + c;
    links += "\n";
  }
  if (!e.related.empty()) {
    links += "Related:";
    for (const auto& r : e.related) links += " " + r;
    links += "\n";
  }
  for (const auto& r : e.references) links += r + "\n";
  print_block(st, "See also", links);
}

const python::RuleInfo* find_rule(const std::string& id) {
  for (const python::RuleInfo* r : python::rules())
    if (r->code == id || r->name == id) return r;
  return nullptr;
}

int explain_rule(const python::RuleInfo& r, const std::string& format, const std::string& color) {
  const std::string code(r.code), name(r.name), entry(r.entry), doc(r.doc);
  if (format == "json") {
    nlohmann::json j = {{"code", code},       {"name", name},
                        {"severity", core::to_string(r.severity)}, {"summary", std::string(r.summary)},
                        {"doc", doc},         {"entry", r.entry.empty() ? nlohmann::json(nullptr) : nlohmann::json(entry)}};
    std::printf("%s\n", j.dump(2).c_str());
    return kOk;
  }
  std::string see = entry.empty() ? "" : "\nThe failure it prevents: `denpex explain " + entry + "`\n";
  if (format == "markdown") {
    std::printf("# %s %s\n\n%s\n%s", code.c_str(), name.c_str(), doc.c_str(), see.c_str());
    return kOk;
  }
  Style st = Style::for_stream(stdout, color);
  std::printf("%s  %s\n", st.bold(code + " " + name).c_str(), st.dim("(static check, " + std::string(core::to_string(r.severity)) + ")").c_str());
  std::printf("\n%s\n%s", doc.c_str(), see.c_str());
  return kOk;
}

}  // namespace

int cmd_explain(const Args& args) {
  Options opts("explain", kHelp);
  opts.value("format").value("signatures").value("color");
  if (auto rc = opts.parse(args)) return *rc;
  if (opts.help()) return kOk;
  if (opts.positional().size() != 1) return opts.usage_error("expected exactly one entry id");
  const std::string format = opts.get("format", "text");
  if (format != "text" && format != "markdown" && format != "json")
    return opts.usage_error("unknown --format '" + format + "' (text, markdown or json)");

  auto loaded = project::load_library(opts.all("signatures"));
  report_problems("explain", loaded.problems);
  const std::string& id = opts.positional()[0];
  const core::Entry* e = loaded.library.find(id);
  if (!e) {
    if (const python::RuleInfo* rule = find_rule(id)) return explain_rule(*rule, format, opts.get("color", "auto"));
    std::string msg = "no entry or rule '" + id + "'";
    auto near = loaded.library.closest_ids(id, 3);
    if (!near.empty()) {
      msg += "; did you mean";
      for (size_t i = 0; i < near.size(); ++i) msg += (i ? ", " : " ") + near[i];
      msg += "?";
    } else {
      msg += "; `denpex signatures list` shows every entry, `denpex check --list-rules` every rule";
    }
    print_error("explain", msg);
    return kUsage;
  }
  if (format == "json") {
    std::printf("%s\n", features::entry_json(*e).dump(2).c_str());
  } else if (format == "markdown") {
    std::printf("%s", features::entry_markdown(*e).c_str());
  } else {
    print_text(*e, Style::for_stream(stdout, opts.get("color", "auto")));
  }
  return kOk;
}

}  // namespace denpex::cli
