// `denpex check [PATHS...]`: the static rules over Python files, in parallel, with fixes.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "denpex/python/analyze.h"
#include "denpex/python/parse_arena.h"
#include "denpex/python/rule.h"
#include "denpex/server/check_config.h"
#include "denpex/server/check_files.h"
#include "denpex/server/check_report.h"
#include "denpex/server/options.h"
#include "denpex/server/terminal.h"

namespace denpex::cli {
namespace {
namespace fs = std::filesystem;

const char* kHelp =
    "Usage: denpex check [options] [PATHS...]\n\n"
    "Check Python training code for PyTorch patterns that cause the failures in the encyclopedia.\n"
    "Directories are searched recursively for *.py (skipping .git, virtualenvs, node_modules and\n"
    ".gitignore'd paths); the default path is the current directory.\n\n"
    "Options:\n"
    "  --fix                    Apply safe fixes in place (atomically)\n"
    "  --unsafe-fixes           With --fix or --diff, also apply fixes that may change behaviour\n"
    "  --diff                   Show the fixes as a unified diff; change nothing\n"
    "  --select CODES           Only these rules (comma-separated codes or prefixes, e.g. DPX001,DPX01)\n"
    "  --extend-select CODES    Add these rules to the selection (e.g. an opt-in rule: DPX003)\n"
    "  --ignore CODES           Skip these rules\n"
    "  --output-format FORMAT   text (default), json, sarif or github\n"
    "  --statistics             Count findings per rule instead of listing them\n"
    "  --show-fixes             In text output, show each finding's fix\n"
    "  --list-rules             List the rules (--output-format text, json or markdown)\n"
    "  --config FILE            Read [tool.denpex] from FILE instead of the nearest pyproject.toml\n"
    "  --no-config              Ignore pyproject.toml\n"
    "  --threads N              Worker threads (default: all cores; 1 checks files in order)\n"
    "  --parse-only             Parse the files and run no rules (a benchmark baseline)\n"
    "  --color auto|always|never  Colour in text output (default: auto; NO_COLOR disables)\n"
    "  -h, --help               Show this help\n\n"
    "Suppress a finding with `# denpex: ignore[DPX001]` or `# noqa: DPX001` on its line, or for a whole\n"
    "file with `# denpex: ignore-file[DPX001]`. Configure in pyproject.toml:\n"
    "  [tool.denpex]\n  select = [\"DPX\"]\n  ignore = [\"DPX013\"]\n  severity = { DPX011 = \"info\" }\n\n"
    "Exit codes: 0 no findings, 1 findings (or, with --diff, fixes to apply), 2 usage or I/O error.\n"
    "Rules: `denpex check --list-rules`; JSON schema: docs/check.md.\n";

std::vector<std::string> split_codes(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const auto& v : values) {
    std::stringstream s(v);
    std::string item;
    while (std::getline(s, item, ',')) {
      while (!item.empty() && item.front() == ' ') item.erase(0, 1);
      while (!item.empty() && item.back() == ' ') item.pop_back();
      if (!item.empty()) out.push_back(item);
    }
  }
  return out;
}

bool read_whole(const std::string& path, std::string& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  std::stringstream s;
  s << in.rdbuf();
  out = s.str();
  return true;
}

// Temp file in the same directory + rename: readers see the old or the new file, never half of it.
bool write_atomically(const std::string& path, const std::string& text, std::string& error) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  // Renaming over a link would replace the link with a copy, and a FIFO or device is no source
  // file: only regular files are rewritten.
  if (!S_ISREG(st.st_mode)) {
    error = "cannot write " + path + ": " + (S_ISLNK(st.st_mode) ? "it is a symbolic link (fix the file it points to)"
                                                                  : "it is not a regular file") + "; left unchanged";
    return false;
  }
  if (::access(path.c_str(), W_OK) != 0) {
    error = "cannot write " + path + ": the file is read-only; left unchanged";
    return false;
  }
  fs::path p(path);
  std::string tmpl = (p.parent_path().empty() ? fs::path(".") : p.parent_path()) / ("." + p.filename().string() + ".denpex-XXXXXX");
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  int fd = ::mkstemp(buf.data());
  if (fd < 0) {
    error = "cannot write " + path + ": cannot create a temporary file next to it (" + std::strerror(errno) + "); left unchanged";
    return false;
  }
  bool ok = ::fchmod(fd, st.st_mode & 07777) == 0;
  size_t done = 0;
  while (ok && done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) ok = false;
    else done += static_cast<size_t>(n);
  }
  ok = ::fsync(fd) == 0 && ok;
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(buf.data(), path.c_str()) != 0) {
    error = "cannot write " + path + ": " + std::strerror(errno) + "; left unchanged";
    ::unlink(buf.data());
    return false;
  }
  return true;
}

