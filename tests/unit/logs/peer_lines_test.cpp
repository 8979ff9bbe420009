// When no prefix, launcher or message names the initiating rank, the ranks' own healthy lines
// may: the one rank that logged an error, the one whose output stopped first, the one whose setup
// differs, the one that kept working while the others timed out. Each rule also has a case where
// the lines say nothing, and there it must name no rank.
#include <doctest/doctest.h>

#include <string>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/attribution.h"
#include "denpex/logs/diagnoser.h"
#include "diagnose.h"

using namespace denpex;

namespace {
logs::Report diagnose(const std::string& text) { return testing::diagnose_text(text); }

int rank_of(const logs::Report& r) {
  REQUIRE_FALSE(r.diagnoses.empty());
  return r.diagnoses.front().initiating_rank;
}

bool says(const logs::Report& r, std::string_view words) {
  for (const auto& f : r.diagnoses.front().findings)
    if (f.find(words) != std::string::npos) return true;
  return false;
}

// Real gloo output of torch 1.13 (CPU), as a peer of a crashed rank prints it.
const char* kClosed =
    "Traceback (most recent call last):\n"
    "  File \"/w/train.py\", line 41, in <module>\n"
    "    dist.all_reduce(loss)\n"
    "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1536, in all_reduce\n"
    "    work.wait()\n"
    "RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:18844\n";
const char* kStop =
    "Traceback (most recent call last):\n"
    "  File \"/w/train.py\", line 30, in <module>\n"
    "    batch = next(it)\n"
    "StopIteration\n";
}  // namespace

TEST_CASE("a glog head's number is the writing process's id") {
  CHECK(logs::logged_pid("I1202 13:51:13.753002   14764 trainer.py:18] Initialized process group: rank 3 of 4") == 14764);
  CHECK(logs::logged_pid("W1202 13:51:14.644448 14764 trainer.py:29] loss 145.7 is unusually high") == 14764);
  CHECK(logs::logged_pid("I1202 13:51:13 trainer.py:18] no pid here") == -1);
  CHECK(logs::logged_pid("INFO 13:51:13.75 14764 not glog") == -1);
}

TEST_CASE("Python logging's %(process)d behind the clock is the writing process's id") {
  // Real heads of held-out 5503 and 5604; the clock is taken off before the body is read.
  CHECK(logs::logged_pid("6783 INFO step 0 loss 1.4201 lr 0.1000") == 6783);
  CHECK(logs::logged_pid("[25281] INFO trainer: epoch 1: 160 rows") == 25281);
  CHECK(logs::logged_pid("[3] INFO trainer: epoch 1") == -1);  // a rank's own print, not a pid
  CHECK(logs::logged_pid("25281 rows read") == -1);
  CHECK(logs::logged_pid("[25281 INFO x") == -1);
}

TEST_CASE("pid-only logging heads reach their ranks through the lines that tie pid and rank") {
  // Real output (held-out 5604, torch 1.13 under torchrun, 3 gloo ranks): lines carry only the
  // pid; each rank's first line ties its pid to its rank.
  const std::string log =
      "2026-12-07 22:43:17,672 [25283] INFO trainer: starting pid=25283 rank=2 local_rank=2 world=3 host=localhost\n"
      "2026-12-07 22:43:17,744 [25281] INFO trainer: starting pid=25281 rank=0 local_rank=0 world=3 host=localhost\n"
      "2026-12-07 22:43:17,823 [25282] INFO trainer: starting pid=25282 rank=1 local_rank=1 world=3 host=localhost\n"
      "2026-12-07 22:43:18,432 [25281] INFO trainer: epoch 1 step 10 loss 1.8243 avg 1.4351\n"
      "2026-12-07 22:43:18,433 [25282] INFO trainer: epoch 1 step 10 loss 0.8881 avg 1.4351\n"
      "2026-12-07 22:43:18,433 [25283] INFO trainer: epoch 1 step 10 loss 1.5930 avg 1.4351\n"
      "2026-12-07 22:43:18,718 [25281] INFO trainer: step 15: sanitizing weights before histogram export\n"
      "Traceback (most recent call last):\n"
      "  File \"/work/main/bench/causality/heldout56/jobs/train.py\", line 82, in <module>\n"
      "    prm.clamp_(-0.5, 0.5)\n"
      "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.\n"
      "Traceback (most recent call last):\n"
      "  File \"/work/main/bench/causality/heldout56/jobs/train.py\", line 83, in <module>\n"
      "    t = torch.tensor([loss.item()]); dist.all_reduce(t); avg = t.item() / world\n"
      "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541, in all_reduce\n"
      "    work.wait()\n"
      "RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:24721\n"
      "Traceback (most recent call last):\n"
      "  File \"/work/main/bench/causality/heldout56/jobs/train.py\", line 83, in <module>\n"
      "    t = torch.tensor([loss.item()]); dist.all_reduce(t); avg = t.item() / world\n"
      "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541, in all_reduce\n"
      "    work.wait()\n"
      "RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:8875\n";
  CHECK(rank_of(diagnose(log)) == 0);
}

