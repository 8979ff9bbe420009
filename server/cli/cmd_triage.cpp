// `denpex triage DIR...`: diagnose many jobs' outputs at once, in parallel, and say what they add
// up to: counts by entry and category, nodes that keep failing, lines of code that keep failing.
#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "denpex/logs/diagnoser.h"
#include "denpex/server/diagnose_render.h"
#include "denpex/server/evidence_input.h"
#include "denpex/server/library_loading.h"
#include "denpex/server/log_inputs.h"
#include "denpex/server/options.h"
#include "denpex/server/terminal.h"
#include "denpex/server/triage.h"

namespace denpex::cli {
namespace {
namespace fs = std::filesystem;

const char* kHelp =
    "Usage: denpex triage [options] DIR...\n"
    "       denpex triage [options] --jobs-from FILE|-\n\n"
    "Diagnose many jobs' outputs at once and summarize them: how many failed of what (by entry and\n"
    "category), which nodes keep appearing in hardware or NCCL failures (\"drain gpu-node-17: Xid 79\n"
    "in 4 jobs\"), and which line of user code fails in many jobs. Jobs are diagnosed in parallel,\n"
    "each streamed like `denpex diagnose` does (memory stays bounded per job).\n\n"
    "A job is each immediate subdirectory of DIR (all files under it, read as one job), or, with\n"
    "--job-glob, each file directly in DIR whose name matches the pattern. An evidence pack in a job\n"
    "directory (`denpex evidence --out JOB/evidence`) is used as `diagnose --evidence` uses it;\n"
    "diagnoses an epilog wrote (*.denpex.json) are not read as logs.\n\n"
    "Options:\n"
    "  --job-glob PATTERN           One job per matching file in DIR, e.g. 'slurm-*.out'\n"
    "  --jobs-from FILE|-           Also the jobs listed in FILE (or stdin), one path a line: a\n"
    "                               directory or a file each (the map step of docs/cluster.md)\n"
    "  -j, --jobs N                 Jobs diagnosed at once (default: hardware threads)\n"
    "  --format text|json|jsonl     text: the summary; json: the summary and every job; jsonl: one\n"
    "                               line per job, `diagnose --format json`'s shape plus \"job\"\n"
    "  --context N                  Lines kept before each job's first error (default: 20)\n"
    "  --signatures DIR             Also load entries from DIR (repeatable)\n"
    "  --color auto|always|never    Colour in text output (default: auto; NO_COLOR disables)\n"
    "  --exit-zero                  Exit 0 when the triage ran, whatever it found: failures and\n"
    "                               unreadable jobs are in the output (for pipes, e.g. Spark's)\n"
    "  -h, --help                   Show this help\n\n"
    "Exit codes: 1 a job failed, 0 none did, 2 usage error or a job that could not be read (the\n"
    "summary is printed first and names it).\n";

struct Job {
  std::string name;
  bool is_file = false;
};

// The jobs under one DIR argument, sorted by name. Returns an error message, empty on success.
// Jobs named one per line (a scheduler's list of failed jobs, a Spark partition). A path that does
// not exist is still a job: it is reported as unreadable with the others, not a reason to stop.
std::string read_job_list(const std::string& from, std::vector<Job>& out) {
  std::ifstream file;
  if (from != "-") {
    file.open(from);
    if (!file) return "cannot read the job list '" + from + "'";
  }
  std::istream& in = from == "-" ? std::cin : file;
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    std::error_code ec;
    std::string path = line.substr(start);
    out.push_back({path, !fs::is_directory(path, ec)});
  }
  return "";
}

std::string find_jobs(const std::string& dir, const std::string& glob, std::vector<Job>& out) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return "'" + dir + "' is not a directory";
  std::vector<Job> found;
  size_t files = 0;
  for (auto it = fs::directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
       !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.starts_with(".")) continue;
    std::error_code type_ec;
    if (glob.empty()) {
      if (it->is_directory(type_ec)) found.push_back({it->path().string(), false});
      else if (it->is_regular_file(type_ec)) ++files;
    } else if (it->is_regular_file(type_ec) && ::fnmatch(glob.c_str(), name.c_str(), 0) == 0) {
      found.push_back({it->path().string(), true});
    }
  }
  if (ec) return "cannot list '" + dir + "': " + ec.message();
  if (found.empty()) {
    if (!glob.empty()) return "no file in '" + dir + "' matches --job-glob '" + glob + "'";
    return "no job directories in '" + dir + "' (each subdirectory is a job" +
           (files ? "; it holds " + std::to_string(files) + " files: for one job per file use --job-glob, e.g. 'slurm-*.out'"
                  : "") +
           ")";
  }
  std::sort(found.begin(), found.end(), [](const Job& a, const Job& b) { return a.name < b.name; });
  out.insert(out.end(), found.begin(), found.end());
  return "";
}

