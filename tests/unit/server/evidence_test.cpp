#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "denpex/server/evidence.h"
#include "process.h"
#include "snapshot.h"
#include "temp_dir.h"

using namespace denpex;
using denpex::testing::read_file;
using denpex::testing::run_denpex;
using denpex::testing::TempDir;
namespace fs = std::filesystem;

namespace {

const fs::path kXid = fs::path(DENPEX_SOURCE_DIR) / "tests/fixtures/logs/xid79-busid";

// A pack as `denpex evidence` writes it on node-02, holding the kernel's real Xid 79 lines as the
// journal prints them, or as `dmesg -T` does.
void write_pack(const fs::path& dir, uint64_t shm_size, bool dmesg = false) {
  features::EvidencePack p;
  p.host = "node-02";
  p.created = "2026-05-01T12:40:00Z";
  p.probes.push_back({"nvidia-smi", "nvidia-smi -q", "missing", "nvidia-smi is not installed", ""});
  p.shm_size = shm_size;
  p.shm_free = shm_size / 2;
  p.kernel_log_source = dmesg ? "dmesg -T" : "journalctl -k";
  std::istringstream journal(read_file(kXid / "dmesg-node-02.log"));
  for (std::string line; std::getline(journal, line);) {
    // "May  1 12:34:56 node-02 kernel: [ 4254.197860] text" -> "[Fri May  1 12:34:56 2026] text"
    if (dmesg) line = "[Fri " + line.substr(0, 15) + " 2026] " + line.substr(line.find("] ") + 2);
    p.kernel_log.push_back(line);
  }
  fs::create_directories(dir);
  std::ofstream(dir / "evidence.json") << features::evidence_json(p).dump(2);
}

}  // namespace

TEST_CASE("evidence: secrets are redacted by name and by shape, the rest is kept") {
  using features::redact_env_value;
  CHECK(redact_env_value("HF_TOKEN", "abc") == "<redacted>");
  CHECK(redact_env_value("WANDB_API_KEY", "0123") == "<redacted>");
  CHECK(redact_env_value("NCCL_IB_PASSWORD", "x") == "<redacted>");
  CHECK(redact_env_value("AWS_SECRET_ACCESS_KEY", "x") == "<redacted>");
  CHECK(redact_env_value("SLURM_AUTH_INFO", "x") == "<redacted>");
  CHECK(redact_env_value("TORCH_EXTRA", "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789") == "<redacted>");
  CHECK(redact_env_value("NCCL_X", "ghp_0123456789abcdefABCDEF0123456789abcd") == "<redacted>");
  CHECK(redact_env_value("CUDA_X", "--key=sk-proj-aB3dE5gH7jK9mN1pQ3sT5vX7z") == "--key=<redacted>");
  CHECK(redact_env_value("NCCL_X", "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdo") == "<redacted>");
  // Ordinary values stay: paths, UUIDs, numbers, interface names, words.
  CHECK(redact_env_value("NCCL_SOCKET_IFNAME", "eth0,ib0") == "eth0,ib0");
  CHECK(redact_env_value("CUDA_VISIBLE_DEVICES", "GPU-f1906b9b-557a-e961-045c-9fe4be3ce012") ==
        "GPU-f1906b9b-557a-e961-045c-9fe4be3ce012");
  CHECK(redact_env_value("LD_LIBRARY_PATH", "/usr/local/cuda-12.1/lib64:/opt/nccl/lib") ==
        "/usr/local/cuda-12.1/lib64:/opt/nccl/lib");
  CHECK(redact_env_value("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True") == "expandable_segments:True");
  CHECK(redact_env_value("SLURM_JOB_NODELIST", "gpu-node-[01-16]") == "gpu-node-[01-16]");
  CHECK(features::redact_text("login with hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ012 now") == "login with <redacted> now");
  CHECK(features::redact_text("task-specific sk-short") == "task-specific sk-short");
}

TEST_CASE("evidence: which environment variables are packed") {
  for (const char* name : {"NCCL_DEBUG", "PYTORCH_CUDA_ALLOC_CONF", "CUDA_VISIBLE_DEVICES", "TORCH_NCCL_BLOCKING_WAIT",
                           "SLURM_JOB_ID", "MASTER_ADDR", "WORLD_SIZE", "RANK", "LOCAL_RANK"})
    CHECK(features::evidence_env_name(name));
  for (const char* name : {"HOME", "PATH", "AWS_SECRET_ACCESS_KEY", "RANKING", "USER"}) CHECK_FALSE(features::evidence_env_name(name));
}

