// The rank a per-rank file's name gives an error about it (path_rank.h).
#include <doctest/doctest.h>

#include "../../../analyzers/logs/src/path_rank.h"

using denpex::logs::rank_in_paths;

TEST_CASE("rank_in_paths: the rank in the name of the file an error is about") {
  auto idx = rank_in_paths("[Errno 2] No such file or directory: '/tmp/helper29/clipidx/rank1_w1.idx'");
  CHECK(idx.rank == 1);
  CHECK(idx.path == "/tmp/helper29/clipidx/rank1_w1.idx");
  CHECK(rank_in_paths("[Errno 2] No such file or directory: 'ckpt/rank_3/optim.pt'").rank == 3);
  CHECK(rank_in_paths("Error(s) in loading state_dict from shards/rank-12.safetensors").rank == 12);
  // DeepSpeed: `zero_pp_rank_N` is the data-parallel rank; `mp_rank_00` is another axis.
  CHECK(rank_in_paths("FileNotFoundError: [Errno 2] No such file or directory: "
                      "'out/global_step200/zero_pp_rank_5_mp_rank_00_optim_states.pt'")
            .rank == 5);
}

TEST_CASE("rank_in_paths: nothing from words, other axes, or two ranks") {
  CHECK(rank_in_paths("rank 3 failed to open its shard").rank == -1);  // no file
  CHECK(rank_in_paths("Timed out waiting for rank3 to join").rank == -1);  // a word, not a path
  CHECK(rank_in_paths("No such file or directory: 'ckpt/mp_rank_01/model_optim_rng.pt'").rank == -1);
  CHECK(rank_in_paths("No such file or directory: 'ckpt/tp_rank2.pt'").rank == -1);
  CHECK(rank_in_paths("cannot merge shards/rank0.pt into shards/rank3.pt").rank == -1);  // whose?
  CHECK(rank_in_paths("No such file: 'data/frank3.txt'").rank == -1);
  CHECK(rank_in_paths("No such file: 'logs/rank3d_grid.npy'").rank == -1);
  CHECK(rank_in_paths("").rank == -1);
}

TEST_CASE("rank_in_words: the rank an error's own message names") {
  using denpex::logs::rank_in_words;
  CHECK(rank_in_words("loss is NaN at step 2 on rank 1") == 1);
  CHECK(rank_in_words("Rank 3: learning-rate schedule has 0 warm-up steps") == 3);
  CHECK(rank_in_words("bad shard count (rank=2, world_size=4)") == 2);
  CHECK(rank_in_words("config check failed on rank #0") == 0);
  CHECK(rank_in_words("NaN in grad of layer4 on rank1, step 17") == 1);
  CHECK(rank_in_words("rank 2 of 4 saw an empty batch; rank 2 stops") == 2);  // the same rank twice
}

TEST_CASE("rank_in_words: no rank from other axes, peers, lists, paths or two ranks") {
  using denpex::logs::rank_in_words;
  CHECK(rank_in_words("loss is NaN at step 2") == -1);
  CHECK(rank_in_words("invalid local rank 1 for 1 devices") == -1);
  CHECK(rank_in_words("tp rank 2 holds no shard") == -1);
  CHECK(rank_in_words("node_rank 1 is out of range") == -1);
  CHECK(rank_in_words("expected 128 bytes from rank 2") == -1);
  CHECK(rank_in_words("send to rank 0 failed") == -1);
  CHECK(rank_in_words("ranks 1, 3 failed to pass monitoredBarrier") == -1);
  CHECK(rank_in_words("No such file: '/data/rank1_w1.idx'") == -1);
  CHECK(rank_in_words("rank 0 is running all_reduce, but rank 1 is running broadcast") == -1);
  CHECK(rank_in_words("frank3 says hello") == -1);
  CHECK(rank_in_words("learning rank 3d grid") == -1);
  CHECK(rank_in_words("") == -1);
}
