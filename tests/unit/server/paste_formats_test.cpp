// Real failure output as people paste it (tests/fixtures/logs/pastes/README.md): the entry and
// the rank or node that started it.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "process.h"
#include "snapshot.h"

using denpex::testing::run_denpex;
using denpex::testing::source_path;
using nlohmann::json;

namespace {

struct Case {
  const char* file;
  const char* entry;
  int rank;          // -1: no rank is named
  const char* node;  // "" : no node is named
};

const Case kCases[] = {
    {"pdsh-cut-traceback.log", "unrecognized-exception", 2, "worker-1"},
    {"lone-exception-ranks.log", "unrecognized-exception", 2, ""},
    {"spawn-cut-bare-exception.log", "unrecognized-exception", 1, ""},
    {"mpirun-horovod.log", "horovod-shut-down", 3, ""},
    {"torch19-child-failed.log", "torchrun-worker-failed", 1, ""},
    {"sigterm-gap.log", "torchrun-worker-sigkill", 2, ""},
    {"nccl-invalid-rank-pods.log", "nccl-invalid-rank", -1, "bert-train-worker-1"},
    {"store-unique-id.log", "nccl-unique-id-store-get-failed", 0, ""},
    {"table-loose-columns.log", "torchrun-worker-sigkill", 3, ""},
    {"spawn-exit-code.log", "mp-spawn-process-exited", 1, ""},
    {"spawn-quoted-cut.log", "mp-spawn-process-exited", 1, ""},
    {"srun-task-exited.log", "unrecognized-exception", 3, "nid004127"},
    {"timeouts-missing-rank.log", "nccl-watchdog-timeout", 0, ""},
    {"horovodrun-exit.log", "mpirun-process-failed", 1, ""},
    {"launcher-exit-reports-abort.log", "gloo-connection-closed-by-peer", 2, ""},
    {"launcher-exit-reports-code.log", "gloo-connection-closed-by-peer", 1, ""},
    {"operator-pod-failed.log", "k8s-pytorchjob-pod-failed", -1, "bert-train-worker-1"},
    {"launch-calledprocesserror.log", "torchrun-worker-failed", 5, ""},
    {"watchdog-names-plain-traceback.log", "cuda-illegal-memory-access", 2, ""},
    {"agent-rich-console.log", "torchrun-worker-sigkill", 2, ""},
    {"agent-new-wording.log", "torchrun-worker-sigkill", 2, ""},
    {"wrapped-100-two-failures.log", "unrecognized-exception", 2, ""},
    {"wrapped-80-lone-exception.log", "unrecognized-exception", 2, ""},
    {"flattened-sigterm-gap.log", "torchrun-worker-sigkill", 2, ""},
    {"agent-second-node.log", "torchrun-worker-sigkill", 5, ""},
    {"default-rank-prefix.log", "unrecognized-exception", 8, ""},
    {"desync-report.log", "nccl-desync-report-lagging-rank", 2, ""},
    {"sigterm-gap-alone.log", "torchrun-closing-signal-sigterm", 2, ""},
    {"spawn-marker-cut.log", "unrecognized-exception", 3, ""},
    {"collector-stamped-spawn.log", "unrecognized-exception", 3, ""},
    {"store-wait-missing-rank.log", "store-socket-wait-timeout", 0, ""},
    {"logger-error-record-two-failures.log", "unrecognized-exception", 2, ""},
    {"ddp-error-names-rank.log", "ddp-unused-parameters", 0, ""},
    {"logger-rank-dataloader-killed.log", "dataloader-worker-killed", 0, ""},
    {"ddp-shape-reference-apart.log", "ddp-param-shape-mismatch", 0, ""},
    {"oom-names-gpu-only.log", "cuda-oom", 2, ""},
    {"oom-names-gpu-zero.log", "cuda-oom", -1, ""},
    {"oom-gpu-nccl-init.log", "cuda-oom", 6, "gpu-b"},
    {"unranked-stream-unknown-first.log", "unrecognized-exception", 0, ""},
    {"tail-sections-per-rank.log", "unrecognized-exception", 3, ""},
    {"monitored-barrier-names-chain.log", "monitored-barrier-rank-failed", 3, ""},
    {"store-barrier-timeout-own-rank.log", "store-clients-joined-timeout", 3, ""},
    {"two-node-torchrun", "linalg-decomposition-failed", -1, "node1"},
    {"sbatch-buffered-blocks.log", "unrecognized-exception", 1, "gpu-a01"},
    {"per-host-files-slow-read", "gloo-collective-timeout", 3, ""},
    {"table-sigkill-entry.log", "torchrun-worker-sigkill", 1, ""},
    {"reversed-viewer-table.log", "torchrun-worker-sigkill", 1, ""},
    {"table-cut-before-root.log", "gloo-connection-closed-by-peer", 2, ""},
    {"ray-train-workers.log", "unrecognized-exception", 3, "RayTrainWorker pid=3382, ip=10.0.12.174"},
    {"srun-segfault-teardown.log", "slurm-task-exited-nonzero", 2, "gpu-b07"},
    {"ts-stamped-tee.log", "embedding-index-out-of-range-cpu", 2, ""},
    {"torchrun-abort-root-cause-peer.log", "torchrun-worker-crash-signal", 1, ""},
    {"mpirun-output-filename-stall", "gloo-collective-timeout", 2, ""},
    {"empty-eval-split.log", "unrecognized-exception", 1, ""},
    {"glued-prints-empty-split.log", "unrecognized-exception", 1, ""},
    {"parallel-tag-two-agents-stall.log", "gloo-collective-timeout", 3, ""},
    {"monitored-barrier-interleaved.log", "monitored-barrier-rank-failed", 2, ""},
    {"parallel-tag-rank-args-stall.log", "gloo-collective-timeout", 2, ""},
};

}  // namespace

