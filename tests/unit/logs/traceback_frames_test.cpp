// Structured traceback frames (ExceptionEvent::stack) and the frames a diagnosis carries
// (Diagnosis::traceback), which the language server maps back to source lines.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/attribution.h"
#include "denpex/logs/diagnoser.h"
#include "denpex/logs/events.h"
#include "snapshot.h"

using namespace denpex;

namespace {

void feed_all(logs::EventTracker& t, const std::vector<std::string>& lines) {
  uint64_t n = 0;
  for (const auto& l : lines) t.feed(++n, l);
  t.finish();
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) lines.push_back(text.substr(start, nl - start));
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& l : lines) text += l + "\n";
  return text;
}

logs::Report diagnose_builtin(const std::string& name, const std::string& text) {
  static auto lib = encyclopedia::Library::builtin();
  static logs::Matcher m(lib.entries());
  logs::Diagnoser d(m);
  auto in = d.open(name);
  d.feed(in, text);
  return d.finish();
}

struct Expected {
  std::string file;
  uint64_t line;
  std::string function;
  uint64_t log_line;
};

void check_frames(const std::vector<logs::StackFrame>& got, const std::vector<Expected>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i].file == want[i].file);
    CHECK(got[i].line == want[i].line);
    CHECK(got[i].function == want[i].function);
    CHECK(got[i].log_line == want[i].log_line);
  }
}

// The worker traceback of the bundled example (examples/oom-cascade/train.log, lines 18-29).
const std::vector<Expected> kRank5Frames = {
    {"/workspace/train.py", 214, "<module>", 19},
    {"/workspace/train.py", 188, "main", 21},
    {"/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py", 1736, "_wrapped_call_impl", 23},
    {"/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py", 1747, "_call_impl", 25},
    {"/workspace/model.py", 97, "forward", 27},
};

}  // namespace

TEST_CASE("logs traceback: frame lines give path, line and function as printed, whatever the path holds") {
  auto f = logs::parse_frame_line("  File \"/workspace/train.py\", line 214, in <module>");
  REQUIRE(f);
  CHECK(f->file == "/workspace/train.py");
  CHECK(f->line == 214);
  CHECK(f->function == "<module>");
  CHECK(f->log_line == 0);  // the tracker fills it in

  f = logs::parse_frame_line("  File \"<frozen importlib._bootstrap>\", line 1050, in _gcd_import");
  REQUIRE(f);
  CHECK(f->file == "<frozen importlib._bootstrap>");
  CHECK(f->line == 1050);
  CHECK(f->function == "_gcd_import");
  f = logs::parse_frame_line("  File \"<string>\", line 2, in <module>");
  REQUIRE(f);
  CHECK(f->file == "<string>");

  // Python prints the path unescaped: spaces, quotes, even `", line N` are part of it.
  f = logs::parse_frame_line("  File \"/home/user/My Experiments/run 3/train.py\", line 42, in train_step");
  REQUIRE(f);
  CHECK(f->file == "/home/user/My Experiments/run 3/train.py");
  CHECK(f->function == "train_step");
  f = logs::parse_frame_line("  File \"/data/runs/\"best\"/train.py\", line 9, in main");
  REQUIRE(f);
  CHECK(f->file == "/data/runs/\"best\"/train.py");
  CHECK(f->line == 9);
  f = logs::parse_frame_line("  File \"/tmp/a\", line 3, b/train.py\", line 9, in main");
  REQUIRE(f);
  CHECK(f->file == "/tmp/a\", line 3, b/train.py");
  CHECK(f->line == 9);
  CHECK(f->function == "main");

  // A SyntaxError's location has no function; one space or none left of `File` is still a frame.
  f = logs::parse_frame_line("  File \"/workspace/model.py\", line 12");
  REQUIRE(f);
  CHECK(f->line == 12);
  CHECK(f->function.empty());
  CHECK(logs::parse_frame_line(" File \"/workspace/train.py\", line 77, in <module>"));
  CHECK(logs::parse_frame_line("File \"/workspace/train.py\", line 77, in <module>"));

  CHECK_FALSE(logs::parse_frame_line("    loss = model(batch).loss"));
  CHECK_FALSE(logs::parse_frame_line("Traceback (most recent call last):"));
  CHECK_FALSE(logs::parse_frame_line("  File \"/workspace/train.py\""));
  CHECK_FALSE(logs::parse_frame_line("  File \"/workspace/train.py\", line , in main"));
  CHECK_FALSE(logs::parse_frame_line("  File \"/workspace/train.py\", line 12 in main"));
  CHECK_FALSE(logs::parse_frame_line("  File \"/workspace/train.py\", line 99999999999999999999, in main"));

  // After the launcher prefix is stripped, as the diagnoser feeds it.
  std::string line = "[rank5]:   File \"/workspace/train.py\", line 42, in train_step";
  auto a = logs::attribute_line(line);
  CHECK(a.rank == 5);
  f = logs::parse_frame_line(std::string_view(line).substr(a.strip));
  REQUIRE(f);
  CHECK(f->file == "/workspace/train.py");
  CHECK(f->line == 42);
  CHECK(f->function == "train_step");
}

