#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/matcher.h"
#include "denpex/logs/scan.h"

// The Scanner remembers the Set's answers by a line's digit mask (a clock, a step or a rank
// changes, the answer does not) where Matcher::digit_blind allows it. That may change what a
// line costs, never the pattern ids it gets: checked here against the Set itself, over every
// example of the library with its digits rewritten several ways, so that a line whose digits
// do matter (`Xid 79` against `Xid 13`, `errno: 98`) follows another of the same mask.
using denpex::logs::Matcher;
using denpex::logs::Scanner;

TEST_CASE("digit_uniform: patterns that match every digit alike, and those that may not") {
  for (const char* p : {R"(Gradient overflow\.\s+Skipping step, loss scaler (?P<s>\d+))", R"(\w+Error: .*)",
                        R"([^)]*\): (?P<x>\d+),)", R"(\d{2}:\d{2,}:\d{1,3})", R"([[:digit:]]{4})", R"([^\]]+)",
                        R"([ -~]+)", R"(\bnan\b)", R"(a{,}b)"})
    CHECK_MESSAGE(Matcher::digit_uniform(p), p);
  for (const char* p : {R"(Xid \((?P<pci>[^)]*)\): 79,)", R"(errno: 98)", R"([0-9a-f]{4})", R"([a5]+)", R"(\x30)",
                        R"(\Q1.0\E)", R"(\pN+)", R"(a{,5})", R"(a{2)", R"(\1)", R"((?P<x1>a))", R"([[:alpha:]{5}])",
                        R"([]5])", R"([^]5])", R"([abc)", "a\\"})
    CHECK_MESSAGE(!Matcher::digit_uniform(p), p);
}

TEST_CASE("scanner: pattern ids remembered by digit mask equal the Set's, line by line") {
  auto lib = denpex::encyclopedia::Library::builtin();
  Matcher matcher(lib.entries());
  std::vector<std::string> lines;
  for (const auto& e : lib.entries())
    for (const auto* list : {&e.examples_match, &e.examples_no_match})
      for (const auto& ex : *list)
        for (size_t pos = 0; pos < ex.size();) {
          size_t end = ex.find('\n', pos);
          if (end == std::string::npos) end = ex.size();
          lines.push_back(ex.substr(pos, end - pos));
          pos = end + 1;
        }
  REQUIRE(lines.size() > 1000);
  // Each line as it is, then with its digits rotated, reversed and all alike: every rewrite
  // has the same mask, so each may be answered from what an earlier one was.
  auto rewrite = [](std::string s, int how) {
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] >= '0' && s[i] <= '9') {
        const int d = s[i] - '0';
        s[i] = static_cast<char>('0' + (how == 0 ? (d + 1) % 10 : how == 1 ? 9 - d : how == 2 ? 0 : (d + int(i)) % 10));
      }
    return s;
  };
  const uint64_t saved = Scanner::mask_after;
  Scanner::mask_after = 0;
  Scanner scanner(matcher);
  Scanner::mask_after = saved;
  size_t checked = 0, with_ids = 0, differ = 0;
  std::vector<int> expect;
  for (int round = 0; round < 2; ++round)
    for (const auto& line : lines)
      for (int how = -1; how < 4; ++how) {
        const std::string text = how < 0 ? line : rewrite(line, how);
        matcher.match(text, &expect);
        const std::vector<int>& got = scanner.ids(text);
        CAPTURE(text);
        CHECK(got == expect);
        ++checked;
        with_ids += expect.empty() ? 0 : 1;
        if (how >= 0) {
          std::vector<int> original;
          matcher.match(line, &original);
          differ += original != expect ? 1 : 0;
        }
      }
  // The rewrites must include lines whose answer their digits decide, or this proves little.
  CHECK(differ > 10);
  CHECK(with_ids > 1000);
  MESSAGE(checked << " lines checked, " << with_ids << " with pattern ids, " << differ << " whose rewrite changed them");
}
