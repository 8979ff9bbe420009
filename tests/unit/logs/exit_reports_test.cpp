// A launcher's reports of how each worker ended: the one that ended differently.
#include <doctest/doctest.h>

#include "../../../analyzers/logs/src/exit_reports.h"

using namespace denpex::logs;

TEST_CASE("exit_outcome: signals by name, by Python's negative code and by a shell's 128 + N") {
  CHECK(exit_outcome({0, "SIGABRT", 0}) == "SIGABRT");
  CHECK(exit_outcome({0, "", -11}) == "SIGSEGV");
  CHECK(exit_outcome({0, "", 137}) == "SIGKILL");
  CHECK(exit_outcome({0, "", 1}) == "code 1");
  CHECK(exit_outcome({0, "", -77}) == "code -77");
}

TEST_CASE("odd_exit: the one worker killed by a crash signal") {
  auto odd = odd_exit({{0, "", 1}, {1, "", 1}, {2, "SIGABRT", 0}, {3, "", 1}});
  REQUIRE(odd);
  CHECK(odd->worker == 2);
  CHECK(odd->how == "was killed by SIGABRT");
  // Even of two workers: a crash is the launcher's own evidence.
  auto two = odd_exit({{0, "", -9}, {1, "", 1}});
  REQUIRE(two);
  CHECK(two->worker == 0);
  // Two crashed: no one is named.
  CHECK_FALSE(odd_exit({{0, "SIGSEGV", 0}, {1, "SIGKILL", 0}, {2, "", 1}}));
}

TEST_CASE("odd_exit: the one outcome no other worker shares") {
  auto code = odd_exit({{0, "", 1}, {1, "", 3}, {2, "", 1}, {3, "", 1}});
  REQUIRE(code);
  CHECK(code->worker == 1);
  CHECK(code->how == "exited with code 3");
  CHECK(code->others == "the others exited with code 1");
  // The one stopped with SIGTERM after its peers gave up waiting: it was the one stuck.
  auto stuck = odd_exit({{0, "", 1}, {1, "", 1}, {2, "SIGTERM", 0}});
  REQUIRE(stuck);
  CHECK(stuck->worker == 2);
  // The first report per worker counts; two workers alone decide nothing; all alike neither.
  CHECK(odd_exit({{0, "", 1}, {0, "", 3}, {1, "", 1}, {2, "", 1}}) == std::nullopt);
  CHECK_FALSE(odd_exit({{0, "", 1}, {1, "SIGTERM", 0}}));
  CHECK_FALSE(odd_exit({{0, "", 1}, {1, "", 1}, {2, "", 1}}));
}
