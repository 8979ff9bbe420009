// Ranks read from the code a traceback shows; see code_path.h.
#include "code_path.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <string>

namespace denpex::logs {
namespace {

bool installed(const std::string& f) {
  return f.find("site-packages/") != std::string::npos || f.find("dist-packages/") != std::string::npos ||
         f.find("/lib/python3") != std::string::npos || f.starts_with("<");
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// `src=2` / `src = 2` in a call's source line: 2; -1 when it names none; -2 when `src` is not a
// literal (a variable, an expression).
int src_literal(std::string_view code) {
  for (size_t at = code.find("src"); at != std::string_view::npos; at = code.find("src", at + 1)) {
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(code[at - 1])) || code[at - 1] == '_')) continue;
    size_t i = at + 3;
    while (i < code.size() && code[i] == ' ') ++i;
    if (i >= code.size() || code[i] != '=' || (i + 1 < code.size() && code[i + 1] == '=')) continue;
    ++i;
    while (i < code.size() && code[i] == ' ') ++i;
    int n = 0;
    const size_t digits = i;
    while (i < code.size() && code[i] >= '0' && code[i] <= '9' && i - digits < 6) n = n * 10 + (code[i++] - '0');
    if (i == digits || (i < code.size() && (std::isalnum(static_cast<unsigned char>(code[i])) || code[i] == '_' ||
                                            code[i] == '.' || code[i] == '[')))
      return -2;
    return n;
  }
  return -1;
}

}  // namespace

const StackFrame* user_frame(const std::vector<StackFrame>& stack) {
  for (auto it = stack.rbegin(); it != stack.rend(); ++it)
    if (!installed(it->file)) return &*it;
  return nullptr;
}

std::optional<PeerFinding> object_source_rank(const ExceptionEvent& ex) {
  const auto pickling = std::find_if(ex.stack.begin(), ex.stack.end(), [](const StackFrame& f) {
    return f.function == "_object_to_tensor" && f.file.ends_with("distributed_c10d.py");
  });
  if (pickling == ex.stack.end()) return std::nullopt;
  // The call into torch: the last frame before the first one in distributed_c10d.py.
  const auto into = std::find_if(ex.stack.begin(), pickling, [](const StackFrame& f) {
    return f.file.ends_with("distributed_c10d.py");
  });
  if (into == ex.stack.begin() || (into->function != "broadcast_object_list" && into->function != "scatter_object_list"))
    return std::nullopt;
  const StackFrame& caller = *(into - 1);
  const int src = src_literal(caller.code);
  if (src == -2 || (src == -1 && caller.code.empty())) return std::nullopt;
  const int rank = src < 0 ? 0 : src;
  const std::string call = into->function;
  return PeerFinding{rank,
                     ex.type + " was raised while " + call + " pickled its object (`_object_to_tensor`), which only "
                     "the source rank does; the call (" + caller.file + ":" + std::to_string(caller.line) + ", `" +
                     caller.code + "`) " + (src < 0 ? "names no `src`, so the default 0 is" : "names `src=" +
                     std::to_string(src) + "` as") + " the source: the other ranks waited for it.",
                     "failed to pickle the object it was broadcasting to the others"};
}

std::optional<PeerFinding> store_server_rank(const ExceptionEvent& ex) {
  if (ex.message.find("Address already in use") == std::string::npos) return std::nullopt;
  const auto store = std::find_if(ex.stack.begin(), ex.stack.end(), [](const StackFrame& f) {
    return (f.function == "_env_rendezvous_handler" || f.function == "_create_c10d_store") &&
           f.file.find("torch/distributed/") != std::string::npos;
  });
  if (store == ex.stack.end()) return std::nullopt;
  return PeerFinding{0,
                     "The port was taken when the rendezvous store started its server (" + store->function + ", " +
                     store->file + ":" + std::to_string(store->line) + "): with `env://` only rank 0 starts that server "
                     "(`start_daemon = rank == 0`) and binds MASTER_PORT, the other ranks connect to it.",
                     "could not bind MASTER_PORT for the rendezvous store"};
}

std::optional<PeerFinding> absent_store_server(const std::vector<const ExceptionEvent*>& timeouts,
                                               const std::vector<PeerLine>& lines) {
  if (timeouts.empty()) return std::nullopt;
  for (const ExceptionEvent* ex : timeouts) {
    const bool client = std::any_of(ex->stack.begin(), ex->stack.end(), [](const StackFrame& f) {
      return f.function == "_create_c10d_store" && f.file.find("torch/distributed/") != std::string::npos;
    });
    if (!client) return std::nullopt;
  }
  std::set<int> ranks;
  const PeerLine* zero = nullptr;
  for (const auto& l : lines) {
    ranks.insert(l.rank);
    if (l.rank != 0) continue;
    if (l.error) return std::nullopt;
    zero = &l;
  }
  if (!zero || ranks.size() != timeouts.size() + 1) return std::nullopt;
  return PeerFinding{0,
                     std::to_string(timeouts.size()) + " processes timed out connecting to the rendezvous store, one fewer than "
                     "the " + std::to_string(ranks.size()) + " ranks the log shows, and rank 0 reported no error (its last line: `" +
                         zero->text.substr(0, 160) + "`, " + zero->where + "): with `env://` rank 0 serves that store, so rank 0 "
                         "never served it (it ran alone, left early, or joined another world; check its WORLD_SIZE, "
                         "MASTER_ADDR and MASTER_PORT).",
                     "never served the rendezvous store the other ranks tried to reach"};
}

std::optional<PeerFinding> rank_zero_duty(const ExceptionEvent& ex) {
  const StackFrame* user = user_frame(ex.stack);
  if (!user || user->code.empty()) return std::nullopt;
  const std::string code = lower(user->code), message = lower(ex.message);
  for (std::string_view per_rank : {"rank", "shard", "local_", "process_index", "device"})
    if (code.find(per_rank) != std::string::npos || message.find(per_rank) != std::string::npos) return std::nullopt;
  struct Duty {
    std::string_view call, what;
  };
  static constexpr Duty kDuties[] = {
      {"torch.save(", "saving a checkpoint"},        {".save_pretrained(", "saving the model"},
      {"save_checkpoint(", "saving a checkpoint"},   {"save_model(", "saving the model"},
      {"os.makedirs(", "creating the output directories"}, {".mkdir(", "creating the output directories"},
      {"breakpoint(", "a debugger's prompt"},
      {"pdb.set_trace(", "a debugger's prompt"},     {"wandb.", "experiment logging"},
      {"summarywriter(", "experiment logging"},      {"writer.add_", "experiment logging"},
  };
  std::string_view what;
  for (const Duty& d : kDuties)
    if (code.find(d.call) != std::string::npos) {
      what = d.what;
      break;
    }
  // A debugger quit (`bdb.BdbQuit`) raises in bdb.py from whatever line was stepped.
  if (what.empty() && ex.type.ends_with("BdbQuit")) what = "a debugger's prompt";
  if (what.empty()) return std::nullopt;
  return PeerFinding{0,
                     ex.type + " was raised in " + std::string(what) + " (" + user->file + ":" +
                         std::to_string(user->line) + ", `" + user->code + "`), work that training scripts leave "
                         "to rank 0 (`if rank == 0:`); no line names the rank, so this is an inference from "
                         "convention. Check the condition around that line.",
                     std::string(what) + " failed"};
}

}  // namespace denpex::logs
