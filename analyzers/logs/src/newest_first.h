#pragma once
// Log viewers (Kibana, Grafana Loki, cloud consoles) list the newest line first, and a paste
// copied from one reaches us upside down: the exception above its traceback, a torchrun table's
// fields above its header. Matching and the order of events need the program's own order.
#include <optional>
#include <string>
#include <string_view>

namespace denpex::logs {

// The lines of `text` in reverse order ('\n'-terminated) when the text clearly reads newest
// first, else nullopt. Clearly means at least two upside-down marks and none the right way up:
// a traceback's `File "..."` line directly above its `Traceback (most recent call last):` header
// or directly above the `^^^^` markers that Python puts under a frame's code line; a torchrun
// table's `[0]:` directly above its `Root Cause (first observed failure):`; timestamps at the
// start of lines that go back in time at least four times as often as forward (more often forward
// vetoes it).
std::optional<std::string> oldest_first(std::string_view text);

}  // namespace denpex::logs
