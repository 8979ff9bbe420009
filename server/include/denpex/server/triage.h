#pragma once
// `denpex triage`: many jobs' diagnoses reduced to what a platform team acts on: how many jobs
// failed of what, which nodes keep showing up in hardware or NCCL failures (drain candidates),
// and which line of user code keeps failing. Pure functions over finished reports: the CLI reads
// the jobs, this decides what they add up to.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "denpex/logs/diagnosis.h"

namespace denpex::features {

// One job, reduced to the facts the summary groups by. Small on purpose: a triage of thousands
// of jobs keeps one of these per job, never the job's whole report.
struct JobOutcome {
  std::string job;
  std::string error;      // why the job could not be read; empty when it was
  bool empty = false;     // the job wrote no output file (not started, or output elsewhere)
  bool failed = false;    // its most likely diagnosis is fatal or an error
  bool unrecognized = false;  // a Python exception ended it, but no entry explains it
  std::string entry, title, category;  // the most likely diagnosis; empty when none matched
  std::string node;       // the node the failure started on, when the logs say
  bool node_fault = false;  // hardware or NCCL: a reason to look at the node, not the code
  std::string fault;      // short label for the node report: "Xid 79", else the entry id
  std::string location;   // "file:line" of the deepest user-code frame of the failure
};

// What the report of one job says, for the summary. `job` names it in every list.
JobOutcome job_outcome(std::string job, const logs::Report& report);

// A group of jobs sharing a key (an entry id, a category, a source line), largest first.
struct JobGroup {
  std::string key;
  std::string label;  // the entry's title, for entries; empty otherwise
  std::vector<std::string> jobs;
};

// A node named in hardware or NCCL failures of two jobs or more.
struct SuspectNode {
  std::string node;
  std::vector<std::string> jobs;
  std::vector<std::pair<std::string, size_t>> faults;  // fault label, jobs; most frequent first
};

struct TriageSummary {
  size_t jobs = 0;
  size_t failed = 0;        // diagnosed fatal or error
  size_t unrecognized = 0;  // ended by an exception no entry explains
  size_t no_failure = 0;    // nothing found, or warnings only
  size_t empty = 0;         // no output to read
  size_t unreadable = 0;
  std::vector<JobGroup> by_entry;     // every diagnosed job (warnings too), by its primary entry
  std::vector<JobGroup> by_category;
  std::vector<SuspectNode> nodes;     // nodes in hardware/NCCL failures of >= min_node_jobs jobs
  std::vector<JobGroup> locations;    // user-code lines failing in >= 2 jobs
  std::vector<std::pair<std::string, std::string>> errors;  // job, why it could not be read
};

constexpr size_t kMinNodeJobs = 2;

TriageSummary summarize_jobs(const std::vector<JobOutcome>& jobs);

nlohmann::json triage_summary_json(const TriageSummary& summary);
// `color`: ANSI styling; `list_jobs`: how many job names to show per group before "and N more".
std::string triage_text(const TriageSummary& summary, bool color, size_t list_jobs = 8);

}  // namespace denpex::features
