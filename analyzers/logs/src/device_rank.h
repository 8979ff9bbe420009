#pragma once
// The rank behind a CUDA error that names only its device (`GPU 1 has a total capacity of ...`)
// when no prefix says which process printed it.
#include <optional>
#include <string>

#include "diagnoser_state.h"

namespace denpex::logs {

struct DeviceRank {
  int rank = -1;
  int local_rank = -1;
  std::string node;
  std::string why;  // the sentence for the report
};

// NCCL's communicator lines (`... rank 2 nranks 4 cudaDev 2 ...`) decide when they tie the device
// to one rank. Without them, on what the log shows as one node, the launchers' default binding
// (torchrun, accelerate, Lightning, DeepSpeed: `cuda:LOCAL_RANK`) makes device N rank N, for N > 0
// only: with a per-process CUDA_VISIBLE_DEVICES every rank reports its GPU as `GPU 0`.
std::optional<DeviceRank> rank_on_device(const Diagnoser::State& st, int device);

}  // namespace denpex::logs