TEST_CASE("the one rank whose one-off setup report differs initiates an unranked failure") {
  const std::string setup =
      "rank 0: 12 batches in shard, training 12 steps\n"
      "rank 1: 9 batches in shard, training 12 steps\n"
      "rank 2: 12 batches in shard, training 12 steps\n"
      "rank 0: step 8 loss 0.41\nrank 2: step 8 loss 0.39\nrank 1: step 8 loss 0.44\n";
  auto r = diagnose(setup + kStop + kClosed + kClosed);
  CHECK(rank_of(r) == 1);
  CHECK(says(r, "Rank 1 reported 9 where ranks 0, 2 all reported 12"));

  SUBCASE("every rank reports the same: no rank is named") {
    std::string same = setup;
    same.replace(same.find("9 batches"), 1, "12");
    CHECK(rank_of(diagnose(same + kStop + kClosed + kClosed)) == -1);
  }
  SUBCASE("two reports single out two ranks: no rank is named") {
    const std::string both = setup + "rank 0: seed 7\nrank 1: seed 7\nrank 2: seed 8\n";
    CHECK(rank_of(diagnose(both + kStop + kClosed + kClosed)) == -1);
  }
  SUBCASE("two ranks cannot say which one is odd") {
    CHECK(rank_of(diagnose("rank 0: 12 batches in shard\nrank 1: 9 batches in shard\n" + std::string(kStop) + kClosed)) ==
          -1);
  }
}

TEST_CASE("the one rank whose one-off count is 0 initiates, though no two peers' counts agree") {
  const std::string split =
      "rank 0: eval split has 5 batches\n"
      "rank 1: eval split has 0 batches\n"
      "rank 2: eval split has 9 batches\n"
      "rank 3: eval split has 11 batches\n";
  auto r = diagnose(split + kStop + kClosed + kClosed);
  CHECK(rank_of(r) == 1);
  CHECK(says(r, "Rank 1 reported 0 where ranks 0, 2, 3 all reported counts above 0"));

  SUBCASE("two empty ranks: no rank is named") {
    std::string two = split;
    two.replace(two.find("9 batches"), 1, "0");
    CHECK(rank_of(diagnose(two + kStop + kClosed + kClosed)) == -1);
  }
  SUBCASE("one peer beside the empty rank is too few to compare with") {
    CHECK(rank_of(diagnose("rank 0: eval split has 5 batches\nrank 1: eval split has 0 batches\n" + std::string(kStop) +
                           kClosed)) == -1);
  }
  SUBCASE("a count every rank logs at 0 (a first step) singles out nobody") {
    CHECK(rank_of(diagnose("rank 0: epoch 0 has 5 batches\nrank 1: epoch 0 has 7 batches\nrank 2: epoch 0 has 9 batches\n" +
                           std::string(kStop) + kClosed + kClosed)) == -1);
  }
}

TEST_CASE("the rank whose output stopped first initiates: its peers logged a step it never did") {
  // glog heads carry the pid; the process group line ties each pid to its rank.
  const std::string log =
      "I1202 13:51:13.747332   14758 trainer.py:18] Initialized process group: rank 0 of 4\n"
      "I1202 13:51:13.750295   14759 trainer.py:18] Initialized process group: rank 1 of 4\n"
      "I1202 13:51:13.750280   14762 trainer.py:18] Initialized process group: rank 2 of 4\n"
      "I1202 13:51:13.753002   14764 trainer.py:18] Initialized process group: rank 3 of 4\n"
      "I1202 13:51:14.974227   14758 trainer.py:27] step 12 loss 2.220 ppl 9.21\n"
      "I1202 13:51:14.974827   14759 trainer.py:27] step 12 loss 2.220 ppl 9.21\n"
      "I1202 13:51:14.975110   14764 trainer.py:27] step 12 loss 328.200 ppl 3.4e+142\n"
      "I1202 13:51:14.975403   14762 trainer.py:27] step 12 loss 2.220 ppl 9.21\n"
      "W1202 13:51:15.080348   14764 trainer.py:29] loss 412.7 is unusually high\n"
      "I1202 13:51:15.404043   14758 trainer.py:27] step 16 loss 1.966 ppl 7.14\n"
      "Traceback (most recent call last):\n"
      "I1202 13:51:15.405694   14759 trainer.py:27] step 16 loss 1.966 ppl 7.14\n"
      "I1202 13:51:15.406302   14762 trainer.py:27] step 16 loss 1.966 ppl 7.14\n"
      "  File \"/w/trainer.py\", line 26, in <module>\n"
      "    ppl = math.exp(loss.item())\n"
      "OverflowError: math range error\n";
  auto r = diagnose(log + kClosed + kClosed + kClosed);
  CHECK(rank_of(r) == 3);
  CHECK(says(r, "rank 3 never did: its output stopped first"));

  SUBCASE("every rank's last step is the same: no rank is named") {
    const std::string even =
        "rank=0 step=12\nrank=1 step=12\nrank=2 step=12\nrank=0 step=13\nrank=2 step=13\nrank=1 step=13\n";
    CHECK(rank_of(diagnose(even + kStop + kClosed + kClosed)) == -1);
  }
}

