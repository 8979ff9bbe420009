#pragma once
// Logs as people paste them into issues and chats are often reshaped on the way: a terminal or
// tmux copy hard-wraps every line at the window's width (in the middle of words), and some
// forms and chat tools flatten a whole traceback onto one line. Fingerprints and attribution
// work on lines as the program printed them, so a small input is put back into that shape first.
//
// Both repairs are conservative: a log that does not clearly show the reshaping is left alone
// (the cost of a wrong join is a lost line start, worse than a missed one).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace denpex::logs {

struct RepairedPaste {
  std::string text;                // '\n'-terminated lines, as the program printed them
  std::vector<uint64_t> physical;  // for line i of `text` (0-based), its 1-based line in the paste
  uint64_t physical_lines = 0;     // lines of the paste as given
  std::string what;                // for the report: "lines hard-wrapped at 120 columns rejoined (14 joins)"
};

// nullopt when the paste shows neither reshaping.
std::optional<RepairedPaste> repair_paste(std::string_view paste);

}  // namespace denpex::logs
