// Ranks read from the code a traceback shows, when no line names one: the source rank of an
// object broadcast pickles alone, and work that scripts leave to rank 0. Each is asked only for a
// failure of no rank inside a cascade, after every rule that reads the log's own words.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/diagnoser.h"
#include "diagnose.h"

using namespace denpex;

namespace {
logs::Report diagnose(const std::string& text) { return testing::diagnose_text(text); }

bool said(const logs::Diagnosis& d, const std::string& words) {
  for (const auto& f : d.findings)
    if (f.find(words) != std::string::npos) return true;
  return false;
}

// Two other processes losing the failed one, as gloo prints it (torch 1.13).
const std::string kPeersLost =
    "Traceback (most recent call last):\n"
    "  File \"/w/train.py\", line 31, in <module>\n"
    "    dist.barrier()\n"
    "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 3152, in barrier\n"
    "    work.wait()\n"
    "RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:43434\n"
    "Traceback (most recent call last):\n"
    "  File \"/w/train.py\", line 31, in <module>\n"
    "    dist.barrier()\n"
    "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 3152, in barrier\n"
    "    work.wait()\n"
    "RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:6531\n";

std::string pickling(const std::string& call) {
  return "Traceback (most recent call last):\n"
         "  File \"/w/train.py\", line 26, in main\n"
         "    " + call + "\n"
         "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 2078, in broadcast_object_list\n"
         "    tensor_list, size_list = zip(*[_object_to_tensor(obj, current_device) for obj in object_list])\n"
         "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1791, in _object_to_tensor\n"
         "    _pickler(f).dump(obj)\n"
         "TypeError: cannot pickle '_thread.lock' object\n";
}

std::string failing_line(const std::string& code, const std::string& exception) {
  return "Traceback (most recent call last):\n"
         "  File \"/w/train.py\", line 21, in <module>\n"
         "    " + code + "\n"
         "  File \"/usr/lib/python3/dist-packages/torch/serialization.py\", line 422, in save\n"
         "    with _open_zipfile_writer(f) as opened_zipfile:\n" +
         exception + "\n";
}
}  // namespace

TEST_CASE("an object broadcast that fails to pickle is the source rank's") {
  auto r = diagnose(pickling("dist.broadcast_object_list(obj, src=2)") + kPeersLost);
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->id == "unrecognized-exception");
  CHECK(r.diagnoses[0].initiating_rank == 2);
  CHECK(said(r.diagnoses[0], "names `src=2` as the source"));
  // No `src` in the call: the default, 0.
  auto dflt = diagnose(pickling("dist.broadcast_object_list(obj)") + kPeersLost);
  REQUIRE_FALSE(dflt.diagnoses.empty());
  CHECK(dflt.diagnoses[0].initiating_rank == 0);
  // A variable: no rank can be read.
  auto var = diagnose(pickling("dist.broadcast_object_list(obj, src=leader)") + kPeersLost);
  REQUIRE_FALSE(var.diagnoses.empty());
  CHECK(var.diagnoses[0].initiating_rank == -1);
}

TEST_CASE("a failure in work scripts leave to rank 0 is rank 0's, only inside a cascade") {
  const std::string denied = "PermissionError: [Errno 13] Permission denied: '/ckpt/model_40.pt'";
  auto r = diagnose(failing_line("torch.save(model.state_dict(), os.path.join(out, f\"model_{step}.pt\"))", denied) +
                    kPeersLost);
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].initiating_rank == 0);
  CHECK(said(r.diagnoses[0], "saving a checkpoint"));
  CHECK(said(r.diagnoses[0], "inference from convention"));
  // Each rank saves its own file: any of them may have failed.
  auto per_rank = diagnose(failing_line("torch.save(shard, f\"ckpt/rank{rank}.pt\")", denied) + kPeersLost);
  REQUIRE_FALSE(per_rank.diagnoses.empty());
  CHECK(per_rank.diagnoses[0].initiating_rank == -1);
  // Other work, nothing to read.
  auto other = diagnose(failing_line("loss = criterion(model(x), y)", denied) + kPeersLost);
  REQUIRE_FALSE(other.diagnoses.empty());
  CHECK(other.diagnoses[0].initiating_rank == -1);
  // No peer lost it: a single process, no rank to name.
  auto alone = diagnose(failing_line("torch.save(model.state_dict(), path)", denied));
  for (const auto& d : alone.diagnoses) CHECK(d.initiating_rank == -1);
}