TEST_CASE("the one rank that logged an error before the symptoms initiates, by the pid it logged under") {
  const std::string log =
      "2026-12-02 04:39:24,546 [pid 12871] INFO train: process group ready: rank 0 of 3 (pid 12871)\n"
      "2026-12-02 04:39:24,555 [pid 12872] INFO train: process group ready: rank 1 of 3 (pid 12872)\n"
      "2026-12-02 04:39:24,557 [pid 12873] INFO train: process group ready: rank 2 of 3 (pid 12873)\n"
      "2026-12-02 04:39:25,506 [pid 12871] INFO train: step 6 |w|=0.0819\n"
      "2026-12-02 04:39:25,507 [pid 12873] INFO train: step 6 |w|=0.0819\n"
      "2026-12-02 04:39:25,507 [pid 12872] INFO train: step 6 |w|=0.0819\n"
      "2026-12-02 04:39:25,663 [pid 12872] ERROR train: health check failed: non-finite loss scale, hard exit\n";
  auto r = diagnose(log + kClosed + kClosed);
  CHECK(rank_of(r) == 1);
  CHECK(says(r, "Rank 1 logged an error of its own"));

  SUBCASE("two ranks logged errors: no rank is named by them") {
    const std::string two = log + "2026-12-02 04:39:25,664 [pid 12873] ERROR train: health check failed\n";
    CHECK(rank_of(diagnose(two + kClosed)) == -1);
  }
}

TEST_CASE("a rank that went on logging after its peers timed out is the one they waited for") {
  const char* timeout =
      "Traceback (most recent call last):\n"
      "  File \"/w/train.py\", line 20, in <module>\n"
      "    dist.barrier()\n"
      "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 3152, in barrier\n"
      "    work.wait()\n"
      "RuntimeError: [./gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 10000ms for recv operation to "
      "complete\n";
  const std::string before =
      "2026-12-02T04:50:01.120 [rank 0] INFO artifact sync done\n"
      "2026-12-02T04:50:01.121 [rank 2] INFO artifact sync done\n"
      "2026-12-02T04:50:01.122 [rank 1] INFO syncing artifacts\n";
  auto r = diagnose(before + timeout + timeout + "2026-12-02T04:50:26.300 [rank 1] INFO artifact sync done\n");
  CHECK(rank_of(r) == 1);
  CHECK(says(r, "Rank 1 went on logging after the first timeout"));
  CHECK(r.diagnoses.front().chain.front().starts_with("rank 1: still busy elsewhere"));

  SUBCASE("nobody logged after the timeouts: no rank is named") {
    CHECK(rank_of(diagnose(before + timeout + timeout)) == -1);
  }
}

TEST_CASE("the one rank that said it was stopping before its peers lost it initiates") {
  const std::string log =
      "rank 0/3: epoch 3 val_loss 0.740\n"
      "rank 1/3: epoch 3 val_loss 0.440\n"
      "rank 2/3: epoch 3 val_loss 0.440\n"
      "rank 0/3: early stopping: no improvement for 2 epochs, shutting down\n";
  auto r = diagnose(log + kClosed + kClosed);
  CHECK(rank_of(r) == 0);
  CHECK(says(r, "Rank 0 said it was stopping"));

  SUBCASE("every rank says so: no rank is named") {
    const std::string all =
        "rank 1/3: early stopping: no improvement for 2 epochs, shutting down\n"
        "rank 2/3: early stopping: no improvement for 2 epochs, shutting down\n" + log;
    CHECK(rank_of(diagnose(all + kClosed + kClosed)) == -1);
  }
}

TEST_CASE("the one rank that logged the path a failure names initiates it") {
  // Python's default logging format with a logger per rank, as a real 2-rank job printed it.
  const std::string log =
      "INFO:rank1:step 4 loss 0.2458\n"
      "INFO:rank0:step 4 loss 0.2821\n"
      "INFO:rank0:saving checkpoint to /tmp/ckpt-ro/checkpoint-4.pt\n"
      "Traceback (most recent call last):\n"
      "  File \"/w/readonly_ckpt.py\", line 24, in <module>\n"
      "    with open(path, \"wb\") as f:\n"
      "PermissionError: [Errno 13] Permission denied: '/tmp/ckpt-ro/checkpoint-4.pt'\n";
  auto r = diagnose(log + kClosed);
  CHECK(rank_of(r) == 0);
  CHECK(says(r, "names a path that rank 0, and no other rank, named"));

  SUBCASE("every rank logged it: no rank is named") {
    CHECK(rank_of(diagnose("INFO:rank1:saving checkpoint to /tmp/ckpt-ro/checkpoint-4.pt\n" + log + kClosed)) == -1);
  }
}