struct Job {
  bool fix = false, unsafe = false, diff = false, parse_only = false, json = false;
  python::AnalyzeOptions options;
};

void check_one(const Job& job, features::CheckedFile& f, std::string& diff, std::string& rendered) {
  python::ParseArena arena;  // every tree of this file is gone when it returns
  std::string text;
  if (!read_whole(f.path, text, f.error)) return;
  if (job.parse_only) {
    // The benchmark's baseline: the same discovery, reading and threads, tree-sitter alone.
    python::Tree t = python::parse(text);
    if (!t) f.error = "cannot parse " + f.path;
    return;
  }
  if ((job.fix || job.diff) && python::may_have_findings(text)) {
    python::FixOutcome fixed = python::fix_all(text, job.options, job.unsafe);
    if (fixed.applied > 0 && fixed.text != text) {
      if (job.diff) {
        diff = features::unified_diff(f.path, text, fixed.text);
      } else if (write_atomically(f.path, fixed.text, f.error)) {
        f.fixes_applied = fixed.applied;
        text = std::move(fixed.text);
      }
    }
  }
  f.source = std::move(text);
  // Text that cannot yield a finding is not parsed at all (see may_have_findings).
  if (!python::may_have_findings(f.source)) return;
  f.findings = python::analyze(std::string_view(f.source), job.options).findings;
  // Rendering is a large share of the work on big trees: do it here, in parallel.
  if (job.json) rendered = features::check_json_lines(f);
}

int list_rules(const std::string& format) {
  if (format == "json") std::printf("%s\n", features::rules_json().dump(2).c_str());
  else if (format == "markdown") std::fputs(features::rules_markdown().c_str(), stdout);
  else std::fputs(features::rules_text().c_str(), stdout);
  return kOk;
}

}  // namespace

