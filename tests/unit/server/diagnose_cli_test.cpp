#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "process.h"
#include "snapshot.h"

using denpex::testing::run_denpex;
using denpex::testing::source_path;
using nlohmann::json;

namespace {

// The parts of the JSON that diagnosis decides (not the entry prose, which authors edit), with
// file paths made relative to the source tree so snapshots do not depend on the checkout.
std::string stable_view(const std::string& out) {
  json j = json::parse(out);
  json v;
  v["schema_version"] = j["schema_version"];
  v["diagnoses"] = json::array();
  for (auto& d : j["diagnoses"]) {
    json h = json::array();
    for (auto& x : d["hypotheses"]) h.push_back(x["entry"]);
    json c = json::array();
    for (auto& x : d["collateral"]) c.push_back({x["rank"], x["entry"], x["line"]});
    v["diagnoses"].push_back({{"entry", d["entry"]},
                              {"confidence", d["confidence"]},
                              {"initiating_rank", d["initiating_rank"]},
                              {"initiating_node", d["initiating_node"]},
                              {"first_error", d["first_error"]},
                              {"traceback", d["traceback"]},
                              {"context_lines", d["context"]["lines"].size()},
                              {"collateral", c},
                              {"findings", d["evidence"]["findings"]},
                              {"hypotheses", h}});
  }
  v["first_error_line"] = j["first_error_line"];
  v["final_exception"] = j["final_exception"];
  v["root_cause"] = j["root_cause"];
  v["total_lines"] = j["total_lines"];
  std::string s = v.dump(2);
  const std::string root = source_path("");
  for (size_t p; (p = s.find(root)) != std::string::npos;) s.erase(p, root.size());
  return s + "\n";
}

json diagnose_json(const std::string& relative) {
  auto r = run_denpex({"diagnose", "--format", "json", source_path(relative)});
  REQUIRE(r.exit_code != 2);
  return json::parse(r.out);
}

}  // namespace

TEST_CASE("diagnose: bundled example, OOM on rank 5 cascading into watchdog timeouts") {
  auto r = run_denpex({"diagnose", "--format", "json", source_path("examples/oom-cascade")});
  CHECK(r.exit_code == 1);
  auto j = json::parse(r.out);
  REQUIRE(j["diagnoses"].size() >= 1);
  auto d = j["diagnoses"][0];
  CHECK(d["entry"] == "cuda-oom");
  CHECK(d["initiating_rank"] == 5);
  CHECK(d["initiating_node"] == "gpu-node-03");
  CHECK(d["context"]["lines"].size() >= 28);
  // The error line is shown as the log has it, like the context lines; `text` is what matched.
  CHECK(d["context"]["error_line"].get<std::string>().rfind("[rank5]: torch.OutOfMemoryError: CUDA out of memory", 0) == 0);
  CHECK(d["first_error"]["text"].get<std::string>().rfind("torch.OutOfMemoryError: CUDA out of memory", 0) == 0);
  bool rank0_timeout = false;
  for (auto& c : d["collateral"])
    if (c["rank"] == 0 && c["entry"] == "nccl-watchdog-timeout") rank0_timeout = true;
  CHECK(rank0_timeout);
  CHECK(j["root_cause"]["rank"] == 5);
  CHECK_SNAPSHOT("diagnose/oom-cascade", stable_view(r.out));
}

TEST_CASE("diagnose: fixtures as snapshots") {
  for (const char* f : {"single-oom.log", "recompile-then-oom.log", "xid79", "hang-seq.log", "interleaved-ansi.log",
                        "healthy.log"}) {
    CAPTURE(f);
    auto r = run_denpex({"diagnose", "--format", "json", source_path(std::string("tests/fixtures/logs/") + f)});
    CHECK(r.exit_code == (std::string(f) == "healthy.log" ? 0 : 1));
    std::string name = f;
    if (auto dot = name.find('.'); dot != std::string::npos) name.resize(dot);
    CHECK_SNAPSHOT("diagnose/" + name, stable_view(r.out));
  }
}