TEST_CASE("the one rank that said it took the numbered piece a failing path names initiates it") {
  // Real 3-rank output of torch 1.13 started from a shell loop: shards rotate over the ranks.
  const std::string head =
      "rank 0 epoch 1: loading shard 3\n"
      "rank 2 epoch 0 done, last loss 1.4016\n"
      "rank 2 epoch 1: loading shard 5\n";
  const std::string missing =
      "Traceback (most recent call last):\n"
      "  File \"/tmp/job/train.py\", line 15, in open_shard\n"
      "    with open(path, \"rb\") as f:\n"
      "FileNotFoundError: [Errno 2] No such file or directory: 'data/frames/part-00005.npy'\n"
      "rank 1 epoch 1: loading shard 4\n";
  auto r = diagnose(head + missing + kClosed + kClosed);
  CHECK(rank_of(r) == 2);
  CHECK(says(r, "names a file numbered 5, and rank 2, and no other rank, said it was taking piece 5"));

  SUBCASE("no rank named that piece: no rank is named") {
    CHECK(rank_of(diagnose("rank 0 epoch 1: loading shard 3\nrank 2 epoch 1: loading shard 6\n" + missing + kClosed)) == -1);
  }
  SUBCASE("a number only inside another word is no piece: shard 15 is not shard 5") {
    CHECK(rank_of(diagnose("rank 0 epoch 1: loading shard 3\nrank 2 epoch 1: loading shard 15\n" + missing + kClosed)) == -1);
  }
}

TEST_CASE("a pod's or container's failure is the rank its own lines name") {
  const std::string pods =
      "[pod/tabular-ddp-master-0/pytorch] vm world_size=3 rank=0\n"
      "[pod/tabular-ddp-worker-0/pytorch] vm world_size=3 rank=1\n"
      "[pod/tabular-ddp-worker-1/pytorch] vm world_size=3 rank=2\n"
      "[pod/tabular-ddp-worker-0/pytorch] Traceback (most recent call last):\n"
      "[pod/tabular-ddp-worker-0/pytorch]   File \"/w/train.py\", line 37, in <module>\n"
      "[pod/tabular-ddp-worker-0/pytorch] RuntimeError: mat1 and mat2 shapes cannot be multiplied (8x14 and 12x16)\n";
  auto r = diagnose(pods);
  CHECK(rank_of(r) == 1);
  CHECK(r.diagnoses.front().initiating_node == "tabular-ddp-worker-0");

  // `docker compose logs`: the container's name, padded, then `| `.
  const std::string compose =
      "trainer-1  | rank 0/4: 160 samples, 20 batches per epoch\n"
      "trainer-2  | rank 1/4: 160 samples, 20 batches per epoch\n"
      "trainer-4  | rank 3/4: 160 samples, 20 batches per epoch\n"
      "trainer-4  | Traceback (most recent call last):\n"
      "trainer-4  |   File \"/w/train.py\", line 50, in <module>\n"
      "trainer-4  | KeyError: 'labels'\n";
  auto c = diagnose(compose);
  CHECK(rank_of(c) == 3);
  CHECK(c.diagnoses.front().initiating_node == "trainer-4");
  logs::Attribution a = logs::attribute_line("trainer-4  | KeyError: 'labels'");
  CHECK(a.node == "trainer-4");
  CHECK(a.node_prefix);
  CHECK(logs::attribute_line("step-1 |loss").node.empty());
  CHECK(logs::attribute_line("epoch | 3 | loss").node.empty());

  SUBCASE("a host whose lines name several ranks names none of them") {
    std::string many = pods;
    many.insert(0, "[pod/tabular-ddp-worker-0/pytorch] vm world_size=3 rank=2\n");
    CHECK(rank_of(diagnose(many)) == -1);
  }
}

TEST_CASE("a script's banner between concatenated rank files heads that file's lines") {
  const std::string log = "----- logs/rank0.log -----\n" + std::string(kStop) + "----- logs/rank1.log -----\n" + kClosed +
                          "----- logs/rank2.log -----\n" + kClosed;
  CHECK(rank_of(diagnose(log)) == 0);
  // A banner around a file of nobody's keeps the lines unranked.
  const std::string other = "=== config.txt ===\n" + std::string(kStop) + kClosed + kClosed;
  CHECK(rank_of(diagnose(other)) == -1);
}