int cmd_check(const Args& args) {
  Options opts("check", kHelp);
  opts.flag("fix").flag("unsafe-fixes").flag("diff").flag("statistics").flag("show-fixes").flag("list-rules");
  opts.flag("no-config").value("select").value("extend-select").value("ignore").value("output-format").value("format").value("config");
  opts.value("threads").value("color").flag("parse-only");
  if (auto rc = opts.parse(args)) return *rc;
  if (opts.help()) return kOk;
  std::string format = opts.get("output-format", opts.get("format", "text"));
  if (opts.has("list-rules")) {
    if (format != "text" && format != "json" && format != "markdown")
      return opts.usage_error("--list-rules takes --output-format text, json or markdown");
    return list_rules(format);
  }
  if (format != "text" && format != "json" && format != "sarif" && format != "github")
    return opts.usage_error("unknown --output-format '" + format + "' (text, json, sarif or github)");
  if (opts.has("fix") && opts.has("diff")) return opts.usage_error("--fix and --diff exclude each other");

  Job job;
  job.fix = opts.has("fix");
  job.diff = opts.has("diff");
  job.unsafe = opts.has("unsafe-fixes");
  job.parse_only = opts.has("parse-only");
  job.json = format == "json" && !opts.has("statistics");

  project::CheckConfig cfg;
  if (!opts.has("no-config")) {
    std::optional<fs::path> file;
    if (opts.has("config")) {
      file = fs::path(opts.get("config"));
      std::error_code ec;
      if (!fs::is_regular_file(*file, ec)) return opts.usage_error("no config file '" + opts.get("config") + "'");
    } else {
      file = project::find_check_config(opts.positional().empty() ? fs::path(".") : fs::path(opts.positional().front()));
    }
    if (file) cfg = project::read_check_config(*file);
  }
  for (const auto& w : cfg.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  if (!cfg.errors.empty()) {
    for (const auto& e : cfg.errors) print_error("check", e);
    return kUsage;
  }
  std::vector<std::string> select = split_codes(opts.all("select")), ignore = split_codes(opts.all("ignore"));
  job.options = project::analyze_options(cfg, select, ignore, split_codes(opts.all("extend-select")));
  for (const auto* list : {&job.options.select, &job.options.ignore})
    if (auto unknown = project::unknown_codes(*list); !unknown.empty())
      return opts.usage_error("no rule matches '" + unknown.front() + "' (see `denpex check --list-rules`)");

  std::vector<std::string> roots = opts.positional();
  if (roots.empty()) roots.push_back(".");
  project::Discovered found = project::discover_python_files(roots, cfg.exclude);
  int rc = kOk;
  for (const auto& missing : found.errors) {
    print_error("check", "no such file or directory: " + missing);
    rc = kUsage;
  }
  for (const auto& dir : found.unreadable_dirs) {
    print_error("check", "cannot read directory " + dir + " (skipped; fix its permissions or exclude it)");
    rc = kUsage;
  }

  std::vector<features::CheckedFile> files(found.files.size());
  std::vector<std::string> diffs(found.files.size()), rendered(found.files.size());
  for (size_t i = 0; i < files.size(); ++i) files[i].path = found.files[i];
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  if (opts.has("threads")) {
    try {
      threads = static_cast<unsigned>(std::max(1, std::stoi(opts.get("threads"))));
    } catch (const std::exception&) {
      return opts.usage_error("--threads takes a number");
    }
  }
  threads = static_cast<unsigned>(std::min<size_t>(threads, std::max<size_t>(1, files.size())));
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < files.size(); i = next++) check_one(job, files[i], diffs[i], rendered[i]);
  };
  if (threads == 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }

  size_t total = 0, fixed = 0, unreadable = 0;
  bool any_diff = false;
  for (const auto& f : files) {
    if (!f.error.empty()) {
      print_error("check", f.error);
      rc = kUsage;
      ++unreadable;
    }
    total += f.findings.size();
    fixed += static_cast<size_t>(f.fixes_applied);
  }
  const size_t failed = found.errors.size() + found.unreadable_dirs.size() + unreadable;
  if (files.empty() && failed == 0) {
    Style st = Style::for_stream(stderr);
    std::fprintf(stderr, "%s no Python files found under the given paths\n", st.yellow("warning:").c_str());
  }
  if (job.diff) {
    for (const auto& d : diffs) {
      if (d.empty()) continue;
      any_diff = true;
      std::fputs(d.c_str(), stdout);
    }
    if (rc == kOk && any_diff) rc = kFindings;
    return rc;
  }

  if (opts.has("statistics")) {
    std::fputs(features::check_statistics(files).c_str(), stdout);
  } else if (format == "json") {
    std::fputs(features::join_json_lines(rendered).c_str(), stdout);
  } else if (format == "sarif") {
    std::printf("%s\n", features::check_sarif(files, DENPEX_VERSION).dump(2).c_str());
  } else if (format == "github") {
    std::fputs(features::check_github(files).c_str(), stdout);
  } else if (failed > 0 && total == 0) {
    // "All checks passed" would be a false all-clear when some paths could not be checked.
    std::printf("No findings in the %zu file%s checked; %zu path%s could not be checked (see above).\n",
                files.size() - unreadable, files.size() - unreadable == 1 ? "" : "s", failed,
                failed == 1 ? "" : "s");
  } else {
    Style st = Style::for_stream(stdout, opts.get("color", "auto"));
    std::fputs(features::check_text(files, st.enabled(), opts.has("show-fixes")).c_str(), stdout);
    if (job.fix) std::printf("Fixed %zu finding%s.\n", fixed, fixed == 1 ? "" : "s");
  }
  if (rc == kOk && total > 0) rc = kFindings;
  return rc;
}

}  // namespace denpex::cli
