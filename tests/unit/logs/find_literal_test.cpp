#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "../../../analyzers/logs/src/find_literal.h"

using denpex::logs::find_literal;

// find_literal replaces std::string_view::find in the per-line helpers (attribution, event
// tracking, looks_like_error): it must give the same position for every text, needle and start,
// at every alignment and near the end of the text, where its 16-byte blocks stop.
TEST_CASE("find_literal: the same answer as std::string_view::find") {
  uint64_t state = 88172645463325252ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  // A small alphabet with spaces, so that needles recur, overlap and share their anchor bytes.
  const std::string_view alphabet = "  ab a:N]";
  size_t compared = 0;
  for (int round = 0; round < 4000; ++round) {
    std::string hay(next() % 90, ' ');
    for (char& c : hay) c = alphabet[next() % alphabet.size()];
    std::string needle;
    if (!hay.empty() && next() % 2 == 0) {
      const size_t at = next() % hay.size();
      needle = hay.substr(at, next() % 20);
    } else {
      needle.resize(next() % 8);
      for (char& c : needle) c = alphabet[next() % alphabet.size()];
    }
    for (size_t from = 0; from <= hay.size() + 1; ++from) {
      INFO("hay '" << hay << "' needle '" << needle << "' from " << from);
      CHECK(find_literal(hay, needle, from) == std::string_view(hay).find(needle, from));
      ++compared;
    }
  }
  CHECK(compared > 100000);

  // The needles the helpers search for, in lines of every length up to past two blocks.
  for (std::string_view needle : {std::string_view(" busId "), std::string_view(" NCCL INFO "),
                                  std::string_view("terminate called after throwing an instance of '"),
                                  std::string_view("Root Cause"), std::string_view("ank "), std::string_view(" ")}) {
    for (size_t pad = 0; pad < 70; ++pad) {
      std::string line = std::string(pad, 'x') + std::string(needle) + " tail";
      CHECK(find_literal(line, needle) == pad);
      CHECK(find_literal(line.substr(0, pad + needle.size() - 1), needle) ==
            std::string_view(line).substr(0, pad + needle.size() - 1).find(needle));
      CHECK(find_literal(line, needle, pad + 1) == std::string_view(line).find(needle, pad + 1));
    }
  }
}
