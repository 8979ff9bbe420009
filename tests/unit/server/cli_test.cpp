#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "process.h"

using denpex::testing::run_denpex;

TEST_CASE("--version names the engines' versions") {
  auto r = run_denpex({"--version"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("denpex ") == 0);
  CHECK(r.out.find("RE2 ") != std::string::npos);
  CHECK(r.out.find("tree-sitter runtime 0.25.1") != std::string::npos);
  CHECK(r.out.find("tree-sitter-python 0.25.0 (ABI 15)") != std::string::npos);
}

TEST_CASE("every subcommand has --help; unknown commands and options exit 2") {
  for (const char* c : {"diagnose", "run", "check", "explain", "signatures", "lsp"}) {
    CAPTURE(c);
    auto r = run_denpex({c, "--help"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("Usage: denpex") != std::string::npos);
  }
  auto r = run_denpex({"frobnicate"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown command 'frobnicate'") != std::string::npos);
  r = run_denpex({"explain", "--bogus", "cuda-oom"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("unknown option '--bogus'") != std::string::npos);
  r = run_denpex({});
  CHECK(r.exit_code == 2);
}

TEST_CASE("explain renders an entry as text, markdown and json") {
  auto r = run_denpex({"explain", "cuda-oom"}, "", {{"NO_COLOR", "1"}});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("CUDA out of memory  (cuda-oom)") == 0);
  CHECK(r.out.find("\x1b[") == std::string::npos);
  CHECK(r.out.find("Fix") != std::string::npos);
  r = run_denpex({"explain", "--format", "markdown", "cuda-oom"});
  CHECK(r.out.find("# CUDA out of memory\n") == 0);
  CHECK(r.out.find("## Verify") != std::string::npos);
  r = run_denpex({"explain", "--format=json", "cuda-oom"});
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["id"] == "cuda-oom");
  CHECK(j["fingerprints"].size() >= 2);
  r = run_denpex({"explain", "--color=always", "cuda-oom"});
  CHECK(r.out.find("\x1b[1m") != std::string::npos);
}

TEST_CASE("explain shows a static-check rule by code or name, with the entry it prevents") {
  auto r = run_denpex({"explain", "DPX002"}, "", {{"NO_COLOR", "1"}});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("DPX002 checkpoint-use-reentrant-missing") == 0);
  CHECK(r.out.find("## Fix and its safety") != std::string::npos);
  CHECK(r.out.find("denpex explain checkpoint-use-reentrant-unset") != std::string::npos);
  r = run_denpex({"explain", "--format", "json", "checkpoint-use-reentrant-missing"});
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["code"] == "DPX002");
  CHECK(j["entry"] == "checkpoint-use-reentrant-unset");
  r = run_denpex({"explain", "DPX999"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no entry or rule 'DPX999'") != std::string::npos);
}

TEST_CASE("explain suggests the closest ids for an unknown one") {
  auto r = run_denpex({"explain", "cuda-om"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("did you mean cuda-oom") != std::string::npos);
}

TEST_CASE("signatures list --format json has the documented fields") {
  auto r = run_denpex({"signatures", "list", "--format", "json"});
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.is_array());
  REQUIRE(!j.empty());
  for (const auto& e : j) {
    for (const char* k : {"id", "title", "category", "tags", "severity", "role", "fingerprints", "codes", "examples"})
      CHECK_MESSAGE(e.contains(k), k);
    CHECK(e["examples"].get<int>() >= 2);
  }
}

TEST_CASE("signatures test reports missing, noisy and ambiguous examples and exits 1") {
  auto dir = std::filesystem::temp_directory_path() / "denpex-sigtest";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "bad-examples.yaml") << R"(id: bad-examples
title: Examples that fail in three ways
category: Memory
severity: error
role: initiator
fingerprints:
  - pattern: 'CUDA out of memory'
    confidence: 0.1
summary: s
mechanism: m
fix: f
verify: v
examples:
  match:
    - 'nothing to see here'
    - 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB'
  no_match:
    - 'RuntimeError: CUDA out of memory.'
)";
  auto r = run_denpex({"signatures", "test", dir.string()}, "", {{"NO_COLOR", "1"}});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("examples.match[0] missing") != std::string::npos);
  CHECK(r.out.find("examples.match[1] ambiguous: 'cuda-oom' claims it") != std::string::npos);
  CHECK(r.out.find("examples.no_match[0] noisy") != std::string::npos);
  CHECK(r.out.find("3 examples: 0 validated, 1 missing, 1 noisy, 1 ambiguous") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("signatures validate prints one file:line line per problem") {
  auto dir = std::filesystem::temp_directory_path() / "denpex-sigvalidate";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "x.yaml") << "id: x\ntitle: X\ncategory: Memory\nbogus: 1\n";
  auto r = run_denpex({"signatures", "validate", dir.string()});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find((dir / "x.yaml").string() + ":4: unknown key `bogus`") != std::string::npos);
  CHECK(r.out.find("missing required field `severity`") != std::string::npos);
  std::filesystem::remove_all(dir);
}