TEST_CASE("diagnose: each fixture names the right failure and rank") {
  CHECK(diagnose_json("tests/fixtures/logs/single-oom.log")["diagnoses"][0]["entry"] == "cuda-oom");
  CHECK(diagnose_json("tests/fixtures/logs/recompile-then-oom.log")["diagnoses"][0]["entry"] == "compile-recompile-memory");
  auto x = diagnose_json("tests/fixtures/logs/xid79")["diagnoses"][0];
  CHECK(x["entry"] == "xid-79-gpu-fallen-off-bus");
  CHECK(x["initiating_node"] == "node-02");
  CHECK(x["initiating_rank"].is_null());  // no NCCL init line ties the GPU to a rank
  // With NCCL's init lines (busId 5d000 = PCI 0000:5d:00.0), the Xid's GPU is rank 2's.
  auto xb = diagnose_json("tests/fixtures/logs/xid79-busid")["diagnoses"][0];
  CHECK(xb["entry"] == "xid-79-gpu-fallen-off-bus");
  CHECK(xb["initiating_rank"] == 2);
  CHECK(xb["initiating_node"] == "node-02");
  // torch.multiprocessing.spawn names the failed process (real torch 1.13 output).
  auto sr = diagnose_json("tests/fixtures/logs/spawn/raised-index-error.log")["diagnoses"][0];
  CHECK(sr["entry"] == "embedding-index-out-of-range-cpu");
  CHECK(sr["initiating_rank"] == 1);
  auto sk = diagnose_json("tests/fixtures/logs/spawn/killed-sigkill.log")["diagnoses"][0];
  CHECK(sk["entry"] == "mp-spawn-process-killed");
  CHECK(sk["initiating_rank"] == 2);
  // An exception no entry knows: spawn's own `-- Process 3 terminated with the following error:`
  // makes it the failure, although no other rank shows a collateral symptom.
  auto su = diagnose_json("tests/fixtures/logs/spawn/raised-unknown-error.log")["diagnoses"][0];
  CHECK(su["entry"] == "unrecognized-exception");
  CHECK(su["initiating_rank"] == 3);
  auto h = diagnose_json("tests/fixtures/logs/hang-seq.log")["diagnoses"][0];
  CHECK(h["initiating_rank"] == 2);
  // The chain starts where the hang started, not at the first timeout printed by another rank.
  CHECK(h["chain"][0].get<std::string>().rfind("rank 2: never reached collective SeqNum 301", 0) == 0);
  auto i = diagnose_json("tests/fixtures/logs/interleaved-ansi.log")["diagnoses"][0];
  CHECK(i["entry"] == "tensor-device-mismatch");
  CHECK(i["initiating_rank"] == 1);
  CHECK(i["first_error"]["text"].get<std::string>().find("\x1b") == std::string::npos);
  CHECK(diagnose_json("tests/fixtures/logs/healthy.log")["diagnoses"].empty());
}

TEST_CASE("diagnose: text, markdown, stdin and colour") {
  auto r = run_denpex({"diagnose", source_path("examples/oom-cascade")}, "", {{"NO_COLOR", "1"}});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("Diagnosis: CUDA out of memory") == 0);
  CHECK(r.out.find("Initiating fault: rank 5 on gpu-node-03") != std::string::npos);
  CHECK(r.out.find("\x1b[") == std::string::npos);
  r = run_denpex({"diagnose", "--color=always", source_path("examples/oom-cascade")});
  CHECK(r.out.find("\x1b[1m") != std::string::npos);
  r = run_denpex({"diagnose", "--format", "markdown", source_path("examples/oom-cascade")});
  CHECK(r.out.find("# Post-mortem: CUDA out of memory") == 0);
  CHECK(r.out.find("## Fix") != std::string::npos);
  std::string log = denpex::testing::read_file(source_path("tests/fixtures/logs/single-oom.log"));
  r = run_denpex({"diagnose", "--format", "json", "-"}, log);
  CHECK(r.exit_code == 1);
  CHECK(json::parse(r.out)["inputs"][0]["file"] == "<stdin>");
}

