#include <algorithm>
#include <cstdio>

#include "denpex/server/evidence.h"

namespace denpex::features {
namespace {
using nlohmann::json;

json bytes_or_null(const std::optional<uint64_t>& v) { return v ? json(*v) : json(nullptr); }

std::optional<uint64_t> bytes_of(const json& j, const char* key) {
  if (!j.is_object()) return std::nullopt;
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_unsigned()) return std::nullopt;
  return it->get<uint64_t>();
}

std::string string_of(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string mib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / 1048576.0);
  return buf;
}

// A Markdown fence that the text cannot close.
std::string fence_for(const std::string& text) {
  std::string fence = "~~~";
  while (text.find(fence) != std::string::npos) fence += '~';
  return fence;
}

}  // namespace

json evidence_json(const EvidencePack& p) {
  json j;
  j["schema_version"] = kEvidenceSchemaVersion;
  j["tool"] = "denpex evidence";
  j["host"] = p.host;
  j["created"] = p.created;
  json probes = json::array();
  for (const auto& pr : p.probes)
    probes.push_back({{"name", pr.name}, {"command", pr.command}, {"status", pr.status}, {"detail", pr.detail},
                      {"output", pr.output}});
  j["probes"] = probes;
  json env = json::object();
  for (const auto& [k, v] : p.environment) env[k] = v;
  j["environment"] = env;
  j["shm"] = {{"size_bytes", bytes_or_null(p.shm_size)}, {"free_bytes", bytes_or_null(p.shm_free)}};
  j["memory"] = {{"total_bytes", bytes_or_null(p.mem_total)}, {"available_bytes", bytes_or_null(p.mem_available)}};
  j["kernel_log"] = {{"source", p.kernel_log_source}, {"lines", p.kernel_log}};
  return j;
}

std::string evidence_markdown(const EvidencePack& p) {
  std::string out = "# Evidence pack: " + (p.host.empty() ? std::string("unknown host") : p.host) + "\n\n";
  out += "Collected by `denpex evidence` at " + p.created + " (UTC). Secrets in environment values are redacted.\n";
  out += "`denpex diagnose --evidence DIR LOGS...` uses this pack with the job's logs.\n\n";
  out += "## Summary\n\n| Probe | Status |\n|---|---|\n";
  for (const auto& pr : p.probes)
    out += "| " + pr.name + " | " + pr.status + (pr.detail.empty() ? "" : ": " + pr.detail) + " |\n";
  out += "\n## Memory\n\n";
  out += "- /dev/shm: " + (p.shm_size ? mib(*p.shm_size) + " total, " + mib(p.shm_free.value_or(0)) + " free" : "not available");
  if (p.shm_size && *p.shm_size < kSmallShm) out += " (small: DataLoader workers and NCCL's SHM transport may run out)";
  out += "\n- host memory: " +
         (p.mem_total ? mib(*p.mem_total) + " total, " + mib(p.mem_available.value_or(0)) + " available" : "not available") +
         "\n";
  out += "\n## Environment\n\n";
  if (p.environment.empty()) out += "No NCCL_*, PYTORCH_*, CUDA_*, TORCH_*, SLURM_* or launcher variables are set.\n";
  for (const auto& [k, v] : p.environment) out += "- `" + k + "` = `" + v + "`\n";
  if (!p.kernel_log.empty()) {
    std::string lines;
    for (const auto& l : p.kernel_log) lines += l + "\n";
    std::string fence = fence_for(lines);
    out += "\n## Kernel log (last " + std::to_string(p.kernel_log.size()) + " lines, from " + p.kernel_log_source +
           ")\n\n" + fence + "\n" + lines + fence + "\n";
  }
  for (const auto& pr : p.probes) {
    out += "\n## " + pr.name + "\n\n`" + pr.command + "`: " + pr.status + (pr.detail.empty() ? "" : " (" + pr.detail + ")") + "\n";
    if (pr.output.empty()) continue;
    std::string fence = fence_for(pr.output);
    out += "\n" + fence + "\n" + pr.output + (pr.output.back() == '\n' ? "" : "\n") + fence + "\n";
  }
  return out;
}