TEST_CASE("evidence: a pack reads back as written; what is not a pack is refused") {
  features::EvidencePack p;
  p.host = "gpu-7";
  p.created = "2026-01-01T00:00:00Z";
  p.probes.push_back({"ulimit", "/bin/sh -c ulimit -a", "ok", "", "open files 1024\n"});
  p.environment = {{"NCCL_DEBUG", "INFO"}};
  p.shm_size = 64ull << 20;
  p.mem_total = 1ull << 40;
  p.kernel_log_source = "dmesg";
  p.kernel_log = {"[ 1.0] NVRM: loading"};
  std::string error;
  auto back = features::parse_evidence(features::evidence_json(p).dump(), error);
  REQUIRE(back);
  CHECK(back->host == "gpu-7");
  CHECK(back->probes.size() == 1);
  CHECK(back->probes[0].output == "open files 1024\n");
  CHECK(back->environment == p.environment);
  CHECK(back->shm_size == p.shm_size);
  CHECK_FALSE(back->shm_free);
  CHECK(back->mem_total == p.mem_total);
  CHECK(back->kernel_log == p.kernel_log);
  CHECK(features::evidence_markdown(p).find("small: DataLoader workers") != std::string::npos);

  CHECK_FALSE(features::parse_evidence("not json", error));
  CHECK_FALSE(features::parse_evidence("[1,2]", error));
  CHECK_FALSE(features::parse_evidence("{\"host\": \"x\"}", error));
  CHECK(error.find("schema_version") != std::string::npos);
  CHECK_FALSE(features::parse_evidence("{\"schema_version\": 99}", error));
  CHECK(error.find("newer denpex") != std::string::npos);
  // Wrong types are skipped, not fatal.
  auto odd = features::parse_evidence(R"({"schema_version":1,"probes":[3,{"name":5}],"shm":{"size_bytes":"big"},
                                          "kernel_log":{"lines":[1,"x"]}})",
                                      error);
  REQUIRE(odd);
  CHECK(odd->probes.size() == 1);
  CHECK_FALSE(odd->shm_size);
  CHECK(odd->kernel_log == std::vector<std::string>{"x"});
}

TEST_CASE("evidence: dmesg -T lines are read in the journal's form, naming their host") {
  features::EvidencePack p;
  p.host = "gpu7";
  p.kernel_log_source = "dmesg -T";
  p.kernel_log = {"[Tue Dec  1 20:06:51 2026] NVRM: Xid (PCI:0000:5d:00): 79, pid=1, GPU has fallen off the bus.",
                  "not stamped", "[Tue Dec  1 20:06:51 2026]"};
  auto lines = features::kernel_log_lines(p);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "Dec  1 20:06:51 gpu7 kernel: NVRM: Xid (PCI:0000:5d:00): 79, pid=1, GPU has fallen off the bus.");
  CHECK(lines[1] == "not stamped");
  CHECK(lines[2] == p.kernel_log[2]);
  p.kernel_log_source = "journalctl -k";
  CHECK(features::kernel_log_lines(p) == p.kernel_log);
}

