#include <cstdio>

#include "denpex/server/triage.h"

namespace denpex::features {
namespace {
using nlohmann::json;

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string job_list(const std::vector<std::string>& jobs, size_t shown) {
  std::string out;
  for (size_t i = 0; i < jobs.size() && i < shown; ++i) out += (i ? ", " : "") + jobs[i];
  if (jobs.size() > shown) out += ", and " + std::to_string(jobs.size() - shown) + " more";
  return out;
}

json groups_json(const std::vector<JobGroup>& groups, const char* key_name) {
  json a = json::array();
  for (const auto& g : groups) {
    json j = {{key_name, g.key}, {"count", g.jobs.size()}, {"jobs", g.jobs}};
    if (!g.label.empty()) j["title"] = g.label;
    a.push_back(std::move(j));
  }
  return a;
}

std::string faults_phrase(const SuspectNode& n) {
  std::string out;
  for (size_t i = 0; i < n.faults.size(); ++i)
    out += (i ? ", " : "") + n.faults[i].first + " in " + plural(n.faults[i].second, "job", "jobs");
  return out;
}

}  // namespace

json triage_summary_json(const TriageSummary& s) {
  json j;
  j["jobs"] = s.jobs;
  j["failed"] = s.failed;
  j["unrecognized"] = s.unrecognized;
  j["no_failure"] = s.no_failure;
  j["empty"] = s.empty;
  j["unreadable"] = s.unreadable;
  j["by_entry"] = groups_json(s.by_entry, "entry");
  j["by_category"] = groups_json(s.by_category, "category");
  json nodes = json::array();
  for (const auto& n : s.nodes) {
    json faults = json::array();
    for (const auto& [fault, count] : n.faults) faults.push_back({{"fault", fault}, {"count", count}});
    nodes.push_back({{"node", n.node}, {"count", n.jobs.size()}, {"jobs", n.jobs}, {"faults", faults},
                     {"advice", "drain " + n.node + ": " + faults_phrase(n)}});
  }
  j["suspect_nodes"] = nodes;
  j["locations"] = groups_json(s.locations, "location");
  json errors = json::array();
  for (const auto& [job, why] : s.errors) errors.push_back({{"job", job}, {"error", why}});
  j["errors"] = errors;
  return j;
}

std::string triage_text(const TriageSummary& s, bool color, size_t list_jobs) {
  auto paint = [color](const char* code, const std::string& text) {
    return color ? "\x1b[" + std::string(code) + "m" + text + "\x1b[0m" : text;
  };
  std::string out = paint("1", "Triage of " + plural(s.jobs, "job", "jobs")) + ": " +
                    paint(s.failed ? "31" : "32", std::to_string(s.failed) + " failed");
  if (s.unrecognized) out += ", " + std::to_string(s.unrecognized) + " ended by an exception no entry explains";
  out += ", " + std::to_string(s.no_failure) + " without failure";
  if (s.empty) out += ", " + std::to_string(s.empty) + " without output";
  if (s.unreadable) out += ", " + paint("31", std::to_string(s.unreadable) + " unreadable");
  out += "\n";
  char line[256];
  if (!s.nodes.empty()) {
    out += "\n" + paint("1", "Suspect nodes") + " (hardware or NCCL failures in " + std::to_string(kMinNodeJobs) +
           " jobs or more):\n";
    for (const auto& n : s.nodes)
      out += "  " + paint("31", "drain " + n.node) + ": " + faults_phrase(n) + "\n    jobs: " + job_list(n.jobs, list_jobs) + "\n";
  }
  if (!s.by_entry.empty()) {
    out += "\n" + paint("1", "By entry") + ":\n";
    for (const auto& g : s.by_entry) {
      std::snprintf(line, sizeof line, "  %6zu  %-40s ", g.jobs.size(), g.key.c_str());
      out += line + g.label + "\n";
    }
    out += "\n" + paint("1", "By category") + ":\n";
    for (const auto& g : s.by_category) {
      std::snprintf(line, sizeof line, "  %6zu  ", g.jobs.size());
      out += line + g.key + "\n";
    }
  }
  if (!s.locations.empty()) {
    out += "\n" + paint("1", "The same line of code failing in several jobs") + ":\n";
    for (const auto& g : s.locations) {
      std::snprintf(line, sizeof line, "  %6zu  ", g.jobs.size());
      out += line + g.key + "\n    jobs: " + job_list(g.jobs, list_jobs) + "\n";
    }
  }
  if (!s.errors.empty()) {
    out += "\n" + paint("1", "Jobs that could not be read") + ":\n";
    for (const auto& [job, why] : s.errors) out += "  " + job + ": " + why + "\n";
  }
  if (s.failed || s.unrecognized)
    out += "\nOne job in full: `denpex diagnose JOB_DIR`; every job as JSON: `denpex triage --format jsonl`.\n";
  return out;
}

}  // namespace denpex::features