TEST_CASE("logs traceback: a traceback's frames are kept outermost first, with the log line that printed each") {
  logs::EventTracker t;
  std::vector<std::string> lines(17);  // the example's traceback starts on line 18
  for (const char* l : {
           "Traceback (most recent call last):",
           "  File \"/workspace/train.py\", line 214, in <module>",
           "    main()",
           "  File \"/workspace/train.py\", line 188, in main",
           "    loss = model(batch).loss",
           "  File \"/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py\", line 1736, in _wrapped_call_impl",
           "    return self._call_impl(*args, **kwargs)",
           "  File \"/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py\", line 1747, in _call_impl",
           "    return forward_call(*args, **kwargs)",
           "  File \"/workspace/model.py\", line 97, in forward",
           "    attn = torch.softmax(q @ k.transpose(-2, -1) * self.scale, dim=-1)",
           "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.82 GiB. GPU 5 has a total capacity of 79.10 GiB "
           "of which 1.94 GiB is free.",
       })
    lines.push_back(l);
  feed_all(t, lines);
  REQUIRE(t.exceptions().size() == 1);
  const auto& ex = t.exceptions()[0];
  CHECK(ex.line == 29);
  CHECK(ex.traceback_line == 18);
  CHECK(ex.frames == 5);
  CHECK(ex.last_frame == "File \"/workspace/model.py\", line 97, in forward");
  check_frames(ex.stack, kRank5Frames);
}

TEST_CASE("logs traceback: chained: each exception keeps its own frames; a line belongs to the one around it") {
  // signatures/checkpoint-io/checkpoint-save-no-space.yaml
  logs::EventTracker t;
  feed_all(t, {
                  "Traceback (most recent call last):",
                  "  File \"/usr/lib/python3/dist-packages/torch/serialization.py\", line 423, in save",
                  "    _save(obj, opened_zipfile, pickle_module, pickle_protocol)",
                  "  File \"/usr/lib/python3/dist-packages/torch/serialization.py\", line 650, in _save",
                  "    zip_file.write_record(name, storage.data_ptr(), num_bytes)",
                  "RuntimeError: [enforce fail at inline_container.cc:445] . PytorchStreamWriter failed writing file data/0: file write failed",
                  "",
                  "During handling of the above exception, another exception occurred:",
                  "",
                  "Traceback (most recent call last):",
                  "  File \"/workspace/train.py\", line 2, in <module>",
                  "    torch.save(state, ckpt_path)",
                  "  File \"/usr/lib/python3/dist-packages/torch/serialization.py\", line 290, in __exit__",
                  "    self.file_like.write_end_of_file()",
                  "RuntimeError: [enforce fail at inline_container.cc:325] . unexpected pos 320 vs 252",
                  "terminate called after throwing an instance of 'c10::Error'",
                  "  what():  [enforce fail at inline_container.cc:325] . unexpected pos 320 vs 252",
              });
  const auto& ex = t.exceptions();
  REQUIRE(ex.size() == 3);
  check_frames(ex[0].stack, {{"/usr/lib/python3/dist-packages/torch/serialization.py", 423, "save", 2},
                             {"/usr/lib/python3/dist-packages/torch/serialization.py", 650, "_save", 4}});
  CHECK(ex[1].chained == "during-handling");
  CHECK(ex[1].traceback_line == 10);
  check_frames(ex[1].stack, {{"/workspace/train.py", 2, "<module>", 11},
                             {"/usr/lib/python3/dist-packages/torch/serialization.py", 290, "__exit__", 13}});
  CHECK(ex[2].from_terminate);
  CHECK(ex[2].stack.empty());

  CHECK(t.exception_at(6) == &ex[0]);   // the first exception line itself
  CHECK(t.exception_at(3) == &ex[0]);   // inside its traceback
  CHECK(t.exception_at(8) == &ex[0]);   // below its message, before the next traceback
  CHECK(t.exception_at(12) == &ex[1]);  // inside the second traceback
  CHECK(t.exception_at(15) == &ex[1]);
  CHECK(t.exception_at(17) == &ex[2]);  // `what():` belongs to the C++ abort: no Python frames
  CHECK(t.exception_at(40) == nullptr);
}