TEST_CASE("evidence CLI: writes the pack here, tools missing here reported as missing") {
  TempDir t;
  const fs::path out = t.path / "pack";
  auto r = run_denpex({"evidence", "--out", out.string(), "--timeout", "20"}, "",
                      {{"PATH", "/usr/bin:/bin"}, {"HF_TOKEN", "hf_secretsecretsecretsecret1234"},
                       {"NCCL_DEBUG", "INFO"}});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("wrote") != std::string::npos);
  const std::string json_text = read_file(out / "evidence.json");
  CHECK(json_text.find("hf_secret") == std::string::npos);
  std::string error;
  auto pack = features::parse_evidence(json_text, error);
  REQUIRE(pack);
  CHECK(pack->shm_size);
  CHECK(pack->mem_available);
  bool smi = false;
  for (const auto& p : pack->probes)
    if (p.name == "nvidia-smi") {
      smi = true;
      if (!fs::exists("/usr/bin/nvidia-smi")) CHECK(p.status == "missing");
    }
  CHECK(smi);
  CHECK(std::find(pack->environment.begin(), pack->environment.end(),
                  std::pair<std::string, std::string>{"NCCL_DEBUG", "INFO"}) != pack->environment.end());
  CHECK(read_file(out / "evidence.md").rfind("# Evidence pack", 0) == 0);
  // Run again: its own files are replaced, nothing else is touched.
  std::ofstream(out / "notes.txt") << "mine";
  r = run_denpex({"evidence", "--out", out.string(), "--timeout", "20"}, "", {{"PATH", "/usr/bin:/bin"}});
  CHECK(r.exit_code == 0);
  CHECK(read_file(out / "notes.txt") == "mine");
  // An evidence.json that is not ours is left alone, and said so.
  const fs::path other = t.path / "other";
  fs::create_directories(other);
  std::ofstream(other / "evidence.json") << "{\"mine\": true}";
  r = run_denpex({"evidence", "--out", other.string()}, "", {{"PATH", "/usr/bin:/bin"}});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("not an evidence pack") != std::string::npos);
  CHECK(read_file(other / "evidence.json") == "{\"mine\": true}");
}

TEST_CASE("diagnose --evidence: the pack's Xid joins the ranks' NCCL errors; a small /dev/shm is evidence") {
  TempDir t;
  write_pack(t.path / "pack", 64ull << 20);
  // The ranks' logs without the node's dmesg: only the pack knows about the Xid.
  fs::create_directories(t.path / "logs");
  for (int r = 0; r < 4; ++r) {
    const std::string name = "rank" + std::to_string(r) + ".log";
    fs::copy(kXid / name, t.path / "logs" / name);
  }
  auto without = run_denpex({"diagnose", "--format", "json", (t.path / "logs").string()});
  auto plain = nlohmann::json::parse(without.out);
  CHECK(plain["diagnoses"][0]["entry"] != "xid-79-gpu-fallen-off-bus");
  auto r = run_denpex({"diagnose", "--format", "json", "--evidence", (t.path / "pack").string(), (t.path / "logs").string()});
  CHECK(r.exit_code == 1);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["diagnoses"][0]["entry"] == "xid-79-gpu-fallen-off-bus");
  CHECK(j["diagnoses"][0]["initiating_rank"] == 2);
  CHECK(j["diagnoses"][0]["initiating_node"] == "node-02");

  // A DataLoader bus error with /dev/shm at 64 MiB.
  t.write("bus/train.log",
          "RuntimeError: DataLoader worker (pid 4242) is killed by signal: Bus error. It is possible that dataloader's "
          "workers are out of shared memory. Please try to raise your shared memory limit.\n");
  r = run_denpex({"diagnose", "--format", "json", "--evidence", (t.path / "pack").string(), (t.path / "bus").string()});
  j = nlohmann::json::parse(r.out);
  CHECK(j["diagnoses"][0]["entry"] == "dataloader-worker-bus-error-shm");
  CHECK(j["diagnoses"][0]["evidence"]["findings"].dump().find("/dev/shm on node-02 at 64 MiB") != std::string::npos);
  write_pack(t.path / "big", 32ull << 30);
  r = run_denpex({"diagnose", "--format", "json", "--evidence", (t.path / "big").string(), (t.path / "bus").string()});
  CHECK(nlohmann::json::parse(r.out)["diagnoses"][0]["evidence"]["findings"].dump().find("/dev/shm") == std::string::npos);

  // Without a journal the pack holds `dmesg -T` lines: read as the node's, with their clock.
  write_pack(t.path / "dmesg", 64ull << 20, true);
  r = run_denpex({"diagnose", "--format", "json", "--evidence", (t.path / "dmesg").string(), (t.path / "logs").string()});
  j = nlohmann::json::parse(r.out);
  CHECK(j["diagnoses"][0]["entry"] == "xid-79-gpu-fallen-off-bus");
  CHECK(j["diagnoses"][0]["initiating_rank"] == 2);

  r = run_denpex({"diagnose", "--evidence", (t.path / "nope").string(), (t.path / "bus").string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("denpex evidence --out") != std::string::npos);
}