TEST_CASE("a logger's [R/W] at the head of a line is the rank of that world") {
  CHECK(logs::logged_rank("2026-12-02 18:53:10,765 [2/4] ERROR step 8 failed") == 2);
  CHECK(logs::logged_rank("[3/4] INFO step 0") == 3);
  CHECK(logs::logged_rank("2026-12-02T18:53:10Z [1/8] WARNING slow") == 1);
  CHECK(logs::logged_rank("Epoch [1/5] loss 0.3") == -1);  // behind a word: a counter
  CHECK(logs::logged_rank("[5/4] INFO") == -1);             // not a rank of that world
  CHECK(logs::logged_rank("[1/1] INFO") == -1);
  CHECK(logs::logged_rank("[2/4]x") == -1);
  // A job's own head of host, rank of world and local rank (bench/causality/heldout47).
  CHECK(logs::logged_rank("[trn-b02 r3/4 l1] step 10/40 loss 0.6629") == 3);
  CHECK(logs::logged_rank("[gpu-b02 2/4 l0] joined") == 2);
  CHECK(logs::logged_rank("[trn-b02 r5/4 l1] x") == -1);
  CHECK(logs::logged_rank("[trn-b02 rx3/4] x") == -1);
  CHECK(logs::logged_rank("loss [trn r3/4] x") == -1);  // behind a word
  // A job's tag and its rank (bench/causality/heldout49, 4904); not a lone word, not four words.
  CHECK(logs::logged_rank("[ctr r3] start: world_size=4 distributed=True") == 3);
  CHECK(logs::logged_rank("[r3] start") == -1);
  CHECK(logs::logged_rank("[a b c r3] start") == -1);
  CHECK(logs::logged_rank("[ctr rx3] start") == -1);
}

TEST_CASE("the one rank that logged a non-finite number initiates a failure of no rank") {
  const std::string log =
      "INFO:trainer.rank0:loaded 480 readings, feature range [-3.52, 3.61]\n"
      "INFO:trainer.rank1:loaded 480 readings, feature range [-3.81, inf]\n"
      "INFO:trainer.rank2:loaded 480 readings, feature range [-3.40, 3.77]\n"
      "Traceback (most recent call last):\n"
      "  File \"/w/train.py\", line 44, in <module>\n"
      "    assert torch.isfinite(loss), f\"loss is {loss.item()}\"\n"
      "AssertionError: loss is nan\n";
  auto r = diagnose(log + kClosed + kClosed);
  CHECK(rank_of(r) == 1);
  CHECK(says(r, "Rank 1, and no other rank, logged a non-finite number"));
  SUBCASE("words that hold the letters are not numbers") {
    std::string words = log;
    words.replace(words.find("inf]"), 3, "3.9");
    words.insert(0, "INFO:trainer.rank2:info: infra ready, nanny off\n");
    CHECK(rank_of(diagnose(words + kClosed + kClosed)) == -1);
  }
}

TEST_CASE("an error line of no rank names a file beside one rank's: that rank's, when only peers' symptoms follow") {
  const std::string log =
      "rank 0: epoch 1 -> data/part-0b.bin\n"
      "rank 2: epoch 1 -> data/part-2b.bin\n"
      "rank 3: epoch 1 -> data/part-3b.bin\n"
      "error: data/part-3b.idx: index format v1 is not supported by this loader (need v2).\n"
      "rank 1: epoch 1 -> data/part-1b.bin\n";
  auto r = diagnose(log + kClosed + kClosed + kClosed);
  CHECK(rank_of(r) == 3);
  CHECK(says(r, "names a path that rank 3"));
  SUBCASE("the error names the file alone, the rank its whole path") {
    const std::string bare =
        "22:26:10 rank=0 rows=480 verifying data/shard-00000.npy in background\n"
        "22:26:10 rank=3 rows=480 verifying data/shard-00003.npy in background\n"
        "22:26:10 rank=1 rows=480 verifying data/shard-00001.npy in background\n"
        "fatal: checksum mismatch for shard-00003.npy, aborting\n";
    auto q = diagnose(bare + kClosed + kClosed + kClosed);
    CHECK(rank_of(q) == 3);
    CHECK(says(q, "names a path that rank 3"));
    // A version is no file name; a name that only ends like the rank's path is another file.
    std::string version = bare;
    version.replace(version.find("shard-00003.npy"), 15, "format 1.13.1");
    CHECK(rank_of(diagnose(version + kClosed + kClosed + kClosed)) == -1);
    std::string suffix = bare;
    suffix.replace(suffix.find("for shard-00003.npy"), 19, "for rd-00003.npy");
    CHECK(rank_of(diagnose(suffix + kClosed + kClosed + kClosed)) == -1);
  }
  SUBCASE("a path no rank named: no rank is named") {
    std::string other = log;
    other.replace(other.find("data/part-3b.idx"), 16, "data/vocab-v1.idx");
    CHECK(rank_of(diagnose(other + kClosed + kClosed + kClosed)) == -1);
  }
}

