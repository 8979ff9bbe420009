#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "denpex/server/evidence.h"
#include "denpex/server/library_loading.h"
#include "denpex/server/log_inputs.h"
#include "denpex/server/triage.h"
#include "process.h"
#include "snapshot.h"
#include "temp_dir.h"

using namespace denpex;
using denpex::testing::read_file;
using denpex::testing::run_denpex;
using denpex::testing::TempDir;
namespace fs = std::filesystem;

namespace {

const fs::path kLogs = fs::path(DENPEX_SOURCE_DIR) / "tests/fixtures/logs";

logs::Report diagnose_dir(const fs::path& dir) {
  static auto knowledge = project::load_knowledge({});
  logs::Diagnoser d(*knowledge->matcher);
  std::vector<project::LogInput> files;
  std::string error;
  REQUIRE(project::collect_log_inputs(dir.string(), files, error));
  std::vector<char> buf(4096);
  for (const auto& f : files) REQUIRE(project::feed_log_file(d, f.path, f.path, buf).empty());
  return d.finish();
}

// A copy of a fixture job whose node is renamed, as the same failure on another machine.
void copy_job(const fs::path& from, const fs::path& to, const std::string& node) {
  fs::create_directories(to);
  for (const auto& e : fs::directory_iterator(from)) {
    std::string name = e.path().filename().string(), text = read_file(e.path());
    for (size_t p; (p = name.find("node-02")) != std::string::npos;) name.replace(p, 7, node);
    for (size_t p; (p = text.find("node-02")) != std::string::npos;) text.replace(p, 7, node);
    std::ofstream(to / name, std::ios::binary) << text;
  }
}

features::JobOutcome outcome(std::string job, std::string entry, bool failed, std::string node = "",
                             bool node_fault = false, std::string location = "") {
  features::JobOutcome o;
  o.job = std::move(job);
  o.entry = entry;
  o.title = entry + " title";
  o.category = node_fault ? "Hardware" : "Memory";
  o.failed = failed;
  o.node = std::move(node);
  o.node_fault = node_fault;
  o.fault = node_fault ? "Xid 79" : entry;
  o.location = std::move(location);
  return o;
}

}  // namespace

TEST_CASE("triage: a job's outcome names its entry, node, Xid and user-code line") {
  auto xid = features::job_outcome("a", diagnose_dir(kLogs / "xid79-busid"));
  CHECK(xid.entry == "xid-79-gpu-fallen-off-bus");
  CHECK(xid.failed);
  CHECK(xid.node == "node-02");
  CHECK(xid.node_fault);
  CHECK(xid.fault == "Xid 79");
  auto nan = features::job_outcome("b", diagnose_dir(kLogs / "multirank/nan_raise"));
  CHECK(nan.failed);
  CHECK_FALSE(nan.node_fault);
  CHECK(nan.location.ends_with("mr_rank.py:41"));
  auto healthy = features::job_outcome("c", diagnose_dir(kLogs / "multirank/healthy_warnings"));
  CHECK_FALSE(healthy.failed);
  CHECK_FALSE(healthy.unrecognized);
}

TEST_CASE("triage: the summary counts, names suspect nodes from two jobs on, and repeated lines") {
  std::vector<features::JobOutcome> jobs = {
      outcome("j1", "xid-79", true, "gpu-17", true),     outcome("j2", "xid-79", true, "gpu-17", true),
      outcome("j3", "xid-79", true, "gpu-18", true),     outcome("j4", "cuda-oom", true, "gpu-17", false, "t.py:9"),
      outcome("j5", "cuda-oom", true, "", false, "t.py:9"), outcome("j6", "", false)};
  features::JobOutcome bad;
  bad.job = "j7";
  bad.error = "cannot open 'x': Permission denied";
  jobs.push_back(bad);
  features::JobOutcome empty;
  empty.job = "j8";
  empty.empty = true;
  jobs.push_back(empty);
  auto s = features::summarize_jobs(jobs);
  CHECK(s.jobs == 8);
  CHECK(s.failed == 5);
  CHECK(s.no_failure == 1);
  CHECK(s.unreadable == 1);
  CHECK(s.empty == 1);
  REQUIRE(s.by_entry.size() == 2);
  CHECK(s.by_entry[0].key == "xid-79");
  CHECK(s.by_entry[0].jobs.size() == 3);
  REQUIRE(s.nodes.size() == 1);  // gpu-18 failed once; gpu-17's OOM is the code's, not the node's
  CHECK(s.nodes[0].node == "gpu-17");
  CHECK(s.nodes[0].jobs == std::vector<std::string>{"j1", "j2"});
  REQUIRE(s.locations.size() == 1);
  CHECK(s.locations[0].key == "t.py:9");
  const std::string text = features::triage_text(s, false);
  CHECK(text.find("Triage of 8 jobs: 5 failed") == 0);
  CHECK(text.find("drain gpu-17: Xid 79 in 2 jobs") != std::string::npos);
  CHECK(text.find("j7: cannot open 'x': Permission denied") != std::string::npos);
  auto j = features::triage_summary_json(s);
  CHECK(j["suspect_nodes"][0]["advice"] == "drain gpu-17: Xid 79 in 2 jobs");
  CHECK(j["by_category"][0]["category"] == "Hardware");
}

