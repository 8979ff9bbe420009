// Files named for hosts: the rank a file's own first lines give, when every rank has its file.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "../../../analyzers/logs/src/self_named_files.h"
#include "diagnose.h"

using denpex::logs::rank_and_world;
using Files = std::vector<std::pair<std::string, std::string>>;

namespace {
const char* kTimeout =
    "Traceback (most recent call last):\n"
    "  File \"/w/train.py\", line 57, in <module>\n"
    "    dist.all_reduce(g)\n"
    "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541, in all_reduce\n"
    "    work.wait()\n"
    "RuntimeError: [./gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 20000ms for recv operation to complete\n";
const char* kClosed =
    "Traceback (most recent call last):\n"
    "  File \"/w/train.py\", line 57, in <module>\n"
    "    dist.all_reduce(g)\n"
    "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541, in all_reduce\n"
    "    work.wait()\n"
    "RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:5033\n";

// Host h's file: rank `rank` of 4; the stalled host's read ends 27 s late and it then finds the
// connection closed, the others time out.
std::string host_file(int rank, bool stalled, const std::string& banner) {
  const std::string done = stalled ? "17:42:42.120" : "17:42:15.122";
  return "17:42:14.34" + std::to_string(rank) + " INFO " + banner + "\n" +
         "17:42:15.119 INFO epoch 1: reading shards/part-" + std::to_string(rank) + ".bin\n" + done +
         " INFO epoch 1: read 24576 bytes\n" + (stalled ? kClosed : kTimeout);
}

Files hosts(int stalled, int files = 4) {
  Files f;
  for (int r = 0; r < files; ++r)
    f.emplace_back("fc-n0" + std::to_string(r + 1) + ".log",
                   host_file(r, r == stalled, "host fc-n0" + std::to_string(r + 1) + ", rank " + std::to_string(r) + " of 4"));
  return f;
}
}  // namespace

TEST_CASE("a line's own rank and world size") {
  CHECK(rank_and_world("host fc-n04, rank 3 of 4") == std::pair{3, 4});
  CHECK(rank_and_world("[rank 2/4] ready") == std::pair{2, 4});
  CHECK(rank_and_world("init done: rank=1 world_size=3") == std::pair{1, 3});
  CHECK(rank_and_world("RANK=0 WORLD_SIZE=2 MASTER_ADDR=10.0.0.1") == std::pair{0, 2});
  CHECK(rank_and_world("INFO train: host=osprey rank=1 world=4 master=127.0.0.1:29638") == std::pair{1, 4});
  CHECK(rank_and_world("rank: 2 world: 4") == std::pair{2, 4});
  CHECK(rank_and_world("rank 1 hello world=4") == std::pair{1, 4});
  CHECK(rank_and_world("rank 1 of the helloworld=4 shards") == std::pair{-1, 0});  // not the word
  CHECK(rank_and_world("waiting for rank 3") == std::pair{-1, 0});        // no world size
  CHECK(rank_and_world("rank 4 of 4") == std::pair{-1, 0});               // not a rank of that world
  CHECK(rank_and_world("local_rank 1 of 2 on this node") == std::pair{-1, 0});
}

TEST_CASE("files named for hosts take the ranks their own lines give, every rank once") {
  auto r = denpex::testing::diagnose_inputs(hosts(2));
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].initiating_rank == 2);
  bool said = false;
  for (const auto& f : r.diagnoses[0].findings) said = said || f.find("fc-n03.log is rank 2's: its own line 1") != std::string::npos;
  CHECK(said);

  SUBCASE("one rank's file missing: no file is taken for a rank") {
    auto partial = denpex::testing::diagnose_inputs(hosts(2, 3));
    REQUIRE_FALSE(partial.diagnoses.empty());
    CHECK(partial.diagnoses[0].initiating_rank < 0);
  }
  SUBCASE("a file whose lines name two ranks is no one rank's") {
    Files f = hosts(2);
    f[2].second = "17:42:14.300 INFO rank 0 of 4 is the master\n" + f[2].second;
    auto mixed = denpex::testing::diagnose_inputs(f);
    REQUIRE_FALSE(mixed.diagnoses.empty());
    CHECK(mixed.diagnoses[0].initiating_rank < 0);
  }
  SUBCASE("two files claim one rank") {
    Files f = hosts(2);
    f[1].second = host_file(0, false, "host fc-n02, rank 0 of 4");
    auto twice = denpex::testing::diagnose_inputs(f);
    REQUIRE_FALSE(twice.diagnoses.empty());
    CHECK(twice.diagnoses[0].initiating_rank < 0);
  }
}

TEST_CASE("the late lost connection is judged by the files' clocks, not their order") {
  // The stalled host's file comes first by name; its lost connection is still the last by time.
  auto r = denpex::testing::diagnose_inputs(hosts(0));
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].initiating_rank == 0);

  SUBCASE("a lost connection before the timeouts is no late arrival") {
    Files f = hosts(0);
    f[0].second = host_file(0, false, "host fc-n01, rank 0 of 4");
    f[0].second.replace(f[0].second.find("unbound_buffer.cc:81] Timed out waiting 20000ms for recv operation to complete"),
                        std::string("unbound_buffer.cc:81] Timed out waiting 20000ms for recv operation to complete").size(),
                        "pair.cc:598] Connection closed by peer [127.0.0.1]:5033");
    auto early = denpex::testing::diagnose_inputs(f);
    REQUIRE_FALSE(early.diagnoses.empty());
    CHECK(early.diagnoses[0].initiating_rank != 0);
  }
}
