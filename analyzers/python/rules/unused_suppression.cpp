// DPX100: a suppression comment that suppresses nothing. Emitted by analyze.cpp after every other
// rule has run (it needs their findings); this file holds its documentation and registration.
#include "denpex/python/rule.h"

DENPEX_RULE(unused_suppression){
    "DPX100", "unused-suppression", "", denpex::core::Severity::Warning, "suppression comment that suppresses nothing",
    R"(## What it does
Flags `# denpex: ignore[...]`, `# denpex: ignore-file[...]` and `# noqa: DPX...` comments whose
codes matched no finding, and codes that name no rule. Codes of other tools in a `# noqa` and a
bare `# noqa` are left alone.

## Why it matters
Stale suppressions hide the next real finding on that line and mislead readers.

Versions: not a PyTorch premise; it concerns Denpex's own `# denpex: ignore[...]` and
`# noqa: DPX...` comments.

## Example
```python
state = torch.load(path, weights_only=True)  # denpex: ignore[DPX008]
```

## Fix and its safety
Removes the comment when every code in it is unused. Safe: nothing was being suppressed.

## Precision on real code
No findings on the judged corpus of `bench/corpus` (12 public training repositories,
2,411 files; every finding is in `bench/corpus/judgments.tsv`): precision unmeasured.
)",
    false, nullptr, false, "no findings on the corpus (n=0)", "denpex DPX*", "-"};
