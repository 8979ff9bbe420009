#include "device_rank.h"

#include <set>

namespace denpex::logs {

std::optional<DeviceRank> rank_on_device(const Diagnoser::State& st, int device) {
  if (device < 0) return std::nullopt;
  std::set<std::string> nodes(st.prefix_nodes.begin(), st.prefix_nodes.end());
  std::optional<DeviceRank> by_nccl;
  bool nccl_agrees = true;
  for (const auto& s : st.sources) {
    if (!s.node.empty()) nodes.insert(s.node);
    for (const auto& b : s.events.bus_ranks()) {
      const std::string host = !s.node.empty() ? s.node : b.host;
      if (!host.empty()) nodes.insert(host);
      if (b.cuda_dev != device) continue;
      const int rank = s.rank >= 0 ? s.rank : b.rank;
      if (by_nccl && by_nccl->rank != rank) nccl_agrees = false;
      if (!by_nccl)
        by_nccl = DeviceRank{rank, device, host,
                             "The error names GPU " + std::to_string(device) + ", and NCCL initialised rank " +
                                 std::to_string(rank) + "'s communicator on cudaDev " + std::to_string(device) + "."};
    }
  }
  // One communicator line per node holds each device: only one node's lines can decide.
  if (by_nccl && nccl_agrees) return by_nccl;
  if (by_nccl || device == 0 || nodes.size() > 1) return std::nullopt;
  return DeviceRank{device, device, nodes.empty() ? "" : *nodes.begin(),
                    "The error names GPU " + std::to_string(device) + " and no prefix names the process; the log shows "
                    "one node, where torchrun, accelerate, Lightning and DeepSpeed bind each rank to `cuda:LOCAL_RANK`, "
                    "so it is taken as rank " + std::to_string(device) + " (not so if each rank was given its own "
                    "CUDA_VISIBLE_DEVICES)."};
}

}  // namespace denpex::logs
