// DPX017: FSDP's flattened parameters hidden from torch.compile.
#include "denpex/python/rule.h"
#include "patterns.h"

namespace denpex::python {
namespace {

void check(const Module& m, Reporter& r) {
  if (!patterns::program_compiles(m)) return;
  for (const auto& c : m.calls()) {
    if (c.qname != "torch.distributed.fsdp.FullyShardedDataParallel" &&
        c.qname != "torch.distributed.fsdp.fully_sharded_data_parallel.FullyShardedDataParallel")
      continue;
    const Keyword* k = c.keyword("use_orig_params");
    if (k) {
      if (m.literal(k->value) != Literal::False) continue;
      r.report(m.range(k->node),
               "FSDP with `use_orig_params=False` in a program that uses torch.compile: compile sees flattened "
               "parameters, which breaks or graph-breaks; use `use_orig_params=True`",
               edits::fix("Use `use_orig_params=True`", false, {edits::set_keyword(m, *k, "True")}));
    } else if (!c.unknown_kwargs) {
      std::optional<core::Fix> fix;
      if (auto e = edits::add_keyword(m, c, "use_orig_params", "True"))
        fix = edits::fix("Add `use_orig_params=True`", false, {*e});
      r.report(m.range(c.function),
               "FSDP defaults to `use_orig_params=False`, which torch.compile does not support well; pass "
               "`use_orig_params=True`",
               std::move(fix));
    }
  }
}

}  // namespace
}  // namespace denpex::python

DENPEX_RULE(fsdp_use_orig_params){
    "DPX017", "fsdp-use-orig-params", "", denpex::core::Severity::Warning,
    "FSDP `use_orig_params=False` with `torch.compile`",
    R"(## What it does
In a file that uses `torch.compile`, flags `FullyShardedDataParallel(...)` with
`use_orig_params=False` or without `use_orig_params` (whose default is `False`).

## Why it matters
Without original parameters FSDP exposes one flat parameter per unit; torch.compile cannot trace
through the views, producing graph breaks, recompiles or errors, and optimizers with per-parameter
settings see the wrong tensors.

Versions: FSDP (`torch.distributed.fsdp.FullyShardedDataParallel`) from 2.0, where
`use_orig_params` was added with default False; its docstring says `use_orig_params=True` is
needed for `torch.compile`. FSDP2's `fully_shard` (2.4+) does not flatten parameters and is not
reported.

## Example
```python
model = FSDP(model, auto_wrap_policy=policy)
model = torch.compile(model)
```
Use instead:
```python
model = FSDP(model, auto_wrap_policy=policy, use_orig_params=True)
```

## Fix and its safety
Sets or adds `use_orig_params=True`. Unsafe: checkpoints and optimizer state saved with flat
parameters need converting.

## Precision on real code
No findings on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`): precision unmeasured.
)",
    true, &denpex::python::check, false, "no findings on the corpus (n=0)", "FullyShardedDataParallel", "2.0+ (FSDP use_orig_params)"};
