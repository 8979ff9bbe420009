// DPX014: cuDNN autotuning re-run for every new input shape.
#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

void check(const Module& m, Reporter& r) {
  const Call* shapes = m.varying_shapes();
  if (!shapes) return;
  for (const auto& a : m.assigns()) {
    if (a.augmented || m.literal(a.right) != Literal::True) continue;
    if (m.qualified_name(a.left) != "torch.backends.cudnn.benchmark") continue;
    r.report(m.range(a.node),
             "`cudnn.benchmark = True` with input shapes that vary (" + patterns::line_note(m, shapes->node) +
                 "): cuDNN re-runs its autotuning for every new shape, and the cached plans use memory",
             edits::fix("Set `cudnn.benchmark = False`", false, {edits::replace(m, a.right, "False")}));
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(cudnn_benchmark_varying_shapes){
    "DPX014", "cudnn-benchmark-varying-shapes", "", denpex::core::Severity::Warning,
    "`cudnn.benchmark = True` with varying input shapes",
    R"(## What it does
Flags `torch.backends.cudnn.benchmark = True` in a file whose input shapes vary between batches
(padding to the batch maximum, variable sequence lengths; see DPX004).

## Why it matters
Benchmark mode times several convolution algorithms the first time it sees each input shape.
With a new shape every batch, every batch pays the autotuning, and the per-shape workspace
plans accumulate: training gets slower, not faster.

Versions: every release. `torch.backends.cudnn.benchmark` makes cuDNN time several algorithms for
each new convolution configuration and cache the winner per configuration (input shape included:
`aten/src/ATen/native/cudnn/Conv_v7.cpp`, `BenchmarkCache` keyed by `ConvolutionParams`); the
docs' "Reproducibility" notes say the choice is made per input size.

## Example
```python
torch.backends.cudnn.benchmark = True
batch = pad_sequence(seqs, batch_first=True)
```

## Fix and its safety
Sets it to `False`. Unsafe: for inputs that take only a few distinct shapes benchmark mode
still pays off.

## Precision on real code
No findings on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`): precision unmeasured.
)",
    true, &denpex::python::check, false, "no findings on the corpus (n=0)", "benchmark", "every supported"};
