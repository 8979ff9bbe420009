#include "rank_blocks.h"

#include <algorithm>
#include <set>

#include "denpex/logs/attribution.h"

namespace denpex::logs {
namespace {

struct Line {
  int rank = -1;        // from a rank tag at its head; -1 untagged
  bool own = false;     // untagged but attributed otherwise (`srun: error: ... task 3:`, a host)
  bool traceback = false;  // part of a Python traceback, header to exception line
};

struct Run {
  int rank;
  size_t first, last;  // indices into the lines
};

// Marks the lines of each traceback: `Traceback (most recent call last):`, its indented frames,
// the exception line after them, and the chaining lines between chained tracebacks.
void mark_tracebacks(const std::vector<std::string_view>& bodies, std::vector<Line>& lines) {
  bool inside = false;
  for (size_t i = 0; i < bodies.size(); ++i) {
    if (lines[i].rank >= 0 || lines[i].own) {
      inside = false;
      continue;
    }
    const std::string_view b = bodies[i];
    if (b.starts_with("Traceback (most recent call last)")) {
      inside = true;
    } else if (b.starts_with("During handling of the above exception") || b.starts_with("The above exception was")) {
      lines[i].traceback = true;
      continue;
    } else if (!inside) {
      continue;
    } else if (!b.empty() && b[0] != ' ' && b[0] != '\t') {
      inside = false;  // the exception line
    }
    lines[i].traceback = true;
  }
}

}  // namespace

std::vector<BlockLines> buffered_block_lines(std::string_view text) {
  if (text.find("Traceback (most recent call last)") == std::string_view::npos) return {};
  std::vector<Line> lines;
  std::vector<std::string_view> bodies;
  std::vector<Run> runs;
  std::set<int> closed;  // ranks whose run has ended: a second run means interleaved output
  for (size_t at = 0; at < text.size();) {
    size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view raw = text.substr(at, nl - at);
    at = nl + 1;
    if (raw.ends_with('\r')) raw.remove_suffix(1);
    const Attribution a = attribute_line(raw);
    Line line;
    // Only a tag stripped from the head counts: in-text markers (`[Rank 3]`, srun's `task 3:`)
    // are messages about a rank, which any process may print.
    if (a.rank >= 0 && a.strip > 0 && !a.node_prefix) line.rank = a.rank;
    else line.own = !a.empty();
    if (line.rank >= 0) {
      if (!runs.empty() && runs.back().rank == line.rank) {
        runs.back().last = lines.size();
      } else {
        if (closed.contains(line.rank)) return {};
        if (!runs.empty()) closed.insert(runs.back().rank);
        runs.push_back({line.rank, lines.size(), lines.size()});
      }
    }
    lines.push_back(line);
    bodies.push_back(a.body(raw));
  }
  if (runs.size() < 2) return {};
  for (size_t r = 0; r < runs.size(); ++r) {
    size_t tagged = 0;
    for (size_t i = runs[r].first; i <= runs[r].last && tagged < 2; ++i) tagged += lines[i].rank == runs[r].rank;
    if (tagged < 2) return {};
  }
  mark_tracebacks(bodies, lines);
  const bool stderr_first =
      std::any_of(lines.begin(), lines.begin() + static_cast<long>(runs.front().first), [](const Line& l) { return l.traceback; });

  std::vector<BlockLines> out;
  auto give = [&](size_t from, size_t to, int rank, bool tracebacks_only) {
    for (size_t i = from; i < to; ++i) {
      if (lines[i].rank >= 0 || lines[i].own || (tracebacks_only && !lines[i].traceback)) continue;
      if (!out.empty() && out.back().rank == rank && out.back().last == i) ++out.back().last;
      else out.push_back({i + 1, i + 1, rank});
    }
  };
  for (size_t r = 0; r < runs.size(); ++r) {
    // Untagged lines inside a run are its own; the gap after it goes to it or to the next run.
    give(runs[r].first, runs[r].last + 1, runs[r].rank, false);
    const size_t gap_end = r + 1 < runs.size() ? runs[r + 1].first : lines.size();
    if (r + 1 == runs.size()) {
      // After the last block come the launcher's own lines: only a traceback is a process's.
      if (!stderr_first) give(runs[r].last + 1, gap_end, runs[r].rank, true);
    } else {
      give(runs[r].last + 1, gap_end, stderr_first ? runs[r + 1].rank : runs[r].rank, false);
    }
  }
  // Before the first block come the job's own banner lines: only a traceback is a process's.
  if (stderr_first) give(0, runs.front().first, runs.front().rank, true);
  std::sort(out.begin(), out.end(), [](const BlockLines& x, const BlockLines& y) { return x.first < y.first; });
  bool has_traceback = false;
  for (const auto& b : out)
    for (uint64_t i = b.first; i <= b.last && !has_traceback; ++i) has_traceback = lines[i - 1].traceback;
  if (!has_traceback) return {};
  return out;
}

}  // namespace denpex::logs