TEST_CASE("a worker label in a column of its own after the clock is the line's rank") {
  // A job's own logger: `clock  label  message`, the label the rank under a word of the job's.
  const std::string setup =
      "11:20:01.104  worker-0  reading part-0.bin: 640 records\n"
      "11:20:01.109  worker-1  reading part-1.bin: 640 records\n"
      "11:20:01.111  worker-2  reading part-2.bin: 212 records\n"
      "11:20:01.118  worker-3  reading part-3.bin: 640 records\n"
      "11:20:02.310  worker-0  step 10 loss 0.8812\n"
      "11:20:02.311  worker-2  step 10 loss 0.8790\n"
      "11:20:02.313  worker-1  step 10 loss 0.8640\n"
      "11:20:02.316  worker-3  step 10 loss 0.8701\n";
  auto r = diagnose(setup + kStop + kClosed + kClosed + kClosed);
  CHECK(rank_of(r) == 2);
  CHECK(says(r, "Rank 2 reported 212 where ranks 0, 1, 3 all reported 640"));

  SUBCASE("an ISO clock, a short label and a step every rank but one logged") {
    std::string log;
    for (int step = 10; step <= 30; step += 10)
      for (int w : {1, 0, 3, 2})
        if (!(step == 30 && w == 1))
          log += "2026-04-02T10:00:" + std::to_string(step) + ".500Z w" + std::to_string(w) + " step=" + std::to_string(step) +
                 " loss=2.31" + std::to_string(w) + "\n";
    auto q = diagnose(log + kStop + kClosed + kClosed + kClosed);
    CHECK(rank_of(q) == 1);
    CHECK(says(q, "rank 1 never did: its output stopped first"));
  }
  SUBCASE("the logger's level between the clock and the label; the quiet rank's last line is in the last restart") {
    // `%(asctime)s %(levelname)s [r%(rank)d] %(message)s` under torchrun --max_restarts: every
    // attempt the same rank stops after its setup line, its peers go on to step 4.
    std::string log;
    for (int attempt = 0; attempt < 2; ++attempt) {
      const std::string at = "2026-12-04 22:2" + std::to_string(5 + attempt) + ":";
      for (int w : {0, 2, 1})
        log += at + "04,83" + std::to_string(w) + " INFO [r" + std::to_string(w) + "] start: world=3 restart_count=" +
               std::to_string(attempt) + "\n";
      log += at + "05,100 INFO [r0] epoch 0 step 4 loss 2.5108 (33% of shard)\n";
      log += at + "05,101 INFO [r2] epoch 0 step 4 loss 2.5186 (33% of shard)\n";
      log += std::string(kStop) + kClosed + kClosed;
    }
    auto q = diagnose(log);
    CHECK(rank_of(q) == 1);
    CHECK(says(q, "rank 1 never did: its output stopped first"));
    for (std::string_view level : {" - INFO - [r", " [INFO] [r", " | WARNING | [r"}) {
      std::string other = log;
      for (size_t at = other.find(" INFO [r"); at != std::string::npos; at = other.find(" INFO [r", at + level.size()))
        other.replace(at, 8, level);
      CHECK(rank_of(diagnose(other)) == 1);
    }
    // A word that is no level (a module's name) is the text's own: no column follows it.
    std::string module = log;
    for (size_t at = module.find(" INFO [r"); at != std::string::npos; at = module.find(" INFO [r", at + 1))
      module.replace(at, 5, " data");
    CHECK(rank_of(diagnose(module)) == -1);
  }
  SUBCASE("labels that are not ranks: one number only, no 0, or a word that is no rank's") {
    const std::string one =
        "11:20:01.104  worker-5  reading part-5.bin: 640 records\n"
        "11:20:01.109  worker-5  reading part-6.bin: 212 records\n"
        "11:20:01.111  worker-5  reading part-7.bin: 640 records\n"
        "11:20:01.118  worker-5  reading part-8.bin: 640 records\n";
    CHECK(rank_of(diagnose(one + kStop + kClosed + kClosed)) == -1);
    std::string no_zero = setup;
    for (size_t at = no_zero.find("worker-"); at != std::string::npos; at = no_zero.find("worker-", at + 1))
      no_zero[at + 7] = static_cast<char>(no_zero[at + 7] + 1);  // workers 1..4
    CHECK(rank_of(diagnose(no_zero + kStop + kClosed + kClosed + kClosed)) == -1);
    std::string gpu = setup;
    for (size_t at = gpu.find("worker-"); at != std::string::npos; at = gpu.find("worker-", at + 1)) gpu.replace(at, 7, "cuda:");
    CHECK(rank_of(diagnose(gpu + kStop + kClosed + kClosed + kClosed)) == -1);
  }
}

