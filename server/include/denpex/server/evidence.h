#pragma once
// The evidence pack (`denpex evidence`): what a machine looked like when a job failed, as data.
// Pure functions only: redaction, rendering the pack to JSON and Markdown, reading it back, and
// adding what it proves to a diagnosis. Running the probes is the CLI's business.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "denpex/logs/diagnosis.h"

namespace denpex::features {

constexpr int kEvidenceSchemaVersion = 1;

// One probe: a command's output or a file read. `status` says what happened, so a missing tool
// is reported as missing, never as an empty answer.
struct Probe {
  std::string name;     // "collect_env", "nvidia-smi", "kernel-log", "ulimit"
  std::string command;  // as run, for the reader to repeat it
  std::string status;   // "ok", "missing", "failed", "timed out", "unreadable", "skipped"
  std::string detail;   // why, when not ok
  std::string output;   // capped
};

struct EvidencePack {
  std::string host;
  std::string created;  // UTC, ISO 8601
  std::vector<Probe> probes;
  std::vector<std::pair<std::string, std::string>> environment;  // name, value (redacted)
  std::optional<uint64_t> shm_size, shm_free;                     // bytes of /dev/shm
  std::optional<uint64_t> mem_total, mem_available;               // bytes, /proc/meminfo
  std::string kernel_log_source;  // the probe the kernel lines came from
  std::vector<std::string> kernel_log;
};

// Environment variables worth packing: NCCL_*, PYTORCH_*, CUDA_*, TORCH_*, SLURM_* and the
// launcher's rendezvous variables.
bool evidence_env_name(std::string_view name);
// The value to write for `name`: "<redacted>" for names that hold secrets and for values that
// look like tokens; the value itself otherwise.
std::string redact_env_value(std::string_view name, std::string_view value);
// Anything token-shaped inside free text (command output) replaced by "<redacted>".
std::string redact_text(std::string_view text);

nlohmann::json evidence_json(const EvidencePack& pack);
std::string evidence_markdown(const EvidencePack& pack);
// Reads evidence.json's text back; nullopt with `error` set when it is not a pack.
std::optional<EvidencePack> parse_evidence(std::string_view json_text, std::string& error);

// The pack's kernel log as the diagnoser should read it: `dmesg -T` lines (`[Tue Dec  1 21:22:52
// 2026] text`) in the syslog form the journal writes (`Dec  1 21:22:52 HOST kernel: text`), so
// that each line names its host and its wall-clock time; other lines as they are.
std::vector<std::string> kernel_log_lines(const EvidencePack& pack);

// The pack's findings added to the report's diagnoses: a small /dev/shm supports a bus error or
// shared-memory diagnosis. Returns how many findings were added.
constexpr uint64_t kSmallShm = 1ull << 30;
size_t apply_evidence(const EvidencePack& pack, logs::Report& report);

}  // namespace denpex::features