std::optional<EvidencePack> parse_evidence(std::string_view text, std::string& error) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    error = "not JSON; an evidence pack is written by `denpex evidence --out DIR`";
    return std::nullopt;
  }
  auto version = j.find("schema_version");
  if (version == j.end() || !version->is_number_integer()) {
    error = "no schema_version: not an evidence pack";
    return std::nullopt;
  }
  if (version->get<int>() > kEvidenceSchemaVersion) {
    error = "written by a newer denpex (schema " + std::to_string(version->get<int>()) + "); update denpex to read it";
    return std::nullopt;
  }
  EvidencePack p;
  p.host = string_of(j, "host");
  p.created = string_of(j, "created");
  if (auto it = j.find("probes"); it != j.end() && it->is_array())
    for (const auto& pr : *it)
      if (pr.is_object())
        p.probes.push_back({string_of(pr, "name"), string_of(pr, "command"), string_of(pr, "status"),
                            string_of(pr, "detail"), string_of(pr, "output")});
  if (auto it = j.find("environment"); it != j.end() && it->is_object())
    for (const auto& [k, v] : it->items())
      if (v.is_string()) p.environment.emplace_back(k, v.get<std::string>());
  if (auto it = j.find("shm"); it != j.end()) {
    p.shm_size = bytes_of(*it, "size_bytes");
    p.shm_free = bytes_of(*it, "free_bytes");
  }
  if (auto it = j.find("memory"); it != j.end()) {
    p.mem_total = bytes_of(*it, "total_bytes");
    p.mem_available = bytes_of(*it, "available_bytes");
  }
  if (auto it = j.find("kernel_log"); it != j.end() && it->is_object()) {
    p.kernel_log_source = string_of(*it, "source");
    if (auto lines = it->find("lines"); lines != it->end() && lines->is_array())
      for (const auto& l : *lines)
        if (l.is_string()) p.kernel_log.push_back(l.get<std::string>());
  }
  return p;
}

std::vector<std::string> kernel_log_lines(const EvidencePack& pack) {
  if (pack.kernel_log_source != "dmesg -T" || pack.host.empty()) return pack.kernel_log;
  std::vector<std::string> out;
  out.reserve(pack.kernel_log.size());
  for (const auto& line : pack.kernel_log) {
    // "[Tue Dec  1 21:22:52 2026] " : weekday, month, day, time, year.
    std::string_view l = line;
    const bool stamped = l.size() > 27 && l[0] == '[' && l[4] == ' ' && l[8] == ' ' && l[11] == ' ' && l[14] == ':' &&
                         l[17] == ':' && l[20] == ' ' && l[25] == ']' && l[26] == ' ';
    if (!stamped) {
      out.push_back(line);
      continue;
    }
    out.push_back(std::string(l.substr(5, 3)) + " " + std::string(l.substr(9, 2)) + " " + std::string(l.substr(12, 8)) +
                  " " + pack.host + " kernel: " + std::string(l.substr(27)));
  }
  return out;
}

size_t apply_evidence(const EvidencePack& pack, logs::Report& report) {
  if (!pack.shm_size) return 0;
  const uint64_t size = *pack.shm_size, free = pack.shm_free.value_or(size);
  const bool small = size < kSmallShm, full = size > 0 && free < size / 20;
  if (!small && !full) return 0;
  size_t added = 0;
  for (auto& d : report.diagnoses) {
    const core::Entry& e = *d.entry;
    if (!e.has_tag("shm") && !e.has_tag("bus-error")) continue;
    std::string where = pack.host.empty() ? "" : " on " + pack.host;
    d.findings.push_back("The evidence pack shows /dev/shm" + where + " at " + mib(size) + " with " + mib(free) +
                         " free" + (small ? ", under 1 GiB" : ", nearly full") +
                         ": shared memory this small supports this diagnosis.");
    ++added;
  }
  return added;
}

}  // namespace denpex::features
