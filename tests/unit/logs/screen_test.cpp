#include <doctest/doctest.h>

#include <re2/set.h>

#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/matcher.h"

using denpex::logs::Matcher;

// The diagnoser's screen is answered by the matcher's Set (Matcher::screen) instead of a Set of
// its own: "any pattern of the matcher's Set matches" must be exactly "any screen pattern
// matches", for single lines and for the many-line blocks the diagnoser screens at once.

TEST_CASE("screen_neutral: patterns that match the same in per-line mode, and those that may not") {
  for (const char* p : {"CUDA out of memory", R"(Xid \d+: [^)]+)", "[^$]x", R"(a\$b)", R"(\^)", "[]^]", "[[:alpha:]^]+",
                        R"(\berror\b)", R"(\Aabc)"})
    CHECK_MESSAGE(Matcher::screen_neutral(p), p);
  for (const char* p : {"^RuntimeError", "foo$", "(?:^|\\s)foo", "a|^b", R"(\Qa^b\E)", "[abc", "x[[:alpha:]"})
    CHECK_MESSAGE(!Matcher::screen_neutral(p), p);
}

TEST_CASE("screen: the matcher's Set answers like a Set of the screen patterns, on every example line and block") {
  auto lib = denpex::encyclopedia::Library::builtin();
  Matcher matcher(lib.entries());
  REQUIRE(matcher.ok());
  REQUIRE(matcher.has_screen());
  RE2::Options o;
  o.set_log_errors(false);
  o.set_max_mem(32 << 20);
  RE2::Set own(o, RE2::UNANCHORED);
  for (const auto& p : matcher.screen_patterns()) REQUIRE(own.Add(p, nullptr) >= 0);
  REQUIRE(own.Compile());
  size_t hits = 0, misses = 0;
  auto check = [&](std::string_view text) {
    bool failed = false;
    const bool shared = matcher.screen(text, &failed);
    CHECK(!failed);
    const bool alone = own.Match(re2::StringPiece(text.data(), text.size()), nullptr);
    CHECK_MESSAGE(shared == alone, text);
    ++(alone ? hits : misses);
  };
  std::string block;
  for (const auto& e : lib.entries())
    for (const auto* list : {&e.examples_match, &e.examples_no_match})
      for (const auto& ex : *list) {
        check(ex);
        for (size_t pos = 0; pos < ex.size();) {
          size_t end = ex.find('\n', pos);
          if (end == std::string::npos) end = ex.size();
          const std::string line = ex.substr(pos, end - pos);
          check(line);
          // Behind a launcher prefix, and with the anchors' neighbours the raw text gives them.
          check("[rank3]:" + line);
          check("worker-1: [rank3]: " + line);
          check(line + "\n");
          pos = end + 1;
        }
        block += ex + "\n";
        if (block.size() > 16384) {
          check(block);
          block.clear();
        }
      }
  check(block);
  // Both answers occur, so the comparison says something.
  CHECK(hits > 1000);
  CHECK(misses > 100);
}

TEST_CASE("screen: a matcher whose Set cannot stand for the screen says so") {
  auto entry = [](std::vector<std::string> patterns) {
    denpex::core::Entry e;
    e.id = "x";
    for (auto& p : patterns) {
      denpex::core::Fingerprint f;
      f.pattern = std::move(p);
      e.fingerprints.push_back(std::move(f));
    }
    return e;
  };
  {
    std::vector<denpex::core::Entry> entries{entry({"CUDA out of memory", "^RuntimeError: (?P<what>.+)$"})};
    Matcher m(entries);
    CHECK(m.has_screen());
    bool failed = false;
    CHECK(m.screen("[rank1]: x RuntimeError: boom\nnext", &failed));  // the screen form: no `^`, `$` per line
    CHECK(m.screen("File \"a.py\", line 3", &failed));                 // an event marker
    CHECK(!m.screen("step 3 | loss 2.1", &failed));
    CHECK(!failed);
    std::vector<int> ids;
    m.match("RuntimeError: boom", &ids);
    CHECK(ids == std::vector<int>{1});  // the screen's own patterns are no answer
    m.match("Traceback (most recent call last):", &ids);
    CHECK(ids.empty());
  }
  {
    // An empty pattern matches every line, but the screen leaves it out.
    std::vector<denpex::core::Entry> entries{entry({"CUDA out of memory", ""})};
    CHECK(!Matcher(entries).has_screen());
  }
  {
    std::vector<denpex::core::Entry> entries{entry({"CUDA out of memory", "(unclosed"})};
    CHECK(!Matcher(entries).has_screen());
  }
  {
    std::vector<denpex::core::Entry> entries;
    CHECK(!Matcher(entries).has_screen());
  }
}