TEST_CASE("of the ranks that did not time out, the one last seen in other work is the one they waited for") {
  // Real 4-rank output of torch 1.13 behind torchrun's [rankN]: prefixes (CI, under load): rank 1
  // writes an eval sample for 9 s; ranks 0 and 2 time out after 6 s, rank 3 loses rank 0 first.
  const std::string log =
      "----------------------------------------------------------\n"
      "[rank0]:2026-12-03 12:37:38,346 INFO Added key: store_based_barrier_key:1 to store for rank: 0\n"
      "[rank2]:2026-12-03 12:37:38,357 INFO Added key: store_based_barrier_key:1 to store for rank: 2\n"
      "[rank3]:2026-12-03 12:37:38,358 INFO Added key: store_based_barrier_key:1 to store for rank: 3\n"
      "[rank1]:2026-12-03 12:37:38,357 INFO Added key: store_based_barrier_key:1 to store for rank: 1\n"
      "[rank1]:2026-12-03 12:37:38,358 INFO Rank 1: Completed store-based barrier for key:store_based_barrier_key:1 with 4 nodes.\n"
      "[rank2]:2026-12-03 12:37:38,358 INFO Rank 2: Completed store-based barrier for key:store_based_barrier_key:1 with 4 nodes.\n"
      "[rank3]:2026-12-03 12:37:38,359 INFO Rank 3: Completed store-based barrier for key:store_based_barrier_key:1 with 4 nodes.\n"
      "[rank0]:2026-12-03 12:37:38,358 INFO Rank 0: Completed store-based barrier for key:store_based_barrier_key:1 with 4 nodes.\n"
      "[rank1]:2026-12-03 12:37:38,363 INFO step 0 rank 1\n"
      "[rank3]:2026-12-03 12:37:38,365 INFO step 0 rank 3\n"
      "[rank0]:2026-12-03 12:37:38,367 INFO step 0 rank 0\n"
      "[rank2]:2026-12-03 12:37:38,367 INFO step 0 rank 2\n"
      "[rank0]:2026-12-03 12:37:38,679 INFO step 1 rank 0\n"
      "[rank1]:2026-12-03 12:37:38,680 INFO step 1 rank 1\n"
      "[rank2]:2026-12-03 12:37:38,681 INFO step 1 rank 2\n"
      "[rank3]:2026-12-03 12:37:38,679 INFO step 1 rank 3\n"
      "[rank1]:2026-12-03 12:37:38,997 INFO step 2 rank 1\n"
      "[rank1]:2026-12-03 12:37:38,997 INFO step 2 rank 1: writing an eval sample to slow storage\n"
      "[rank2]:2026-12-03 12:37:38,997 INFO step 2 rank 2\n"
      "[rank0]:2026-12-03 12:37:38,996 INFO step 2 rank 0\n"
      "[rank3]:2026-12-03 12:37:39,012 INFO step 2 rank 3\n"
      "[rank0]:Traceback (most recent call last):\n"
      "[rank3]:Traceback (most recent call last):\n"
      "[rank3]:  File \"/w/mr_rank.py\", line 76, in <module>\n"
      "[rank3]:    dist.all_reduce(x)\n"
      "[rank3]:  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541, in all_reduce\n"
      "[rank0]:  File \"/w/mr_rank.py\", line 76, in <module>\n"
      "[rank3]:    work.wait()\n"
      "[rank3]:RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:65172\n"
      "[rank0]:    dist.all_reduce(x)\n"
      "[rank0]:  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541, in all_reduce\n"
      "[rank0]:    work.wait()\n"
      "[rank0]:RuntimeError: [./gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 6000ms for recv operation to complete\n"
      "[rank2]:Traceback (most recent call last):\n"
      "[rank2]:  File \"/w/mr_rank.py\", line 76, in <module>\n"
      "[rank2]:    dist.all_reduce(x)\n"
      "[rank2]:  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541, in all_reduce\n"
      "[rank2]:    work.wait()\n"
      "[rank2]:RuntimeError: [./gloo/transport/tcp/unbound_buffer.cc:133] Timed out waiting 6000ms for send operation to complete\n"
      "[rank1]:Traceback (most recent call last):\n"
      "[rank1]:  File \"/w/mr_rank.py\", line 76, in <module>\n"
      "[rank1]:    dist.all_reduce(x)\n"
      "[rank1]:  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541, in all_reduce\n"
      "[rank1]:    work.wait()\n"
      "[rank1]:RuntimeError: [./gloo/transport/tcp/pair.cc:598] Connection closed by peer [127.0.0.1]:47267\n";
  auto r = diagnose(log);
  CHECK(rank_of(r) == 1);
  CHECK(says(r, "rank 1 did not, and its last line before the first error"));

  SUBCASE("its last line like everyone's: no rank is named") {
    std::string same = log;
    const std::string odd = ": writing an eval sample to slow storage";
    same.replace(same.find(odd), odd.size(), "");
    CHECK(rank_of(diagnose(same)) == -1);
  }
}

TEST_CASE("an error of no rank is the one rank's that was doing other work right before it") {
  // Real lines of a 3-rank job whose ranks all `tee -a` one file (bench/causality/heldout17, case
  // 1706): only rank 0 validates, and its next backward fails.
  const std::string head =
      "13:43:51 INFO rank0 step  10 pair_loss 0.7175\n"
      "13:43:51 INFO rank2 step  10 pair_loss 0.7175\n"
      "13:43:51 INFO rank1 step  10 pair_loss 0.7175\n";
  const std::string grad =
      "Traceback (most recent call last):\n"
      "  File \"/tmp/hx17/1706/train.py\", line 71, in main\n"
      "    loss.backward()\n"
      "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n";
  const std::string tail = "13:43:51 INFO rank2 step  15 pair_loss 0.6997\n13:43:51 INFO rank1 step  15 pair_loss 0.6997\n";
  auto r = diagnose(head + "13:43:51 INFO rank0 step  15 pair_loss 0.6997\n13:43:51 VAL  rank0 step  15 val pairwise_acc 0.418\n" +
                    grad + tail + kClosed + kClosed);
  CHECK(rank_of(r) == 0);
  CHECK(says(r, "was doing other work when the error came"));

  SUBCASE("every rank's last line alike, none after it: no rank is named") {
    CHECK(rank_of(diagnose(head + "13:43:51 INFO rank0 step  15 pair_loss 0.6997\n" + tail + grad + kClosed + kClosed)) == -1);
  }
  SUBCASE("every rank's last line alike, the others go on after it: the one that stopped") {
    auto alike = diagnose(head + "13:43:51 INFO rank0 step  15 pair_loss 0.6997\n" + grad + tail + kClosed + kClosed);
    CHECK(rank_of(alike) == 0);
    CHECK(says(alike, "rank 0 logged nothing after it"));
    CHECK(says(alike, "while ranks 1, 2 went on"));
  }
  SUBCASE("the others' lines after it are errors of their own: no rank is named") {
    const std::string failing = "13:43:52 ERROR rank2 step  15 lost a peer\n13:43:52 ERROR rank1 step  15 lost a peer\n";
    CHECK(rank_of(diagnose(head + "13:43:51 INFO rank0 step  15 pair_loss 0.6997\n" + grad + failing + kClosed + kClosed)) == -1);
  }
}

