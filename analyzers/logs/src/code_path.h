#pragma once
// What a traceback's own frames say about which rank raised it, when no line of the log names a
// rank: some code runs on one rank only, by torch's design or by near-universal convention.
#include <optional>
#include <vector>

#include "denpex/logs/events.h"
#include "peer_lines.h"

namespace denpex::logs {

// The innermost frame of user code: not the standard library, not an installed package.
const StackFrame* user_frame(const std::vector<StackFrame>& stack);

// An exception raised while pickling the object of `broadcast_object_list` / `scatter_object_list`
// (`_object_to_tensor`): only the source rank pickles, so it is that rank's. The source is the
// call's `src=N` literal, or the default 0 when the call names none; nothing when `src` is a name.
std::optional<PeerFinding> object_source_rank(const ExceptionEvent& ex);

// `Address already in use` raised by the TCPStore of the default `env://` rendezvous
// (`_env_rendezvous_handler`, `_create_c10d_store`): only rank 0 starts the store's server and
// binds MASTER_PORT, the others connect to it, so it is rank 0's.
std::optional<PeerFinding> store_server_rank(const ExceptionEvent& ex);

// Every error is a client of that store timing out while connecting (`timeouts`, each raised in
// `_create_c10d_store`), one fewer than the ranks whose own lines the log shows, and rank 0's
// lines hold no error: rank 0 never served the store the others waited for (it ran alone, left, or
// joined another world). Rank 0, as an inference; nothing under torchrun (its agent serves the
// store) or when rank 0 is not seen.
std::optional<PeerFinding> absent_store_server(const std::vector<const ExceptionEvent*>& timeouts,
                                               const std::vector<PeerLine>& lines);

// An exception raised in work that scripts leave to rank 0 (saving a checkpoint or a model,
// creating the output directories, a debugger's prompt, experiment logging): rank 0, as a weak
// inference. Nothing when the failing line or the message speaks of ranks or shards (per-rank
// saves), where any rank may have raised it.
std::optional<PeerFinding> rank_zero_duty(const ExceptionEvent& ex);

}  // namespace denpex::logs
