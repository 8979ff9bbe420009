#pragma once
// Local ranks behind host prefixes: torchrun's `[default1]:` inside pdsh's `gpu-b02: ` or GNU
// parallel's tag names a process by node and local rank; the global rank comes from what the
// log shows about that node.
#include "diagnoser_state.h"

namespace denpex::logs {

// The global rank of a local rank on the node whose agent printed its rendezvous result in this
// source (`global_ranks=[4, 5, 6, 7]`) or its failure table (`rank : 3 (local_rank: 1)`), or -1
// when the log does not show the mapping.
int global_rank_of(const SourceInfo& s, int local);

// Gives each (node, local rank) source that no line of its own tied to a global rank one, once
// every line is read: its agent's mapping on that node, else the local rank itself when the log
// shows a single node. Sources the log cannot place stay unranked (`a process on <node>`).
void resolve_node_local_ranks(Diagnoser::State& st);

}  // namespace denpex::logs