TEST_CASE("diagnose: no match shows the first error line and the final exception") {
  auto r = run_denpex({"diagnose", "-"}, "step 1\nERROR: quota\nTraceback (most recent call last):\n  File \"t.py\", line 1, in <module>\nOSError: [Errno 122] Disk quota exceeded\n", {{"NO_COLOR", "1"}});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("No known failure found") == 0);
  CHECK(r.out.find("ERROR: quota") != std::string::npos);
  CHECK(r.out.find("OSError: [Errno 122] Disk quota exceeded") != std::string::npos);
}

TEST_CASE("diagnose: a cancelled run says it was stopped from outside, in text and JSON") {
  const std::string log = "step 40 loss 2.31\nslurmstepd: error: *** JOB 760737 ON gn1204 CANCELLED AT 2025-08-16T16:27:59 ***\n";
  auto r = run_denpex({"diagnose", "-"}, log, {{"NO_COLOR", "1"}});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("No failure found in 2 lines: the run was stopped from outside") == 0);
  CHECK(r.out.find("<stdin>:2  Run cancelled from outside") != std::string::npos);
  CHECK(r.out.find("No encyclopedia entry matches") == std::string::npos);
  r = run_denpex({"diagnose", "--format", "json", "-"}, log);
  CHECK(r.exit_code == 0);
  auto j = json::parse(r.out);
  CHECK(j["diagnoses"].empty());
  REQUIRE(j["notes"].size() == 1);
  CHECK(j["notes"][0]["entry"] == "run-cancelled");
  CHECK(j["notes"][0]["line"] == 2);
  CHECK(j["notes"][0]["rank"].is_null());
}

TEST_CASE("diagnose: --exit-zero reports the diagnosis but exits 0; I/O errors still exit 2") {
  auto r = run_denpex({"diagnose", "--exit-zero", source_path("examples/oom-cascade")}, "", {{"NO_COLOR", "1"}});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("Diagnosis: CUDA out of memory") == 0);
  CHECK(run_denpex({"diagnose", "--exit-zero", "/nonexistent/train.log"}).exit_code == 2);
}

TEST_CASE("diagnose: usage and I/O errors exit 2") {
  auto r = run_denpex({"diagnose", "/nonexistent/train.log"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("cannot read '/nonexistent/train.log': no such file or directory") != std::string::npos);
  CHECK(run_denpex({"diagnose", "--format", "xml", "-"}).exit_code == 2);
  auto empty = std::filesystem::temp_directory_path() / ("denpex-empty-" + std::to_string(::getpid()));
  std::filesystem::create_directories(empty);
  r = run_denpex({"diagnose", empty.string()});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no log files in directory") != std::string::npos);
  std::filesystem::remove_all(empty);
  CHECK(run_denpex({"diagnose", "--context", "many", "-"}).exit_code == 2);
}

TEST_CASE("diagnose: empty, binary and 50 MB single-line inputs") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("denpex-diag-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "empty.log").close();
  {
    std::ofstream b(dir / "binary.bin", std::ios::binary);
    for (int i = 0; i < 200000; ++i) b.put(static_cast<char>((i * 131 + 7) % 256));
  }
  {
    std::ofstream big(dir / "oneline.log", std::ios::binary);
    std::string block(1 << 20, 'a');
    for (int i = 0; i < 50; ++i) big << block;
  }
  for (const char* f : {"empty.log", "binary.bin", "oneline.log"}) {
    CAPTURE(f);
    auto r = run_denpex({"diagnose", "--format", "json", (dir / f).string()});
    CHECK(r.exit_code == 0);
    auto j = json::parse(r.out);
    CHECK(j["diagnoses"].empty());
  }
  auto r = run_denpex({"diagnose", "--format", "json", (dir / "binary.bin").string()});
  CHECK(json::parse(r.out)["inputs"][0]["binary"] == true);
  r = run_denpex({"diagnose", "--format", "json", (dir / "oneline.log").string()});
  CHECK(json::parse(r.out)["total_lines"] == 1);
  fs::remove_all(dir);
}