TEST_CASE("logs traceback: the DataLoader's copy of its worker's traceback is the worker's own exception") {
  // Real output (tests/fixtures/logs/multirank/shard_missing/ranks/rank2.log, lines 15-26).
  logs::EventTracker t;
  feed_all(t, {
                  "Traceback (most recent call last):",
                  "  File \"/usr/lib/python3/dist-packages/torch/_utils.py\", line 543, in reraise",
                  "    raise exception",
                  "FileNotFoundError: Caught FileNotFoundError in DataLoader worker process 0.",
                  "Original Traceback (most recent call last):",
                  "  File \"/usr/lib/python3/dist-packages/torch/utils/data/_utils/worker.py\", line 244, in _worker_loop",
                  "    init_fn(worker_id)",
                  "  File \"/work/main/tests/realtorch/jobs/mr_rank.py\", line 103, in open_index",
                  "    with open(os.path.join(shards, f\"rank{rank}.idx\")) as f:",
                  "         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
                  "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/denpex-shards-h0jzrjyp/rank2.idx'",
                  "",
              });
  const auto& ex = t.exceptions();
  REQUIRE(ex.size() == 2);
  CHECK(ex[0].message == "Caught FileNotFoundError in DataLoader worker process 0.");
  CHECK(ex[0].chained.empty());
  CHECK(ex[1].chained == "dataloader-worker");
  CHECK(ex[1].traceback_line == 5);
  CHECK(ex[1].message == "[Errno 2] No such file or directory: '/tmp/denpex-shards-h0jzrjyp/rank2.idx'");
  check_frames(ex[1].stack, {{"/usr/lib/python3/dist-packages/torch/utils/data/_utils/worker.py", 244, "_worker_loop", 6},
                             {"/work/main/tests/realtorch/jobs/mr_rank.py", 103, "open_index", 8}});
}

TEST_CASE("logs traceback: frozen importlib frames print no source line and are kept as printed") {
  logs::EventTracker t;
  feed_all(t, {
                  "Traceback (most recent call last):",
                  "  File \"/workspace/train.py\", line 12, in <module>",
                  "    mod = importlib.import_module(args.model_module)",
                  "  File \"/usr/lib/python3.10/importlib/__init__.py\", line 126, in import_module",
                  "    return _bootstrap._gcd_import(name[level:], package, level)",
                  "  File \"<frozen importlib._bootstrap>\", line 1050, in _gcd_import",
                  "  File \"<frozen importlib._bootstrap>\", line 1027, in _find_and_load",
                  "  File \"<frozen importlib._bootstrap>\", line 1006, in _find_and_load_unlocked",
                  "  File \"<frozen importlib._bootstrap>\", line 688, in _load_unlocked",
                  "  File \"<frozen importlib._bootstrap_external>\", line 883, in exec_module",
                  "  File \"<frozen importlib._bootstrap>\", line 241, in _call_with_frames_removed",
                  "  File \"/workspace/models/llama.py\", line 3, in <module>",
                  "    import torch",
                  "ModuleNotFoundError: No module named 'torch'",
              });
  REQUIRE(t.exceptions().size() == 1);
  const auto& s = t.exceptions()[0].stack;
  REQUIRE(s.size() == 9);
  CHECK(s[2].file == "<frozen importlib._bootstrap>");
  CHECK(s[2].line == 1050);
  CHECK(s[2].function == "_gcd_import");
  CHECK(s[2].log_line == 6);
  CHECK(s[6].file == "<frozen importlib._bootstrap_external>");
  CHECK(s[6].function == "exec_module");
  CHECK(s[8].file == "/workspace/models/llama.py");
  CHECK(s[8].log_line == 12);
}