struct Result {
  features::JobOutcome outcome;
  std::string json;  // one compact line; only for json and jsonl output
};

// What in a job directory is not a log: an evidence pack (`denpex evidence --out JOB/...`) is
// used as one, as `diagnose --evidence` does; the diagnoses an epilog wrote (*.denpex.json) are
// our own output. A pack that does not parse stays a log file like any other.
void take_evidence(std::vector<project::LogInput>& files, std::optional<features::EvidencePack>& pack,
                   std::string& pack_dir) {
  for (const auto& f : files) {
    fs::path p(f.path);
    if (pack || p.filename() != "evidence.json") continue;
    std::string error;
    pack = read_evidence_pack(p.parent_path().string(), error);
    if (pack) pack_dir = p.parent_path().string();
  }
  std::erase_if(files, [&](const project::LogInput& f) {
    fs::path p(f.path);
    const std::string name = p.filename().string();
    if (name.ends_with(".denpex.json")) return true;
    return pack && p.parent_path().string() == pack_dir && (name == "evidence.json" || name == "evidence.md");
  });
}

std::string dump(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result diagnose_job(const Job& job, const logs::Matcher& matcher, const logs::DiagnoseOptions& dopts,
                    bool want_json, std::vector<char>& buf) {
  Result r;
  r.outcome.job = job.name;
  try {
    std::vector<project::LogInput> files;
    std::string error;
    std::error_code ec;
    const auto type = fs::status(job.name, ec).type();
    if (job.is_file && type != fs::file_type::not_found && type != fs::file_type::regular) {
      // A FIFO or a device would block the worker or never end.
      error = "'" + job.name + "' is not a regular file or a directory";
    } else if (job.is_file) {
      files.push_back({job.name, 0});  // a missing one fails to open below
    } else if (::access(job.name.c_str(), R_OK | X_OK) != 0) {
      // The directory walk skips what it may not read: without this, a job we cannot read would
      // be counted as a job without output.
      error = "cannot read directory '" + job.name + "': " + std::strerror(errno);
    } else {
      project::collect_log_inputs(job.name, files, error, true);
    }
    std::optional<features::EvidencePack> pack;
    std::string pack_dir;
    if (!job.is_file) take_evidence(files, pack, pack_dir);
    if (error.empty() && files.empty() && !pack) r.outcome.empty = true;
    logs::Diagnoser diagnoser(matcher, dopts);
    for (size_t i = 0; error.empty() && i < files.size(); ++i)
      error = project::feed_log_file(diagnoser, files[i].path, files[i].path, buf);
    if (pack) feed_kernel_log(diagnoser, *pack, pack_dir);
    if (!error.empty()) {
      r.outcome.error = error;
      if (want_json) r.json = dump({{"job", job.name}, {"error", error}});
    } else if (r.outcome.empty) {
      if (want_json) r.json = dump({{"job", job.name}, {"empty", true}});
    } else {
      logs::Report report = diagnoser.finish();
      if (pack) features::apply_evidence(*pack, report);
      r.outcome = features::job_outcome(job.name, report);
      // "job" first, then exactly what `diagnose --format json` prints for these files.
      if (want_json)
        r.json = "{\"job\":" + dump(job.name) + "," +
                 features::diagnose_json(report).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).substr(1);
    }
  } catch (const std::exception& e) {
    // One bad job must not end the triage of the others.
    r.outcome = {};
    r.outcome.job = job.name;
    r.outcome.error = std::string("internal error: ") + e.what() + " (please report it)";
    if (want_json) r.json = dump({{"job", job.name}, {"error", r.outcome.error}});
  }
  return r;
}

std::optional<size_t> parse_count(const std::string& s, size_t max) {
  char* end = nullptr;
  long n = std::strtol(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || n < 0 || static_cast<unsigned long>(n) > max) return std::nullopt;
  return static_cast<size_t>(n);
}

}  // namespace

