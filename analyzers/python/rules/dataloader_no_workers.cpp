// DPX013: the training loop waits for data loading on the main process.
#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

bool training_script(const Module& m) {
  for (const auto& c : m.calls())
    if (c.method == "backward" || (c.method == "step" && m.text(c.receiver).find("optim") != std::string_view::npos))
      return true;
  for (const auto& f : m.functions())
    if (f.name == "training_step") return true;
  return false;
}

// Per-item work that the main process would do between steps: decoding files or images, or
// per-sample transforms. Pre-tokenized or in-memory tensor datasets cost microseconds per batch;
// workers would not help them (and cost start-up time and memory).
bool per_item_decoding(const Module& m) {
  auto starts = [](std::string_view q, std::string_view p) { return q.substr(0, p.size()) == p; };
  for (const auto& c : m.calls()) {
    std::string_view q = c.qname;
    if (starts(q, "torchvision.datasets.") || starts(q, "torchvision.transforms") || starts(q, "torchvision.io.") ||
        q == "PIL.Image.open" || q == "cv2.imread" || q == "torchaudio.load" || q == "librosa.load" ||
        q == "soundfile.read" || q == "decord.VideoReader")
      return true;
  }
  return false;
}

void check(const Module& m, Reporter& r) {
  bool training = false, decided = false;
  for (const auto& c : m.calls()) {
    if (c.qname != "torch.utils.data.DataLoader" && c.qname != "torch.utils.data.dataloader.DataLoader") continue;
    if (c.unknown_kwargs || c.unknown_positional) continue;
    // num_workers is the 6th parameter: DataLoader(dataset, batch_size, shuffle, sampler,
    // batch_sampler, num_workers, ...), in every version since 1.0.
    const Keyword* k = c.keyword("num_workers");
    TSNode workers = k ? k->value : c.positionals.size() >= 6 ? c.positionals[5] : TSNode{};
    if (!is_null(workers) && m.text(workers) != "0") continue;
    if (!decided) {
      training = training_script(m) && per_item_decoding(m);
      decided = true;
    }
    if (!training) return;
    if (patterns::in_test(m, c.scope)) continue;
    r.report(m.range(k ? k->node : !is_null(workers) ? workers : c.function),
             std::string(k ? "`num_workers=0`" : !is_null(workers) ? "`num_workers` passed as 0 (6th argument)"
                                                                     : "`DataLoader` without `num_workers`") +
                 " loads every batch on the main process: the GPU idles while data is read and collated; set "
                 "`num_workers` (e.g. to the CPU cores per GPU) and `pin_memory=True`");
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(dataloader_no_workers){
    "DPX013", "dataloader-no-workers", "", denpex::core::Severity::Info,
    "`DataLoader` without workers in a training script",
    R"(## What it does
In a file that trains (it calls `.backward()`, `optimizer.step()`, or defines `training_step`) and
decodes or transforms samples per item (`torchvision.datasets`/`transforms`/`io`, `PIL.Image.open`,
`cv2.imread`, `torchaudio.load`, ...), flags `torch.utils.data.DataLoader(...)` without
`num_workers` or with `num_workers=0` (also passed as the 6th positional argument, as TorchFix's
TOR401 reads it). Unit tests are exempt. Files whose datasets are
pre-tokenized text or in-memory tensors are not reported: there the main process spends
microseconds per batch and workers would not help.

## Why it matters
With no workers, loading, decoding and collating run synchronously on the training process
between steps; the GPU waits. It is the most common cause of low GPU utilisation. True in every
PyTorch version: `num_workers` defaults to 0 (`torch/utils/data/dataloader.py`; docs "Single- and
Multi-process Data Loading").

## Example
```python
loader = DataLoader(dataset, batch_size=32, shuffle=True)
```
Use instead:
```python
loader = DataLoader(dataset, batch_size=32, shuffle=True, num_workers=8, pin_memory=True)
```

## Fix and its safety
No automatic fix: the right worker count depends on the machine, and workers need picklable
datasets.

## Precision on real code
Precision 1.00 (5/5) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`). Before this rule was narrowed: 0.07 (9/122), until it required per-item decoding.
)",
    true, &denpex::python::check, false, "1.00 (5/5); 0.07 (9/122) before it required per-item decoding", "DataLoader", "every supported"};