TEST_CASE("logs traceback: a deep recursion keeps the outermost and innermost frames; a source's frames are bounded") {
  std::vector<std::string> lines = {"Traceback (most recent call last):",
                                    "  File \"/workspace/tree.py\", line 30, in <module>", "    visit(root)"};
  // Mutual recursion: Python collapses only identical consecutive frames, so all of them print.
  for (int i = 0; i < 500; ++i) {
    lines.push_back("  File \"/workspace/tree.py\", line 10, in visit");
    lines.push_back("    visit_children(node)");
    lines.push_back("  File \"/workspace/tree.py\", line 14, in visit_children");
    lines.push_back("    visit(child)");
  }
  lines.push_back("RecursionError: maximum recursion depth exceeded");
  logs::EventTracker t;
  feed_all(t, lines);
  REQUIRE(t.exceptions().size() == 1);
  const auto& ex = t.exceptions()[0];
  CHECK(ex.frames == 1001);
  REQUIRE(ex.stack.size() == logs::EventTracker::kStackHead + logs::EventTracker::kStackTail);
  CHECK(ex.stack[0].line == 30);
  CHECK(ex.stack[0].log_line == 2);
  CHECK(ex.stack[7].log_line == 16);  // the 8th frame printed
  // Then the last 24: frame 978 of 1001 onwards.
  CHECK(ex.stack[8].log_line == 2 + 2 * 977);
  CHECK(ex.stack.back().function == "visit_children");
  CHECK(ex.stack.back().log_line == lines.size() - 2);

  // The same traceback at every step: the first ones keep their frames, then only the counts.
  logs::EventTracker many;
  std::vector<std::string> repeated;
  size_t per = logs::EventTracker::kStackHead + logs::EventTracker::kStackTail;
  size_t fits = logs::EventTracker::kMaxStackFrames / per;
  for (size_t k = 0; k < fits + 2; ++k) {
    repeated.push_back("Traceback (most recent call last):");
    for (size_t i = 0; i < per; ++i) repeated.push_back("  File \"/workspace/tree.py\", line 10, in visit");
    repeated.push_back("RecursionError: maximum recursion depth exceeded");
  }
  feed_all(many, repeated);
  REQUIRE(many.exceptions().size() == fits + 2);
  CHECK(many.exceptions()[fits - 1].stack.size() == per);
  CHECK(many.exceptions()[fits].stack.empty());
  CHECK(many.exceptions()[fits].frames == static_cast<int>(per));
}

TEST_CASE("logs traceback: a line of a traceback torchrun copied into its table belongs to no event") {
  // A short paste: the agent's own traceback, then the Failures table with the worker's. The
  // agent's ChildFailedError is a few lines above, but the table's lines are not its message.
  logs::EventTracker t;
  feed_all(t, {
                  "Traceback (most recent call last):",
                  "  File \"/usr/local/bin/torchrun\", line 8, in <module>",
                  "    sys.exit(main())",
                  "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
                  "Failures:",
                  "[1]:",
                  "  rank      : 1 (local_rank: 1)",
                  "  traceback : Traceback (most recent call last):",
                  "    File \"/home/user/bug.py\", line 16, in main",
                  "      dist.barrier()",
                  "  RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: "
                  "CollectiveFingerPrint(SequenceNumber=1OpType=BARRIER), but Rank 2 is running collective: "
                  "CollectiveFingerPrint(SequenceNumber=0OpType=BARRIER).",
              });
  REQUIRE(t.exceptions().size() == 1);
  CHECK(t.exception_at(4) == &t.exceptions()[0]);
  CHECK(t.table_traceback_rank(11) == 1);
  CHECK(t.exception_at(11) == nullptr);
}

