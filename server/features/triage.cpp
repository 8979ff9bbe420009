#include "denpex/server/triage.h"

#include <algorithm>
#include <map>
#include <set>

namespace denpex::features {
namespace {

// Frames from the interpreter and installed packages say where the error surfaced, not which
// line of the user's code to look at.
bool library_frame(const std::string& file) {
  if (file.empty() || file.front() == '<') return true;
  for (const char* part : {"/site-packages/", "/dist-packages/", "/lib/python3", "/lib64/python3"})
    if (file.find(part) != std::string::npos) return true;
  return false;
}

std::string deepest_user_frame(const std::vector<logs::StackFrame>& stack) {
  for (auto it = stack.rbegin(); it != stack.rend(); ++it)
    if (!library_frame(it->file) && it->line > 0) return it->file + ":" + std::to_string(it->line);
  return "";
}

// A node is suspect for what the hardware or its interconnect did, not for what the code did.
bool node_fault(const core::Entry& e) {
  return e.category == "Hardware" || e.id.find("nccl") != std::string::npos || e.has_tag("nccl") ||
         e.has_tag("xid") || e.has_tag("nvlink");
}

// Groups sorted largest first, then by key, so that the output is the same on every run.
std::vector<JobGroup> sorted_groups(std::map<std::string, JobGroup> groups, size_t min_jobs) {
  std::vector<JobGroup> out;
  for (auto& [key, g] : groups)
    if (g.jobs.size() >= min_jobs) out.push_back(std::move(g));
  std::stable_sort(out.begin(), out.end(),
                   [](const JobGroup& a, const JobGroup& b) { return a.jobs.size() > b.jobs.size(); });
  return out;
}

}  // namespace

JobOutcome job_outcome(std::string job, const logs::Report& report) {
  JobOutcome o;
  o.job = std::move(job);
  if (report.diagnoses.empty()) {
    o.unrecognized = report.final_exception.has_value();
    if (report.final_exception) o.location = deepest_user_frame(report.final_exception->event.stack);
    return o;
  }
  const logs::Diagnosis& d = report.diagnoses.front();
  const core::Entry& e = *d.entry;
  o.entry = e.id;
  o.title = e.title;
  o.category = e.category;
  o.failed = d.failed;
  o.node = d.initiating_node;
  if (o.node.empty() && report.root_cause) o.node = report.root_cause->cause.host;
  if (o.node.empty()) {
    // One node behind every input that names one (a single-node job's files) is the job's node.
    std::set<std::string> nodes;
    for (const auto& in : report.inputs)
      if (!in.node.empty()) nodes.insert(in.node);
    if (nodes.size() == 1) o.node = *nodes.begin();
  }
  o.node_fault = o.failed && node_fault(e);
  auto xid = d.captures.find("xid");
  o.fault = xid != d.captures.end() && !xid->second.empty() ? "Xid " + xid->second : e.id;
  o.location = deepest_user_frame(d.traceback);
  if (o.location.empty() && report.final_exception && !node_fault(e))
    o.location = deepest_user_frame(report.final_exception->event.stack);
  return o;
}

TriageSummary summarize_jobs(const std::vector<JobOutcome>& jobs) {
  TriageSummary s;
  s.jobs = jobs.size();
  std::map<std::string, JobGroup> entries, categories, locations;
  std::map<std::string, SuspectNode> nodes;
  std::map<std::string, std::map<std::string, size_t>> node_faults;
  for (const auto& j : jobs) {
    if (!j.error.empty()) {
      ++s.unreadable;
      s.errors.emplace_back(j.job, j.error);
      continue;
    }
    if (j.empty) {
      ++s.empty;
      continue;
    }
    if (j.failed) ++s.failed;
    else if (j.unrecognized) ++s.unrecognized;
    else ++s.no_failure;
    if (!j.entry.empty()) {
      JobGroup& g = entries[j.entry];
      g.key = j.entry;
      g.label = j.title;
      g.jobs.push_back(j.job);
      JobGroup& c = categories[j.category];
      c.key = j.category;
      c.jobs.push_back(j.job);
    }
    if ((j.failed || j.unrecognized) && !j.location.empty()) {
      JobGroup& g = locations[j.location];
      g.key = j.location;
      g.jobs.push_back(j.job);
    }
    if (j.node_fault && !j.node.empty()) {
      SuspectNode& n = nodes[j.node];
      n.node = j.node;
      n.jobs.push_back(j.job);
      ++node_faults[j.node][j.fault];
    }
  }
  s.by_entry = sorted_groups(std::move(entries), 1);
  s.by_category = sorted_groups(std::move(categories), 1);
  s.locations = sorted_groups(std::move(locations), 2);
  for (auto& [name, n] : nodes) {
    if (n.jobs.size() < kMinNodeJobs) continue;
    for (const auto& [fault, count] : node_faults[name]) n.faults.emplace_back(fault, count);
    std::stable_sort(n.faults.begin(), n.faults.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    s.nodes.push_back(std::move(n));
  }
  std::stable_sort(s.nodes.begin(), s.nodes.end(),
                   [](const SuspectNode& a, const SuspectNode& b) { return a.jobs.size() > b.jobs.size(); });
  return s;
}

}  // namespace denpex::features
