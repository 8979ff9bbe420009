// Python bytes -> findings and fixes. Invariants: analysing never crashes; fixing (safe and unsafe)
// is idempotent (a second round applies nothing), leaves no fixable finding behind, and never
// breaks a file that parsed cleanly.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "denpex/python/analyze.h"
#include "denpex/python/module.h"

namespace {
denpex::python::AnalyzeOptions all_rules() {
  denpex::python::AnalyzeOptions o;
  o.select = {"ALL", "DPX003", "DPX005", "DPX006", "DPX007"};
  return o;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const denpex::python::AnalyzeOptions options = all_rules();
  std::string_view src(reinterpret_cast<const char*>(data), size);
  denpex::python::Module before(src);
  auto first = denpex::python::analyze(before, options);
  auto fixed = denpex::python::fix_all(src, options, /*unsafe=*/true);
  if (fixed.applied == 0) return 0;
  denpex::python::Module after(fixed.text);
  auto second = denpex::python::analyze(after, options);
  if (!first.syntax_errors && second.syntax_errors) std::abort();  // a fix broke a clean file
  auto again = denpex::python::fix_all(fixed.text, options, /*unsafe=*/true);
  if (again.applied != 0 && again.text != fixed.text) std::abort();  // not idempotent
  return 0;
}