TEST_CASE("logs traceback: the diagnosis, a single-process CUDA OOM") {
  auto r = diagnose_builtin("single-oom.log", testing::read_file(testing::source_path("tests/fixtures/logs/single-oom.log")));
  REQUIRE(r.diagnoses.size() == 1);
  const auto& d = r.diagnoses[0];
  CHECK(d.entry->id == "cuda-oom");
  CHECK(d.first_error.line == 9);
  check_frames(d.traceback, {{"train.py", 61, "<module>", 3},
                             {"/opt/conda/lib/python3.8/site-packages/torch/nn/modules/module.py", 1102, "_call_impl", 5},
                             {"/opt/conda/lib/python3.8/site-packages/torch/nn/modules/conv.py", 446, "forward", 7}});
}

TEST_CASE("logs traceback: the diagnosis, 8 ranks, rank 5's OOM starts it; the frames are rank 5's") {
  auto lines = split_lines(testing::read_file(testing::source_path("examples/oom-cascade/train.log")));
  REQUIRE(lines.size() > 30);
  REQUIRE(lines[17] == "[rank5]: Traceback (most recent call last):");
  REQUIRE(lines[28].rfind("[rank5]: torch.OutOfMemoryError: CUDA out of memory.", 0) == 0);

  // As bundled: the worker's traceback, not torchrun's own one (the log's final exception).
  auto r = diagnose_builtin("train.log", join_lines(lines));
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].initiating_rank == 5);
  CHECK(r.diagnoses[0].first_error.line == 29);
  check_frames(r.diagnoses[0].traceback, kRank5Frames);
  REQUIRE(r.final_exception);
  REQUIRE_FALSE(r.final_exception->event.stack.empty());
  CHECK(r.final_exception->event.stack.front().file == "/usr/local/bin/torchrun");

  // Rank 2 prints a traceback at the same time, its lines between rank 5's, and its span holds
  // rank 5's OOM line (signatures/tensors-autograd/matmul-shape-mismatch.yaml). Inserted from the
  // bottom so the indexes above stay valid.
  lines.insert(lines.begin() + 29, "[rank2]: RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x2048 and 512x1000)");
  lines.insert(lines.begin() + 27, "[rank2]:     out = model(x)");
  lines.insert(lines.begin() + 21, "[rank2]:   File \"/workspace/job.py\", line 31, in <module>");
  lines.insert(lines.begin() + 18, "[rank2]: Traceback (most recent call last):");
  REQUIRE(lines[31].rfind("[rank5]: torch.OutOfMemoryError", 0) == 0);
  r = diagnose_builtin("train.log", join_lines(lines));
  REQUIRE(r.diagnoses.size() == 1);
  const auto& d = r.diagnoses[0];
  CHECK(d.entry->id == "cuda-oom");
  CHECK(d.initiating_rank == 5);
  CHECK(d.first_error.line == 32);
  check_frames(d.traceback, {{"/workspace/train.py", 214, "<module>", 20},
                             {"/workspace/train.py", 188, "main", 22},
                             {"/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py", 1736, "_wrapped_call_impl", 25},
                             {"/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py", 1747, "_call_impl", 27},
                             {"/workspace/model.py", 97, "forward", 29}});
}

TEST_CASE("logs traceback: the diagnosis, a first error line that continues the exception's message") {
  // The reducer error matches on the `Parameter at index` line printed after the exception line.
  auto lib = encyclopedia::Library::builtin();
  const core::Entry* e = nullptr;
  for (const auto& x : lib.entries())
    if (x.id == "ddp-reentrant-checkpoint-ready-twice") e = &x;
  REQUIRE(e);
  REQUIRE_FALSE(e->examples_match.empty());
  auto r = diagnose_builtin("train.log", e->examples_match[0]);
  REQUIRE(r.diagnoses.size() == 1);
  const auto& d = r.diagnoses[0];
  CHECK(d.entry->id == e->id);
  CHECK(d.first_error.line == 12);
  REQUIRE(d.traceback.size() == 5);
  CHECK(d.traceback.front().file == "/workspace/finetune.py");
  CHECK(d.traceback.back().function == "backward");
  CHECK(d.traceback.back().log_line == 10);
}

TEST_CASE("logs traceback: the diagnosis, empty when the first error line is in no traceback") {
  auto r = diagnose_builtin("hang.log", testing::read_file(testing::source_path("tests/fixtures/logs/hang-seq.log")));
  REQUIRE(r.diagnoses.size() == 1);
  CHECK(r.diagnoses[0].traceback.empty());
}
