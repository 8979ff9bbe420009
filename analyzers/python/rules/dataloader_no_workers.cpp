// DPX013: the training loop waits for data loading on the main process.
#include "denpex/python/rule.h"

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

void check(const Module& m, Reporter& r) {
  bool training = false, decided = false;
  for (const auto& c : m.calls()) {
    if (c.qname != "torch.utils.data.DataLoader" && c.qname != "torch.utils.data.dataloader.DataLoader") continue;
    if (c.unknown_kwargs || c.unknown_positional || c.positional >= 6) continue;  // num_workers is the 6th
    const Keyword* k = c.keyword("num_workers");
    if (k && m.text(k->value) != "0") continue;
    if (!decided) {
      training = training_script(m);
      decided = true;
    }
    if (!training) return;
    r.report(m.range(k ? k->node : c.function),
             std::string(k ? "`num_workers=0`" : "`DataLoader` without `num_workers`") +
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
In a file that trains (it calls `.backward()`, `optimizer.step()`, or defines `training_step`),
flags `torch.utils.data.DataLoader(...)` without `num_workers` or with `num_workers=0`.

## Why it matters
With no workers, loading, decoding and collating run synchronously on the training process
between steps; the GPU waits. It is the most common cause of low GPU utilisation.

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
)",
    true, &denpex::python::check};
