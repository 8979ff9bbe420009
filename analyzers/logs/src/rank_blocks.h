#pragma once
// Output that reached the log one process at a time. A process whose stdout goes to a pipe or a
// file buffers it (`print` without `-u` or `flush=True`), so what `sbatch --output`, a launcher
// that collects its children's output, or a `cat` of per-rank files leaves is one block of lines
// per process: every line of rank 1's tagged with its `[r1] `, then its untagged traceback (the
// excepthook's stderr), then rank 0's block, and so on. There, an untagged traceback belongs to
// the block it sits against, which no line-by-line reading can tell.
#include <cstdint>
#include <string_view>
#include <vector>

namespace denpex::logs {

struct BlockLines {
  uint64_t first = 0, last = 0;  // 1-based lines of the text, inclusive
  int rank = -1;
};

// The untagged lines the blocks give a rank, in line order; empty unless the text is blocks:
// at least two ranks' tagged lines, each rank's in one run of two or more, and an untagged
// traceback against one of them. A traceback before the first block says each process's
// stderr came out ahead of its stdout; then the lines between blocks go to the block after them.
std::vector<BlockLines> buffered_block_lines(std::string_view text);

}  // namespace denpex::logs
