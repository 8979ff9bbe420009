#pragma once
// A rank named by the file an error is about: per-rank shards, indexes and checkpoints carry it
// in their names (`rank1_w1.idx`, `ckpt/rank_3/optim.pt`, DeepSpeed's
// `zero_pp_rank_3_mp_rank_00_optim_states.pt`). Each rank opens its own, so an unranked
// `FileNotFoundError` naming one points at the rank that failed when nothing else does.
#include <string>
#include <string_view>

namespace denpex::logs {

struct PathRank {
  int rank = -1;
  std::string path;  // the path as the message gives it
};

// The one rank the paths in an error message name. Model-, tensor- and pipeline-parallel ranks
// (`mp_rank_00`, `tp_rank1`) are another axis and do not count; a message whose paths name two
// different ranks names none. Only tokens that look like paths count (a `/` or a file
// extension): `rank 3 failed` is a message naming a rank, not a file.
PathRank rank_in_paths(std::string_view message);

// The one rank an error's own words name (`loss is NaN at step 2 on rank 1`, `Rank 3: bad
// config`), for an error no launcher prefix tied to a process. Another axis (`local rank 1`,
// `tp rank 2`), a peer (`from rank 2`, `to rank 0`, `peer rank 3`), a list (`ranks 1, 3`) and a
// path (rank_in_paths' job) do not count; two different ranks name none. -1 when none.
int rank_in_words(std::string_view message);

}  // namespace denpex::logs
