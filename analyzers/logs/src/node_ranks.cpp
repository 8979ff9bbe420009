#include "node_ranks.h"

#include <set>

namespace denpex::logs {

int global_rank_of(const SourceInfo& s, int local) {
  if (local < 0) return -1;
  const auto& g = s.events.global_ranks();
  if (!g.empty()) return static_cast<size_t>(local) < g.size() ? g[static_cast<size_t>(local)] : -1;
  // Else the same agent's failure table: each row gives `rank : 2 (local_rank: 0)`, and a node's
  // workers hold consecutive global ranks, so every row's rank less its local rank is the node's
  // first rank (rows that disagree give nothing).
  int offset = -1;
  for (const auto* list : {&s.events.root_causes(), &s.events.other_failures()})
    for (const auto& f : *list) {
      if (f.rank < 0 || f.local_rank < 0 || f.rank < f.local_rank) continue;
      if (offset >= 0 && offset != f.rank - f.local_rank) return -1;
      offset = f.rank - f.local_rank;
    }
  return offset >= 0 ? offset + local : -1;
}

void resolve_node_local_ranks(Diagnoser::State& st) {
  std::set<std::string> nodes;
  for (const auto& s : st.sources)
    if (s.node_local) nodes.insert(s.node);
  if (nodes.empty()) return;
  for (auto& s : st.sources) {
    if (!s.node_local || s.rank >= 0) continue;
    // A line of its own named it after its first lines were read.
    if (auto it = st.node_local_rank.find({s.node, s.local_rank}); it != st.node_local_rank.end()) {
      s.rank = it->second;
      continue;
    }
    // The agent's lines on the same node, in the same input: unranked, with that node's prefix.
    for (const auto& agent : st.sources) {
      if (agent.input != s.input || agent.node != s.node || agent.node_local || agent.rank >= 0) continue;
      if (const int global = global_rank_of(agent, s.local_rank); global >= 0) s.rank = global;
    }
    if (s.rank < 0 && nodes.size() == 1) s.rank = s.local_rank;
  }
}

}  // namespace denpex::logs
