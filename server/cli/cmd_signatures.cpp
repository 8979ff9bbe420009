// `denpex signatures list|test|validate|docs`: the encyclopedia's own tooling, for users and authors.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "denpex/logs/matcher.h"
#include "denpex/server/entry_render.h"
#include "denpex/server/example_check.h"
#include "denpex/server/library_loading.h"
#include "denpex/server/options.h"
#include "denpex/server/terminal.h"

namespace denpex::cli {
namespace {
namespace fs = std::filesystem;

const char* kHelp =
    "Usage: denpex signatures <subcommand> [options]\n\n"
    "Subcommands:\n"
    "  list [--format text|json]   One line (or JSON object) per entry\n"
    "  test [DIR...]               Run every entry's examples; with DIRs, load them over the built-in\n"
    "                              library and test only their entries. Exit 1 on any failure\n"
    "  validate DIR...             Check entry files for errors, one `file:line: problem` per line\n"
    "  docs OUTDIR                 Write one Markdown page per entry plus an index (docs/encyclopedia)\n\n"
    "Options:\n"
    "  --signatures DIR            Also load entries from DIR (list, docs)\n"
    "  --format text|json          Output format of `list` and `test` (default: text)\n"
    "  --color auto|always|never   Colour (default: auto; NO_COLOR disables)\n"
    "  -h, --help                  Show this help\n\n"
    "An example is validated when its entry matches it and no other entry claims it with a higher\n"
    "confidence; missing when its entry does not match it; noisy when a near-miss (no_match) matches;\n"
    "ambiguous when another entry claims it with a higher confidence.\n";

int list(const Options& opts) {
  auto loaded = project::load_library(opts.all("signatures"));
  report_problems("signatures", loaded.problems);
  if (opts.get("format", "text") == "json") {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& e : loaded.library.entries()) all.push_back(features::entry_summary_json(e));
    std::printf("%s\n", all.dump(2).c_str());
    return kOk;
  }
  Style st = Style::for_stream(stdout, opts.get("color", "auto"));
  for (auto category : core::categories()) {
    bool header = false;
    for (const auto& e : loaded.library.entries()) {
      if (e.category != category) continue;
      if (!header) std::printf("%s\n", st.bold(std::string(category)).c_str());
      header = true;
      std::printf("  %-42s %s\n", e.id.c_str(), e.title.c_str());
    }
  }
  std::printf("%zu entries\n", loaded.library.entries().size());
  return kOk;
}

int test(const Options& opts, const std::vector<std::string>& dirs) {
  std::vector<std::string> user_dirs = opts.all("signatures");
  user_dirs.insert(user_dirs.end(), dirs.begin(), dirs.end());
  auto loaded = project::load_library(user_dirs);
  loaded.library.check_links(loaded.problems);
  report_problems("signatures", loaded.problems);
  logs::Matcher matcher(loaded.library.entries());
  if (!matcher.ok()) {
    print_error("signatures", matcher.error());
    return kUsage;
  }
  auto results = features::check_examples(loaded.library, matcher, dirs.empty() ? std::vector<std::string>{} : loaded.user_ids);
  std::map<features::ExampleResult::Status, size_t> counts;
  Style st = Style::for_stream(stdout, opts.get("color", "auto"));
  nlohmann::json json = nlohmann::json::array();
  for (const auto& r : results) {
    ++counts[r.status];
    if (opts.get("format") == "json") {
      json.push_back({{"entry", r.entry},
                      {"example", std::string(r.positive ? "match" : "no_match") + "[" + std::to_string(r.index) + "]"},
                      {"status", features::to_string(r.status)},
                      {"rival", r.rival}});
      continue;
    }
    if (r.status == features::ExampleResult::Status::Validated) continue;
    const core::Entry* e = loaded.library.find(r.entry);
    std::string where = (e ? e->source : r.entry) + ": examples." + (r.positive ? "match" : "no_match") + "[" +
                        std::to_string(r.index) + "]";
    std::string what;
    switch (r.status) {
      case features::ExampleResult::Status::Missing: what = "missing: '" + r.entry + "' does not match it"; break;
      case features::ExampleResult::Status::Noisy: what = "noisy: this near-miss matches '" + r.entry + "'"; break;
      case features::ExampleResult::Status::Ambiguous: {
        char buf[160];
        std::snprintf(buf, sizeof buf, "ambiguous: '%s' claims it with confidence %.2f > %.2f", r.rival.c_str(),
                      r.rival_confidence, r.confidence);
        what = buf;
        break;
      }
      default: break;
    }
    std::printf("%s %s\n", where.c_str(), st.red(what).c_str());
  }
  using S = features::ExampleResult::Status;
  bool failed = counts[S::Missing] + counts[S::Noisy] + counts[S::Ambiguous] > 0 || !loaded.problems.empty();
  if (opts.get("format") == "json") {
    std::printf("%s\n", json.dump(2).c_str());
  } else {
    std::printf("%zu examples: %zu validated, %zu missing, %zu noisy, %zu ambiguous; %zu load problems\n",
                results.size(), counts[S::Validated], counts[S::Missing], counts[S::Noisy], counts[S::Ambiguous],
                loaded.problems.size());
  }
  return failed ? kFindings : kOk;
}

int validate(const std::vector<std::string>& dirs) {
  if (dirs.empty()) {
    print_error("signatures", "validate needs at least one directory");
    return kUsage;
  }
  auto loaded = project::load_library(dirs);
  loaded.library.check_links(loaded.problems);
  for (const auto& p : loaded.problems) std::printf("%s\n", p.str().c_str());
  std::printf("%zu entries loaded from %zu director%s, %zu problem%s\n", loaded.user_ids.size(), dirs.size(),
              dirs.size() == 1 ? "y" : "ies", loaded.problems.size(), loaded.problems.size() == 1 ? "" : "s");
  return loaded.problems.empty() ? kOk : kFindings;
}

bool write_file(const fs::path& path, const std::string& text) {
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out << text;
    if (!out.flush()) return false;
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  return !ec;
}

int docs(const Options& opts, const std::vector<std::string>& args) {
  if (args.size() != 1) {
    print_error("signatures", "docs needs exactly one output directory");
    return kUsage;
  }
  auto loaded = project::load_library(opts.all("signatures"));
  report_problems("signatures", loaded.problems);
  fs::path out(args[0]);
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) {
    print_error("signatures", "cannot create " + out.string() + ": " + ec.message());
    return kUsage;
  }
  std::string index =
      "# The failure encyclopedia\n\nGenerated from `signatures/` by `denpex signatures docs`; do not edit.\n"
      "Each page is also available offline as `denpex explain ID`.\n";
  for (auto category : core::categories()) {
    std::string rows;
    for (const auto& e : loaded.library.entries()) {
      if (e.category != category) continue;
      rows += "| [" + e.title + "](" + e.id + ".md) | `" + e.id + "` | " + std::string(core::to_string(e.role)) + " |\n";
      if (!write_file(out / (e.id + ".md"), features::entry_markdown(e))) {
        print_error("signatures", "cannot write " + (out / (e.id + ".md")).string());
        return kUsage;
      }
    }
    if (!rows.empty()) index += "\n## " + std::string(category) + "\n\n| Entry | id | role |\n|---|---|---|\n" + rows;
  }
  if (!write_file(out / "README.md", index)) {
    print_error("signatures", "cannot write " + (out / "README.md").string());
    return kUsage;
  }
  std::printf("wrote %zu pages and README.md to %s\n", loaded.library.entries().size(), out.string().c_str());
  return kOk;
}

}  // namespace

int cmd_signatures(const Args& args) {
  Options opts("signatures", kHelp);
  opts.value("format").value("signatures").value("color");
  if (auto rc = opts.parse(args)) return *rc;
  if (opts.help()) return kOk;
  if (opts.positional().empty()) return opts.usage_error("expected a subcommand: list, test, validate or docs");
  const std::string sub = opts.positional()[0];
  std::vector<std::string> rest(opts.positional().begin() + 1, opts.positional().end());
  const std::string format = opts.get("format", "text");
  if (format != "text" && format != "json") return opts.usage_error("unknown --format '" + format + "'");
  if (sub == "list") return list(opts);
  if (sub == "test") return test(opts, rest);
  if (sub == "validate") return validate(rest);
  if (sub == "docs") return docs(opts, rest);
  return opts.usage_error("unknown subcommand '" + sub + "'");
}

}  // namespace denpex::cli
