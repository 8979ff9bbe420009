#include <doctest/doctest.h>
#include <signal.h>

#include <utility>
#include <boost/process.hpp>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "process.h"
#include "snapshot.h"

using denpex::testing::run_denpex;

TEST_CASE("run: passes output through and exits with the command's code") {
  auto r = run_denpex({"run", "--", "sh", "-c", "echo out1; echo err1 >&2; echo out2; exit 0"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "out1\nout2\n");
  CHECK(r.err == "err1\n");
  r = run_denpex({"run", "--", "sh", "-c", "exit 7"});
  CHECK(r.exit_code == 7);
  CHECK(r.err.find("failed with exit code 7") != std::string::npos);
  CHECK(r.err.find("No known failure found") != std::string::npos);
}

TEST_CASE("run: a signalled command exits 128+signal") {
  auto r = run_denpex({"run", "--", "sh", "-c", "kill -9 $$"});
  CHECK(r.exit_code == 137);
  r = run_denpex({"run", "--", "sh", "-c", "kill -TERM $$"});
  CHECK(r.exit_code == 143);
}

TEST_CASE("run: live detection prints one line at the first initiating fault, then the diagnosis") {
  auto r = run_denpex({"run", "--", "sh", "-c",
                       "echo step 1; echo 'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB' >&2; "
                       "sleep 0.3; echo 'RuntimeError: CUDA out of memory. Tried to allocate 4.00 GiB' >&2; exit 1"},
                      "", {{"NO_COLOR", "1"}});
  CHECK(r.exit_code == 1);
  CHECK(r.out == "step 1\n");
  const std::string live = "denpex: initiating fault: CUDA out of memory (cuda-oom, stderr line 1)";
  auto first = r.err.find(live);
  CHECK(first != std::string::npos);
  CHECK(r.err.find(live, first + 1) == std::string::npos);
  // Live: printed as the output arrives, before later output and before the final report.
  CHECK(first < r.err.find("4.00 GiB"));
  CHECK(r.err.find("Diagnosis: CUDA out of memory") != std::string::npos);
}

TEST_CASE("run: --log keeps the output; a missing command exits 127; usage errors exit 2") {
  namespace fs = std::filesystem;
  fs::path log = fs::temp_directory_path() / ("denpex-run-" + std::to_string(::getpid()) + ".log");
  auto r = run_denpex({"run", "--log", log.string(), "--", "sh", "-c", "echo a; echo b >&2"});
  CHECK(r.exit_code == 0);
  std::string saved = denpex::testing::read_file(log.string());
  CHECK(saved.find("a\n") != std::string::npos);
  CHECK(saved.find("b\n") != std::string::npos);
  fs::remove(log);
  r = run_denpex({"run", "--", "no-such-command-denpex"});
  CHECK(r.exit_code == 127);
  CHECK(r.err.find("cannot run 'no-such-command-denpex'") != std::string::npos);
  CHECK(run_denpex({"run"}).exit_code == 2);
}

TEST_CASE("run: SIGTERM is forwarded to the command's group and nothing is left behind") {
  namespace fs = std::filesystem;
  namespace bp = boost::process;
  fs::path marker = fs::temp_directory_path() / ("denpex-run-orphan-" + std::to_string(::getpid()));
  fs::remove(marker);
  // The command starts a background grandchild that would write the marker after 3 s.
  std::string script = "(sleep 3; touch " + marker.string() + ") & echo started; sleep 30";
  bp::ipstream out;
  bp::child denpex(DENPEX_BINARY, bp::args({"run", "--", "sh", "-c", script}), bp::std_out > out);
  std::string line;
  REQUIRE(std::getline(out, line));
  CHECK(line == "started");
  ::kill(denpex.id(), SIGTERM);
  denpex.wait();
  CHECK(denpex.exit_code() == 143);
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));
  CHECK_FALSE(fs::exists(marker));
  fs::remove(marker);
}