TEST_CASE("a bare [N] heading each rank's own prints is its rank; a paste's line numbers are not") {
  // Real lines of a 3-rank job whose script prints `print(f"[{rank}] ...", flush=True)` and whose
  // tracebacks come bare (bench/causality/heldout46, case 4603): rank 1's checkpoint is an HTML
  // page, its peers resumed and then lost it in DDP's constructor.
  const std::string head =
      "[0] init done, world=3\n"
      "[0] resuming from /tmp/helper46/ckpt/rng-opt-shard0.pt\n"
      "[0] resumed at step 200\n"
      "[2] init done, world=3\n"
      "[2] resuming from /tmp/helper46/ckpt/rng-opt-shard2.pt\n"
      "[2] resumed at step 200\n"
      "[1] init done, world=3\n"
      "[1] resuming from /tmp/helper46/ckpt/rng-opt-shard1.pt\n";
  const std::string unpickling =
      "Traceback (most recent call last):\n"
      "  File \"/w/resume_print.py\", line 13, in <module>\n"
      "    state = torch.load(path, map_location=\"cpu\")\n"
      "  File \"/usr/lib/python3/dist-packages/torch/serialization.py\", line 1002, in _legacy_load\n"
      "    magic_number = pickle_module.load(f, **pickle_load_args)\n"
      "_pickle.UnpicklingError: invalid load key, '<'.\n";
  auto r = diagnose(head + unpickling + kClosed + kClosed);
  CHECK(rank_of(r) == 1);
  CHECK(says(r, "rank 1's last line before it, `resuming from /tmp/helper46/ckpt/rng-opt-shard1.pt`"));

  SUBCASE("the same lines numbered by a paste: the numbers are no ranks") {
    std::string numbered;
    int n = 40;
    const std::string all = head + unpickling + kClosed + kClosed;
    for (size_t pos = 0; pos < all.size();) {
      const size_t nl = all.find('\n', pos);
      numbered += "[" + std::to_string(n++) + "] " + all.substr(pos, nl - pos) + "\n";
      pos = nl + 1;
    }
    CHECK(rank_of(diagnose(numbered)) == -1);
  }
}

TEST_CASE("a progress bar redrawn with \\r is each rank's lines in turn") {
  // Real output of a 3-rank mp.spawn job whose ranks redraw `rankN [bar] step ...` on one line
  // (bench/causality/heldout50, 5003): rank 1 waits for a shard, the others time out.
  std::string bars = "spawning 3 workers\n";
  for (int step = 43; step <= 44; ++step)
    for (int r : {1, 2, 0})
      bars += "\rrank" + std::to_string(r) + " [##############......] step " + std::to_string(step) + "/60 loss=1.015";
  const std::string waiting = "\nrank1: shard-3.pt not ready after 5s, waiting\n";
  const std::string timeout =
      "-- Process 0 terminated with the following error:\n"
      "Traceback (most recent call last):\n"
      "  File \"/usr/lib/python3/dist-packages/torch/multiprocessing/spawn.py\", line 69, in _wrap\n"
      "    fn(i, *args)\n"
      "  File \"/work/main/bench/causality/heldout50/jobs/progress_job.py\", line 32, in worker\n"
      "    dist.all_reduce(w.grad); w.grad /= world\n"
      "  File \"/usr/lib/python3/dist-packages/torch/distributed/distributed_c10d.py\", line 1541, in all_reduce\n"
      "    work.wait()\n"
      "RuntimeError: [./gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting 20000ms for recv operation to complete\n";
  auto r = diagnose(bars + waiting + timeout);
  CHECK(rank_of(r) == 1);
  CHECK(says(r, "rank 1 did not, and its last line before the first error"));
  // (Read as one line, only rank 0's last bar was seen: no three ranks to compare.)
  SUBCASE("the waiting line missing: every rank's last bar alike, no rank") {
    CHECK(rank_of(diagnose(bars + "\n" + timeout)) == -1);
  }
}
