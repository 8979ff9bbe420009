#include <algorithm>

#include "denpex/python/analyze.h"

namespace denpex::python {

FixOutcome apply_fixes(std::string_view source, const std::vector<core::Finding>& findings, bool unsafe) {
  core::LineIndex index(source);
  struct Edit {
    size_t begin, end;
    const std::string* text;
  };
  std::vector<Edit> chosen;
  FixOutcome out;
  auto overlaps = [&](const Edit& e) {
    for (const auto& c : chosen)
      // Two insertions at one point also conflict: their order would be arbitrary.
      if ((e.begin < c.end && c.begin < e.end) || e.begin == c.begin) return true;
    return false;
  };
  for (const auto& f : findings) {
    if (!f.fix || (!f.fix->safe && !unsafe) || f.fix->edits.empty()) continue;
    std::vector<Edit> mine;
    for (const auto& e : f.fix->edits)
      mine.push_back({index.offset(e.range.start), index.offset(e.range.end), &e.new_text});
    bool clash = false;
    for (const auto& e : mine) clash = clash || e.end < e.begin || overlaps(e);
    if (clash) continue;
    chosen.insert(chosen.end(), mine.begin(), mine.end());
    ++out.applied;
  }
  std::sort(chosen.begin(), chosen.end(), [](const Edit& a, const Edit& b) { return a.begin < b.begin; });
  out.text.reserve(source.size() + 64);
  size_t pos = 0;
  for (const auto& e : chosen) {
    out.text.append(source.substr(pos, e.begin - pos));
    out.text.append(*e.text);
    pos = e.end;
  }
  out.text.append(source.substr(pos));
  return out;
}

FixOutcome fix_all(std::string_view source, const AnalyzeOptions& options, bool unsafe) {
  FixOutcome total{std::string(source), 0};
  // Each round re-analyses, so fixes that touched the same place apply one after another.
  for (int round = 0; round < 8; ++round) {
    Analysis a = analyze(std::string_view(total.text), options);
    FixOutcome next = apply_fixes(total.text, a.findings, unsafe);
    if (next.applied == 0 || next.text == total.text) break;
    total.applied += next.applied;
    total.text = std::move(next.text);
  }
  return total;
}

}  // namespace denpex::python
