#pragma once
// Per-rank files named for something else (a host, a pod, a job id: `fc-n04.log`,
// `job-81273.out`). Their ranks are not in their names but in their own first lines, where a
// script says who it is (`host fc-n04, rank 3 of 4`, `rank=3 world_size=4`, `[rank 3/4] ...`).
// One file saying so proves little (rank 0 alone may print `rank 0 of 4`, and a file may hold
// several processes' output); a set of files that each name one rank of one world size, every
// rank of it once, is one file per rank.
#include "diagnoser_state.h"

namespace denpex::logs {

// Gives each such file its rank, as a file named rank3.log would have it: the input's file rank
// and its unranked source's rank, with a note of the line that said it (InputState::self_named).
// Does nothing unless every rank 0..W-1 of the files' one world size W has exactly one file.
void name_files_by_their_words(Diagnoser::State& st);

// A line's own rank and world size, from its words: `rank 3 of 4`, `rank 3/4`, `rank=3 ...
// world_size=4`; {-1, 0} when the line says no both. Exposed for tests.
std::pair<int, int> rank_and_world(std::string_view line);

}  // namespace denpex::logs