int cmd_triage(const Args& args) {
  Options opts("triage", kHelp);
  opts.value("job-glob").value("jobs-from").value("jobs", 'j').value("format").value("context").value("signatures").value("color");
  opts.flag("exit-zero");
  if (auto rc = opts.parse(args)) return *rc;
  if (opts.help()) return kOk;
  const std::string format = opts.get("format", "text");
  if (format != "text" && format != "json" && format != "jsonl")
    return opts.usage_error("unknown --format '" + format + "' (text, json or jsonl)");
  if (opts.positional().empty() && !opts.has("jobs-from"))
    return opts.usage_error("no directory given: denpex triage [options] DIR... (or --jobs-from FILE)");
  size_t threads = std::max(1u, std::thread::hardware_concurrency());
  if (opts.has("jobs")) {
    auto n = parse_count(opts.get("jobs"), 1024);
    if (!n || *n == 0) return opts.usage_error("--jobs needs a number from 1 to 1024");
    threads = *n;
  }
  logs::DiagnoseOptions dopts;
  dopts.context = 20;
  if (opts.has("context")) {
    auto n = parse_count(opts.get("context"), 100000);
    if (!n) return opts.usage_error("--context needs a number of lines");
    dopts.context = *n;
  }
  std::vector<Job> jobs;
  for (const auto& dir : opts.positional())
    if (std::string error = find_jobs(dir, opts.get("job-glob"), jobs); !error.empty()) {
      print_error("triage", error);
      return kUsage;
    }
  if (opts.has("jobs-from")) {
    if (std::string error = read_job_list(opts.get("jobs-from"), jobs); !error.empty()) {
      print_error("triage", error);
      return kUsage;
    }
    if (jobs.empty()) return opts.usage_error("the job list '" + opts.get("jobs-from") + "' names no job");
  }

  std::shared_ptr<const project::Knowledge> knowledge;
  try {
    knowledge = project::load_knowledge(opts.all("signatures"));
  } catch (const std::exception& e) {
    print_error("triage", e.what());
    return kUsage;
  }
  report_problems("triage", knowledge->loaded.problems);

  const bool want_json = format != "text";
  std::vector<std::optional<Result>> results(jobs.size());
  std::mutex mu;
  std::condition_variable ready;
  std::atomic<size_t> next{0};
  size_t done = 0;
  threads = std::min(threads, jobs.size());
  std::vector<std::thread> pool;
  for (size_t t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      std::vector<char> buf(256 << 10);
      for (size_t i = next++; i < jobs.size(); i = next++) {
        Result r = diagnose_job(jobs[i], *knowledge->matcher, dopts, want_json, buf);
        std::lock_guard lock(mu);
        results[i] = std::move(r);
        ++done;
        ready.notify_one();
      }
    });

  // The main thread writes: jsonl lines in job order as soon as they are ready (a consumer can
  // start while the triage runs), progress on a terminal, everything else at the end.
  const bool progress = isatty(STDERR_FILENO) == 1 && jobs.size() > 1;
  std::vector<features::JobOutcome> outcomes;
  std::vector<std::string> job_json;
  outcomes.reserve(jobs.size());
  size_t written = 0;
  {
    std::unique_lock lock(mu);
    while (written < jobs.size()) {
      ready.wait_for(lock, std::chrono::milliseconds(250), [&] { return results[written].has_value(); });
      while (written < jobs.size() && results[written]) {
        Result r = std::move(*results[written]);
        results[written].reset();
        ++written;
        if (format == "jsonl") std::printf("%s\n", r.json.c_str());
        else if (format == "json") job_json.push_back(std::move(r.json));
        outcomes.push_back(std::move(r.outcome));
      }
      if (progress) std::fprintf(stderr, "\rtriage: %zu of %zu jobs", done, jobs.size());
    }
  }
  for (auto& t : pool) t.join();
  if (progress) std::fprintf(stderr, "\r%50s\r", "");

  features::TriageSummary summary = features::summarize_jobs(outcomes);
  if (format == "json") {
    nlohmann::json head = {{"schema_version", features::kDiagnoseSchemaVersion},
                           {"summary", features::triage_summary_json(summary)}};
    std::string text = head.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    text.pop_back();  // the closing brace: "jobs" follows, one compact job per line
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    std::fputs(text.c_str(), stdout);
    std::fputs(",\n  \"jobs\": [", stdout);
    for (size_t i = 0; i < job_json.size(); ++i) std::printf("%s\n    %s", i ? "," : "", job_json[i].c_str());
    std::fputs(job_json.empty() ? "]\n}\n" : "\n  ]\n}\n", stdout);
  } else if (format == "text") {
    Style st = Style::for_stream(stdout, opts.get("color", "auto"));
    std::fputs(features::triage_text(summary, st.enabled()).c_str(), stdout);
  }
  std::fflush(stdout);
  if (opts.has("exit-zero")) return kOk;
  if (summary.unreadable) return kUsage;
  return summary.failed || summary.unrecognized ? kFindings : kOk;
}

}  // namespace denpex::cli
