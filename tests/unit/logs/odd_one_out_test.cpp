// The rank that differs, from messages in which every rank compares itself with a peer.
#include <doctest/doctest.h>

#include "../../../analyzers/logs/src/odd_one_out.h"

using namespace denpex::logs;

namespace {
Captures ddp(int rank, int params, int other, int other_params) {
  return {{"rank", std::to_string(rank)},
          {"params", std::to_string(params)},
          {"other_rank", std::to_string(other)},
          {"other_params", std::to_string(other_params)}};
}
}  // namespace

TEST_CASE("odd_one_out: the rank whose value no other rank shares") {
  // DDP's check on 4 ranks where rank 3 built a bigger model: each rank names rank 0 or 3.
  Captures a = ddp(0, 4, 3, 6), b = ddp(3, 6, 0, 4), c = ddp(2, 4, 3, 6), e = ddp(1, 4, 3, 6);
  auto odd = odd_one_out({&a, &b, &c, &e});
  REQUIRE(odd);
  CHECK(odd->rank == 3);
  CHECK(odd->what == "params");
  CHECK(odd->value == "6");
  CHECK(odd->usual == "4");
  CHECK(odd->others == std::vector<int>{0, 1, 2});
}

TEST_CASE("odd_one_out: nothing when two ranks are all there is, the messages disagree, or two differ") {
  Captures a = ddp(0, 4, 1, 6), b = ddp(1, 6, 0, 4);
  CHECK_FALSE(odd_one_out({&a, &b}));  // 0 or 1: two sides, no majority
  Captures c = ddp(2, 4, 3, 6), d = ddp(3, 5, 0, 4);
  CHECK_FALSE(odd_one_out({&c, &d, &a}));  // rank 3 said to hold 6 and 5
  Captures e = ddp(0, 4, 2, 6), f = ddp(0, 4, 3, 6), g = ddp(1, 4, 0, 4);
  CHECK_FALSE(odd_one_out({&e, &f, &g}));  // ranks 2 and 3 both differ
  Captures h = {{"rank", "1"}, {"op", "BROADCAST"}};
  CHECK_FALSE(odd_one_out({&h}));  // no peer named
}

TEST_CASE("odd_one_out: the collective checker's mismatch names the odd operation") {
  Captures a = {{"rank", "0"}, {"op", "ALLREDUCE"}, {"other_rank", "2"}, {"other_op", "BROADCAST"}};
  Captures b = {{"rank", "1"}, {"op", "ALLREDUCE"}, {"other_rank", "2"}, {"other_op", "BROADCAST"}};
  auto odd = odd_one_out({&a, &b});
  REQUIRE(odd);
  CHECK(odd->rank == 2);
  CHECK(odd->what == "op");
}
