// Entries and static rules point at each other (`codes` in an entry, `entry` in a rule); a link
// to nothing would send users from `denpex explain` or `denpex check` to a dead end.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "denpex/encyclopedia/library.h"
#include "denpex/python/rule.h"

TEST_CASE("every entry's codes name a rule, and every rule's entry exists") {
  auto lib = denpex::encyclopedia::Library::builtin();
  std::set<std::string> codes;
  for (const auto* r : denpex::python::rules()) {
    codes.insert(std::string(r->code));
    if (!r->entry.empty()) CHECK_MESSAGE(lib.find(r->entry) != nullptr, r->code << " names entry " << r->entry);
  }
  REQUIRE(codes.size() >= 18);
  size_t links = 0;
  for (const auto& e : lib.entries())
    for (const auto& c : e.codes) {
      ++links;
      CHECK_MESSAGE(codes.count(c), e.id << " names rule " << c);
    }
  CHECK(links > 0);
}