TEST_CASE("triage CLI: job directories, suspect node, formats and exit codes") {
  TempDir t;
  const fs::path runs = t.path / "runs";
  copy_job(kLogs / "xid79-busid", runs / "job-1", "node-17");
  copy_job(kLogs / "xid79-busid", runs / "job-2", "node-17");
  copy_job(kLogs / "xid79-busid", runs / "job-3", "node-03");
  fs::copy(kLogs / "multirank/nan_raise", runs / "job-4", fs::copy_options::recursive);
  fs::copy(kLogs / "multirank/healthy_warnings", runs / "job-5", fs::copy_options::recursive);
  fs::create_directories(runs / "job-6");  // not started: no output yet

  auto r = run_denpex({"triage", "-j", "3", runs.string()}, "", {{"NO_COLOR", "1"}});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("Triage of 6 jobs: 4 failed, 1 without failure, 1 without output") == 0);
  CHECK(r.out.find("drain node-17: Xid 79 in 2 jobs") != std::string::npos);
  CHECK(r.out.find("node-03") == std::string::npos);

  r = run_denpex({"triage", "--format", "jsonl", runs.string()});
  CHECK(r.exit_code == 1);
  std::istringstream lines(r.out);
  std::vector<nlohmann::json> jobs;
  for (std::string line; std::getline(lines, line);) jobs.push_back(nlohmann::json::parse(line));
  REQUIRE(jobs.size() == 6);
  CHECK(jobs[0]["job"] == (runs / "job-1").string());
  CHECK(jobs[0]["diagnoses"][0]["entry"] == "xid-79-gpu-fallen-off-bus");
  CHECK(jobs[0]["schema_version"] == 1);
  CHECK(jobs[5]["empty"] == true);

  r = run_denpex({"triage", "--format", "json", runs.string()});
  auto all = nlohmann::json::parse(r.out);
  CHECK(all["summary"]["jobs"] == 6);
  CHECK(all["summary"]["suspect_nodes"][0]["node"] == "node-17");
  CHECK(all["jobs"].size() == 6);

  // One job per file, as Slurm writes them.
  const fs::path outs = t.path / "outs";
  fs::create_directories(outs);
  fs::copy(kLogs / "single-oom.log", outs / "slurm-7_0.out");
  fs::copy(kLogs / "healthy.log", outs / "slurm-7_1.out");
  fs::copy(kLogs / "healthy.log", outs / "notes.txt");
  r = run_denpex({"triage", "--job-glob", "slurm-*.out", "--format", "json", outs.string()});
  CHECK(r.exit_code == 1);
  all = nlohmann::json::parse(r.out);
  CHECK(all["summary"]["jobs"] == 2);
  CHECK(all["summary"]["failed"] == 1);
  CHECK(all["summary"]["by_entry"][0]["entry"] == "cuda-oom");

  r = run_denpex({"triage", outs.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--job-glob") != std::string::npos);
  r = run_denpex({"triage", (t.path / "nope").string()});
  CHECK(r.exit_code == 2);
  r = run_denpex({"triage", "--format", "xml", runs.string()});
  CHECK(r.exit_code == 2);
  r = run_denpex({"triage", "--job-glob", "slurm-7_1.out", outs.string()});
  CHECK(r.exit_code == 0);

  // The map step: jobs named on stdin, one per line; a path that is gone is an unreadable job.
  r = run_denpex({"triage", "--format", "jsonl", "--jobs-from", "-"}, (runs / "job-4").string() + "\n" +
                 (outs / "slurm-7_0.out").string() + "\n\n" + (t.path / "gone.out").string() + "\n");
  CHECK(r.exit_code == 2);
  std::istringstream mapped(r.out);
  std::vector<nlohmann::json> rows;
  for (std::string line; std::getline(mapped, line);) rows.push_back(nlohmann::json::parse(line));
  REQUIRE(rows.size() == 3);
  CHECK(rows[0]["diagnoses"][0]["entry"] == "nan-loss-check-raised");
  CHECK(rows[1]["diagnoses"][0]["entry"] == "cuda-oom");
  CHECK(rows[2]["error"].get<std::string>().find("gone.out") != std::string::npos);

  for (const char* c : {"triage", "evidence"}) {
    r = run_denpex({c, "--help"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("Usage: denpex") == 0);
  }
}

TEST_CASE("triage CLI: an evidence pack in a job directory is evidence, an epilog's diagnosis is not a log") {
  TempDir t;
  const fs::path runs = t.path / "runs";
  for (const char* name : {"job-a", "job-b"}) {
    // The ranks' logs, without the node's dmesg: only the pack the epilog took knows of the Xid.
    for (int r = 0; r < 4; ++r) {
      const std::string log = "rank" + std::to_string(r) + ".log";
      t.write("runs/" + std::string(name) + "/" + log, read_file(kLogs / "xid79-busid" / log));
    }
    features::EvidencePack p;
    p.host = "node-02";
    p.kernel_log_source = "journalctl -k";
    std::istringstream dmesg(read_file(kLogs / "xid79-busid/dmesg-node-02.log"));
    for (std::string line; std::getline(dmesg, line);) p.kernel_log.push_back(line);
    t.write("runs/" + std::string(name) + "/evidence/evidence.json", features::evidence_json(p).dump());
    t.write("runs/" + std::string(name) + "/evidence/evidence.md", features::evidence_markdown(p));
    t.write("runs/" + std::string(name) + "/slurm-9.out.denpex.json", "{\"diagnoses\": [\"CUDA out of memory\"]}");
  }
  auto r = run_denpex({"triage", "--format", "json", runs.string()});
  CHECK(r.exit_code == 1);
  auto all = nlohmann::json::parse(r.out);
  CHECK(all["summary"]["suspect_nodes"][0]["advice"] == "drain node-02: Xid 79 in 2 jobs");
  for (const auto& job : all["jobs"]) {
    CHECK(job["diagnoses"][0]["entry"] == "xid-79-gpu-fallen-off-bus");
    CHECK(job["diagnoses"][0]["initiating_rank"] == 2);
    for (const auto& in : job["inputs"]) CHECK(in["file"].get<std::string>().find("json") == std::string::npos);
  }
}