TEST_CASE("run --expect-absent: verifies a fix, or says where the failure came back") {
  const std::string oom = "echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
                          "total capacity of 79.10 GiB of which 1.50 GiB is free.'";
  auto r = run_denpex({"run", "--expect-absent", "cuda-oom", "--", "sh", "-c", "echo step 1; echo step 2"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "step 1\nstep 2\n");
  CHECK(r.err.find("verified: the command succeeded and none of 1 expected-absent entry appeared") != std::string::npos);
  // The command succeeds, but the failure is still printed: not verified, exit 1, where it was.
  r = run_denpex({"run", "--expect-absent", "nccl-watchdog-timeout,cuda-oom", "--", "sh", "-c", "echo step 1; " + oom});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("the fix is not verified") != std::string::npos);
  CHECK(r.err.find("cuda-oom at stdout line 2: torch.OutOfMemoryError") != std::string::npos);
  CHECK(r.err.find("Diagnosis: CUDA out of memory") != std::string::npos);
  // A repeated warning split across writes is one sighting with a count.
  const std::string warn_a = "UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed explic";
  const std::string warn_b = "itly. In version 2.5 we will raise an exception if use_reentrant is not passed. use_reentrant=False "
                             "is recommended, but if you need to preserve the current default behavior, you can pass "
                             "use_reentrant=True. Refer to docs for more details on the differences between the two variants.";
  r = run_denpex({"run", "--expect-absent", "checkpoint-use-reentrant-unset", "--", "sh", "-c",
                  "for i in 1 2 3; do printf '" + warn_a + "' >&2; sleep 0.05; printf '" + warn_b + "\\n' >&2; done"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("checkpoint-use-reentrant-unset at stderr line 1 (and 2 more lines)") != std::string::npos);
  // A failing command keeps its own exit code; the sighting is still reported.
  r = run_denpex({"run", "--expect-absent", "cuda-oom", "--", "sh", "-c", oom + "; exit 3"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("cuda-oom at stdout line 1") != std::string::npos);
  // An unknown id is a usage error before anything runs.
  r = run_denpex({"run", "--expect-absent", "cuda-om", "--", "sh", "-c", "echo ran"});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("no encyclopedia entry 'cuda-om'; did you mean cuda-oom") != std::string::npos);
}

TEST_CASE("run --steps-timeout: a repro that outlives its steps is stopped and counts as verified") {
  const std::string oom = "echo 'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a "
                          "total capacity of 79.10 GiB of which 1.50 GiB is free.'";
  auto r = run_denpex({"run", "--expect-absent", "cuda-oom", "--steps-timeout", "1", "--", "sh", "-c",
                       "echo step 1; sleep 30; echo never"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == "step 1\n");
  CHECK(r.err.find("verified: the command ran 1 s (--steps-timeout; stopped then)") != std::string::npos);
  // The failure came back before the time was up: not verified, and the report's verify line
  // gives the exact command to run again.
  r = run_denpex({"run", "--expect-absent", "cuda-oom", "--steps-timeout", "2", "--", "sh", "-c", oom + "; sleep 30"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("the fix is not verified") != std::string::npos);
  CHECK(r.err.find("Check the fix: denpex run --expect-absent cuda-oom -- sh -c 'echo '\\''torch.OutOfMemoryError") !=
        std::string::npos);
  // A command that ends by itself within the time keeps its own exit code.
  r = run_denpex({"run", "--expect-absent", "cuda-oom", "--steps-timeout", "10m", "--", "sh", "-c", "exit 4"});
  CHECK(r.exit_code == 4);
  r = run_denpex({"run", "--steps-timeout", "1", "--", "true"});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("use it with --expect-absent") != std::string::npos);
  r = run_denpex({"run", "--expect-absent", "cuda-oom", "--steps-timeout", "0", "--", "true"});
  CHECK(r.exit_code == 2);
}

TEST_CASE("diagnose: every diagnosis says how to check its fix") {
  auto r = run_denpex({"diagnose", "--format", "json", denpex::testing::source_path("tests/fixtures/logs/single-oom.log")});
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["diagnoses"][0]["verify_command"] == "denpex run --expect-absent cuda-oom -- <your training command>");
  r = run_denpex({"diagnose", "--format", "markdown", denpex::testing::source_path("tests/fixtures/logs/single-oom.log")});
  CHECK(r.out.find("```sh\ndenpex run --expect-absent cuda-oom -- <your training command>\n```") != std::string::npos);
}
