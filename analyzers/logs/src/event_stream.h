#pragma once
// Harnesses that relay a child's output as one JSON object per line (milabench's
// `{"event": "line", "data": "[rank1]: ...\n", "pipe": "stderr"}`).
#include <optional>
#include <string>
#include <string_view>

namespace denpex::logs {

// The lines such a stream relayed, one for one: each `line` event's decoded `data` (its own
// newline dropped, any other turned into a space), other lines as they are; nullopt when most
// lines are not such events.
std::optional<std::string> unevented(std::string_view text);

// The JSON string that starts at text[at] (the opening quote), decoded; nullopt when it is not a
// whole valid string. Exposed for tests.
std::optional<std::string> json_string_at(std::string_view text, size_t at);

}  // namespace denpex::logs
