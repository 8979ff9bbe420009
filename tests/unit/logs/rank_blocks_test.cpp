// Buffered per-process blocks: which untagged lines they give a rank, and when they give none.
#include <doctest/doctest.h>

#include <string>

#include "../../../analyzers/logs/src/rank_blocks.h"

using denpex::logs::buffered_block_lines;

namespace {
const std::string kTraceback =
    "Traceback (most recent call last):\n"
    "  File \"/w/train.py\", line 18, in batches\n"
    "    for line in fh:\n"
    "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x92 in position 6948: invalid start byte\n";
const std::string kClosed =
    "Traceback (most recent call last):\n"
    "  File \"/w/train.py\", line 49, in main\n"
    "    loss.backward()\n"
    "RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:19885\n";
std::string block(int rank) {
  const std::string tag = "[r" + std::to_string(rank) + "] ";
  return tag + "streaming corpus\n" + tag + "step 0 bpc 7.061\n" + tag + "step 4 bpc 6.476\n";
}
}  // namespace

TEST_CASE("a traceback after a block is that block's rank; the launcher's lines after the last stay unranked") {
  const std::string text = "job 3: 3 tasks\n" + block(1) + kTraceback + block(0) + kClosed + block(2) + kClosed +
                           "srun: error: gpu-a02: task 2: Exited with exit code 1\nsrun finished with status 1\n";
  const auto b = buffered_block_lines(text);
  REQUIRE(b.size() == 3);
  CHECK(b[0].first == 5);
  CHECK(b[0].last == 8);
  CHECK(b[0].rank == 1);
  CHECK(b[1].rank == 0);
  CHECK(b[2].rank == 2);
  CHECK(b[2].first == 19);
  CHECK(b[2].last == 22);  // the traceback's exception line, not srun's lines after it
}

TEST_CASE("stderr ahead of stdout: a traceback before the first block goes with the block after it") {
  const std::string text = "job 3: 3 tasks\n" + kTraceback + block(1) + kClosed + block(0);
  const auto b = buffered_block_lines(text);
  REQUIRE(b.size() == 2);
  CHECK(b[0].first == 2);
  CHECK(b[0].rank == 1);
  CHECK(b[1].rank == 0);
  CHECK(b[1].first == 9);
}

TEST_CASE("interleaved output is no blocks") {
  std::string text;
  for (int step = 0; step < 3; ++step)
    for (int r = 0; r < 3; ++r) text += "[r" + std::to_string(r) + "] step " + std::to_string(step) + "\n";
  text += kTraceback;
  CHECK(buffered_block_lines(text).empty());
}

TEST_CASE("one rank's lines alone, a one-line block, or no traceback give nothing") {
  CHECK(buffered_block_lines(block(0) + kTraceback).empty());  // only rank 0 logs: whose traceback?
  CHECK(buffered_block_lines(block(0) + kTraceback + "[r1] done\n").empty());
  CHECK(buffered_block_lines(block(0) + "some line\n" + block(1)).empty());
}