TEST_CASE("diagnose: pasted logs name the failure and who started it") {
  for (const Case& c : kCases) {
    CAPTURE(c.file);
    auto r = run_denpex({"diagnose", "--format", "json", source_path(std::string("tests/fixtures/logs/pastes/") + c.file)});
    CHECK(r.exit_code == 1);
    json j = json::parse(r.out);
    REQUIRE(!j["diagnoses"].empty());
    const json& d = j["diagnoses"][0];
    CHECK(d["entry"] == c.entry);
    if (c.rank >= 0) {
      CHECK(d["initiating_rank"] == c.rank);
    } else {
      CHECK(d["initiating_rank"].is_null());
    }
    if (*c.node) {
      CHECK(d["initiating_node"] == c.node);
    }
  }
}

TEST_CASE("diagnose: a paste that ends inside a traceback says so") {
  auto r = run_denpex({"diagnose", "--format", "json", source_path("tests/fixtures/logs/pastes/pdsh-cut-traceback.log")});
  json d = json::parse(r.out)["diagnoses"][0];
  // The finding names what is known (the last frame), not an invented exception.
  std::string first = d["evidence"]["findings"][0];
  CHECK(first.find("cut off before its exception line") != std::string::npos);
  CHECK(first.find("mr_rank.py") != std::string::npos);
  CHECK(json::parse(r.out)["final_exception"]["cut_off"] == true);
  // A single process's traceback with no peer in sight stays undiagnosed (shown, not guessed).
  auto single = run_denpex({"diagnose", "--format", "json", "-"},
                           "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n    main()\n");
  CHECK(single.exit_code == 0);
  CHECK(json::parse(single.out)["diagnoses"].empty());
}

TEST_CASE("diagnose: the launcher's named rank beats the quiet-rank guess") {
  auto r = run_denpex({"diagnose", "--format", "json", source_path("tests/fixtures/logs/pastes/mpirun-horovod.log")});
  json d = json::parse(r.out)["diagnoses"][0];
  bool said = false;
  for (const auto& f : d["evidence"]["findings"]) said = said || f.get<std::string>().find("launcher names rank 3") != std::string::npos;
  CHECK(said);
}

TEST_CASE("diagnose: named faulty ranks are followed, and the report says who named whom") {
  auto r = run_denpex(
      {"diagnose", "--format", "json", source_path("tests/fixtures/logs/pastes/monitored-barrier-names-chain.log")});
  json d = json::parse(r.out)["diagnoses"][0];
  CHECK(d["initiating_rank"] == 3);
  bool said = false;
  for (const auto& f : d["evidence"]["findings"]) {
    const std::string text = f.get<std::string>();
    said = said || (text.find("names rank 0 as the rank that did not answer") != std::string::npos &&
                    text.find("rank 0's own error names rank 3 in turn") != std::string::npos);
  }
  CHECK(said);
}

TEST_CASE("diagnose: a SIGKILL entry of torchrun's table names its rank unless the agent was stopping workers") {
  const std::string log = denpex::testing::read_file(source_path("tests/fixtures/logs/pastes/table-sigkill-entry.log"));
  auto alone = run_denpex({"diagnose", "--format", "json", "-"}, log);
  CHECK(json::parse(alone.out)["diagnoses"][0]["initiating_rank"] == 1);
  // The same run had the agent sent SIGTERM to a worker: a SIGKILL is then its escalation after
  // the grace period, and names no one.
  const std::string failed = "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1)";
  std::string stopping = log;
  stopping.insert(stopping.find(failed),
                  "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 32210 closing signal SIGTERM\n");
  auto r = run_denpex({"diagnose", "--format", "json", "-"}, stopping);
  json d = json::parse(r.out)["diagnoses"][0];
  CHECK(d["entry"] == "torchrun-worker-sigkill");
  CHECK(d["initiating_rank"] != 1);
}

TEST_CASE("diagnose: a torchrun table cut off before its root cause leaves that entry's number out") {
  const std::string log = denpex::testing::read_file(source_path("tests/fixtures/logs/pastes/table-cut-before-root.log"));
  // accelerate's test harness relays each line of the child's stderr after `stderr: `.
  std::string labelled;
  for (size_t at = 0; at < log.size();) {
    size_t end = log.find('\n', at);
    if (end == std::string::npos) end = log.size();
    labelled += "stderr: " + log.substr(at, end - at) + "\n";
    at = end + 1;
  }
  json d = json::parse(run_denpex({"diagnose", "--format", "json", "-"}, labelled).out)["diagnoses"][0];
  CHECK(d["initiating_rank"] == 2);
  bool said = false;
  for (const auto& f : d["evidence"]["findings"])
    said = said || f.get<std::string>().find("leaves out entry [2]") != std::string::npos;
  CHECK(said);
  // With entry [0] gone too, two numbers are missing and neither is the root cause for sure.
  std::string two_gaps = log;
  const size_t first = two_gaps.find("[0]:\n"), second = two_gaps.find("[1]:\n");
  REQUIRE(first != std::string::npos);
  REQUIRE(second != std::string::npos);
  two_gaps.erase(first, second - first);
  auto r = run_denpex({"diagnose", "--format", "json", "-"}, two_gaps);
  json g = json::parse(r.out)["diagnoses"][0];
  CHECK(g["initiating_rank"] != 2);
  CHECK(g["initiating_rank"] != 0);
}
