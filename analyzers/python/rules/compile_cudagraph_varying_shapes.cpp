// DPX005: CUDA-graph compile modes recording a new graph for every input shape.
#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

// `torch._inductor.config.triton.cudagraph_skip_dynamic_graphs = True`: Inductor then runs graphs
// with dynamic shapes without CUDA graphs (torch/_inductor/config.py), so no pool grows.
bool skips_dynamic_graphs(const Module& m) {
  for (const auto& a : m.assigns())
    if (!a.augmented && m.literal(a.right) == Literal::True &&
        m.qualified_name(a.left) == "torch._inductor.config.triton.cudagraph_skip_dynamic_graphs")
      return true;
  return false;
}

void check(const Module& m, Reporter& r) {
  const Call* shapes = m.varying_shapes();
  if (!shapes || skips_dynamic_graphs(m)) return;
  for (const auto& c : m.calls()) {
    if (!patterns::is_compile(c)) continue;
    // `options={"triton.cudagraphs": False}` turns the graphs off whatever the mode says.
    if (const Keyword* o = c.keyword("options")) {
      std::string_view t = m.text(o->value);
      size_t at = t.find("triton.cudagraphs");
      if (at != std::string_view::npos && t.find("False", at) != std::string_view::npos) continue;
    }
    const Keyword* mode = c.keyword("mode");
    if (!mode || m.literal(mode->value) != Literal::String) continue;
    std::string_view v = m.text(mode->value);
    bool graphs = v.find("reduce-overhead") != std::string_view::npos ||
                  (v.find("max-autotune") != std::string_view::npos && v.find("no-cudagraphs") == std::string_view::npos);
    if (!graphs) continue;
    std::string replacement = v.find("max-autotune") != std::string_view::npos ? "\"max-autotune-no-cudagraphs\"" : "\"default\"";
    r.report(m.range(mode->node),
             "CUDA-graph mode " + std::string(v) + " with input shapes that vary (" +
                 patterns::line_note(m, shapes->node) +
                 "): each new shape records another graph in the private memory pool, which grows until OOM",
             edits::fix("Use mode=" + replacement, false, {edits::set_keyword(m, *mode, replacement)}));
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(compile_cudagraph_varying_shapes){
    "DPX005", "compile-cudagraph-varying-shapes", "cudagraph-private-pool-oom", denpex::core::Severity::Warning,
    "CUDA-graph compile modes (`reduce-overhead`, `max-autotune`) with varying shapes",
    R"(## What it does
Flags `torch.compile(..., mode="reduce-overhead")` or `mode="max-autotune"` in a file whose input
shapes vary between batches (see DPX004 for how varying shapes are recognised).

## Why it matters
These modes capture CUDA graphs. A graph is recorded per distinct input shape, and each keeps its
own allocations in the CUDA-graph private memory pool; with variable sequence lengths the pool
grows with every new shape until the GPU runs out of memory, often many steps into the run.
`dynamic=True` does not prevent it: Inductor's CUDA-graph trees record one graph per distinct
size of the dynamic dimensions and warn "CUDAGraph supports dynamic shapes by recording a new graph
for each distinct input size. Recording too many CUDAGraphs may lead to extra overhead. We have
observed N distinct sizes." (`torch/_inductor/cudagraph_trees.py` in recent 2.x releases; a graph
per distinct shape in every 2.x release with CUDA-graph trees). Not reported when the file sets
`torch._inductor.config.triton.cudagraph_skip_dynamic_graphs = True` or passes
`options={"triton.cudagraphs": False}`: then dynamic-shape graphs run without CUDA graphs.

## Example
```python
batch = pad_sequence(seqs, batch_first=True)
model = torch.compile(model, mode="reduce-overhead")
```
Use instead: pad to a few fixed bucket lengths, or
```python
model = torch.compile(model, mode="max-autotune-no-cudagraphs")
```

## Fix and its safety
Switches to the same mode without CUDA graphs (`"default"` for `reduce-overhead`). Unsafe: it
gives up the launch-overhead savings the mode was chosen for.

## Precision on real code
Precision 0.00 (0/1) (true findings / findings) on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`). **Opt-in** (`--select DPX,DPX005`): CUDA-graph modes do record one graph per distinct size even with `dynamic=True`, but the evidence of varying shapes is file-wide while the compiled function may never see them (the one finding: a one-token decode step).
)",
    true, &denpex::python::check, true, "0.00 (0/1); opt-in", "compile", "2.0+ (CUDA-graph trees)"};
