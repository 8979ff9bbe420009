#include <doctest/doctest.h>

#include "denpex/core/condition.h"
#include "denpex/core/size.h"
#include "denpex/core/text.h"

using namespace denpex::core;

TEST_CASE("LineIndex maps offsets across LF, CRLF and lone CR line ends") {
  std::string_view text = "ab\r\ncd\ref\ngh";
  LineIndex idx(text);
  CHECK(idx.line_count() == 4);
  CHECK(idx.position(0) == Position{0, 0});
  CHECK(idx.position(4) == Position{1, 0});
  CHECK(idx.position(7) == Position{2, 0});
  CHECK(idx.line(text, 0) == "ab");
  CHECK(idx.line(text, 1) == "cd");
  CHECK(idx.line(text, 3) == "gh");
  CHECK(idx.offset(Position{2, 1}) == 8);
  CHECK(idx.offset(Position{0, 99}) == 4);  // clamped to the next line's start
  CHECK(idx.offset(Position{9, 0}) == text.size());
}

TEST_CASE("parse_quantity reads sizes with binary and decimal units") {
  CHECK(*parse_quantity("20.00 MiB") == doctest::Approx(20.0 * 1024 * 1024));
  CHECK(*parse_quantity("1.5 GB") == doctest::Approx(1.5e9));
  CHECK(*parse_quantity("600000") == doctest::Approx(600000));
  CHECK(*parse_quantity("512 bytes") == doctest::Approx(512));
  CHECK(*parse_quantity("1,024") == doctest::Approx(1024));
  CHECK_FALSE(parse_quantity("n/a"));
  CHECK_FALSE(parse_quantity("12 parsecs"));
  CHECK(format_bytes(1.95 * 1024 * 1024 * 1024) == "1.95 GiB");
  CHECK(format_bytes(100) == "100 bytes");
}

TEST_CASE("Condition compares captures with units") {
  std::string err;
  auto c = Condition::parse("unallocated > 2 * tried", &err);
  REQUIRE(c);
  CHECK(c->evaluate({{"unallocated", "5.00 GiB"}, {"tried", "2.00 GiB"}}));
  CHECK_FALSE(c->evaluate({{"unallocated", "3.00 GiB"}, {"tried", "2.00 GiB"}}));
  CHECK_FALSE(c->evaluate({{"tried", "2.00 GiB"}}));  // missing capture: false, never a guess
  auto d = Condition::parse("reserved - allocated >= tried + 1", &err);
  REQUIRE(d);
  CHECK(d->evaluate({{"reserved", "10 GiB"}, {"allocated", "2 GiB"}, {"tried", "1 GiB"}}));
  CHECK(d->names().size() == 3);
}

TEST_CASE("Condition rejects malformed text with a reason") {
  std::string err;
  CHECK_FALSE(Condition::parse("a >> b", &err));
  CHECK(err.find("invalid `when`") != std::string::npos);
  CHECK_FALSE(Condition::parse("a b", &err));
  CHECK_FALSE(Condition::parse("> 3", &err));
  CHECK_FALSE(Condition::parse("a > 3 trailing", &err));
}