TEST_CASE("a breakpoint() left in quits with bdb.BdbQuit, an exception that can initiate") {
  // Real shape, Python 3.11, stdin at /dev/null.
  const std::string quit =
      "> /w/train.py(14)<module>()\n"
      "-> for p in model.parameters(): dist.all_reduce(p.grad)\n"
      "(Pdb) \n"
      "Traceback (most recent call last):\n"
      "  File \"/w/train.py\", line 14, in <module>\n"
      "    for p in model.parameters(): dist.all_reduce(p.grad)\n"
      "  File \"/usr/lib/python3.11/bdb.py\", line 90, in trace_dispatch\n"
      "    return self.dispatch_line(frame)\n"
      "  File \"/usr/lib/python3.11/bdb.py\", line 115, in dispatch_line\n"
      "    if self.quitting: raise BdbQuit\n"
      "bdb.BdbQuit\n";
  auto r = diagnose(quit + kPeersLost);
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses[0].entry->id == "unrecognized-exception");
  CHECK(r.diagnoses[0].initiating_rank == 0);
  CHECK(said(r.diagnoses[0], "a debugger's prompt"));
}

TEST_CASE("a frame keeps the source line printed under it") {
  auto r = diagnose(pickling("dist.broadcast_object_list(obj, src=2)") + kPeersLost);
  REQUIRE_FALSE(r.diagnoses.empty());
  const auto& tb = r.diagnoses[0].traceback;
  REQUIRE(tb.size() == 3);
  CHECK(tb[0].code == "dist.broadcast_object_list(obj, src=2)");
  CHECK(tb[2].code == "_pickler(f).dump(obj)");
}

TEST_CASE("the env:// rendezvous store's port taken is rank 0's: only rank 0 starts its server") {
  // torch 1.x, launched with torch.distributed.launch: the store's system_error as it printed it.
  const std::string store =
      "Traceback (most recent call last):\n"
      "  File \"tools/train.py\", line 99, in main\n"
      "    backend=\"nccl\", init_method=\"env://\",\n"
      "  File \"/opt/conda/lib/python3.6/site-packages/torch/distributed/distributed_c10d.py\", line 406, in init_process_group\n"
      "    store, rank, world_size = next(rendezvous(url))\n"
      "  File \"/opt/conda/lib/python3.6/site-packages/torch/distributed/rendezvous.py\", line 143, in _env_rendezvous_handler\n"
      "    store = TCPStore(master_addr, master_port, world_size, start_daemon)\n"
      "RuntimeError: Address already in use\n";
  auto r = diagnose(store);
  REQUIRE_FALSE(r.diagnoses.empty());
  CHECK(r.diagnoses.front().entry->id == "store-address-in-use");
  CHECK(r.diagnoses.front().initiating_rank == 0);
  CHECK(said(r.diagnoses.front(), "only rank 0 starts that server"));

  SUBCASE("a store the script builds itself names no rank") {
    const std::string own =
        "Traceback (most recent call last):\n"
        "  File \"/w/store.py\", line 8, in <module>\n"
        "    s2 = dist.TCPStore(\"127.0.0.1\", 29598, 1, True)\n"
        "RuntimeError: Address already in use\n";
    auto q = diagnose(own);
    REQUIRE_FALSE(q.diagnoses.empty());
    CHECK(q.diagnoses.front().initiating_rank == -1);
  }
}
