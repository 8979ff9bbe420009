#pragma once
// Line normalization before matching: what a terminal shows, not the bytes that drew it.
#include <optional>
#include <string>
#include <string_view>

namespace denpex::logs {

// Removes ANSI escape sequences (CSI, OSC, two-byte ESC) and folds carriage-return rewrites
// (tqdm progress bars) to the text that stayed visible: what follows the last '\r'.
// `raw` is one line without its '\n'. Linear in the line's length.
void normalize_line(std::string_view raw, std::string& out);

// A launcher's per-rank prefix at the start of a line: "[rank3]:", "[default3]:" / "[trainer3]:"
// (torchrun, `[{role}{local_rank}]:`),
// "[1,3]<stderr>:" (mpirun). `length` bytes are removed before matching.
struct RankPrefix {
  int rank = -1;
  size_t length = 0;
  int local_rank = -1;  // `[defaultN]:` (any role) names it (taken as the rank too unless `[rankM]:` follows)
  bool local_only = false;  // the rank is that local rank: no `[rankM]:` followed
};
std::optional<RankPrefix> rank_prefix(std::string_view line);

}  // namespace denpex::logs
