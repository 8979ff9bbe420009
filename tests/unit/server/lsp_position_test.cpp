#include <doctest/doctest.h>

#include "denpex/server/document.h"

using namespace denpex::lsp;

// "a😀b": 'a' is 1 byte/1 unit, 😀 (U+1F600) 4 bytes/2 UTF-16 units, 'b' 1 byte/1 unit.
static const std::string kLine = "a\xF0\x9F\x98\x80" "b";

TEST_CASE("position encoding: UTF-16 columns count surrogate pairs as two units") {
  CHECK(byte_column(kLine, 0, PositionEncoding::Utf16) == 0);
  CHECK(byte_column(kLine, 1, PositionEncoding::Utf16) == 1);
  CHECK(byte_column(kLine, 3, PositionEncoding::Utf16) == 5);
  CHECK(byte_column(kLine, 4, PositionEncoding::Utf16) == 6);
  CHECK(encoded_column(kLine, 5, PositionEncoding::Utf16) == 3);
  CHECK(encoded_column(kLine, 6, PositionEncoding::Utf16) == 4);
  // é is 2 bytes but one UTF-16 unit; € is 3 bytes, one unit.
  std::string s = "\xC3\xA9\xE2\x82\xAC!";
  CHECK(byte_column(s, 2, PositionEncoding::Utf16) == 5);
  CHECK(encoded_column(s, 5, PositionEncoding::Utf16) == 2);
}

TEST_CASE("position encoding: a column inside a code point rounds down, past the end clamps") {
  CHECK(byte_column(kLine, 2, PositionEncoding::Utf16) == 1);  // between the surrogates
  CHECK(byte_column(kLine, 3, PositionEncoding::Utf8) == 1);   // inside the 4-byte sequence
  CHECK(byte_column(kLine, 99, PositionEncoding::Utf16) == kLine.size());
  CHECK(byte_column(kLine, 99, PositionEncoding::Utf8) == kLine.size());
  CHECK(encoded_column(kLine, 3, PositionEncoding::Utf16) == 1);
  CHECK(encoded_column(kLine, 3, PositionEncoding::Utf8) == 1);
  CHECK(encoded_column(kLine, 99, PositionEncoding::Utf16) == 4);
}

TEST_CASE("position encoding: UTF-8 columns are byte offsets") {
  CHECK(byte_column(kLine, 5, PositionEncoding::Utf8) == 5);
  CHECK(encoded_column(kLine, 5, PositionEncoding::Utf8) == 5);
}

TEST_CASE("position encoding: round trip over every code point boundary") {
  std::string line = "x\xC3\xA9y\xF0\x9D\x84\x9E\xE2\x82\xACz";  // x é y 𝄞 € z
  for (auto enc : {PositionEncoding::Utf8, PositionEncoding::Utf16}) {
    for (size_t b : {0, 1, 3, 4, 8, 11, 12}) {
      CAPTURE(b);
      CHECK(byte_column(line, encoded_column(line, b, enc), enc) == b);
    }
  }
}

TEST_CASE("position encoding: ill-formed bytes count as one unit and never overrun") {
  std::string bad = "a\xF0\x9F" "b\xFF";
  CHECK(encoded_column(bad, bad.size(), PositionEncoding::Utf16) == 5);
  CHECK(byte_column(bad, 5, PositionEncoding::Utf16) == bad.size());
}

TEST_CASE("offsets: lines end at LF, CRLF or a lone CR, and lines past the end map to the end") {
  std::string text = "ab\r\ncd\ref\ngh";
  CHECK(offset_of(text, {1, 1}, PositionEncoding::Utf16) == 5);
  CHECK(offset_of(text, {2, 0}, PositionEncoding::Utf16) == 7);
  CHECK(offset_of(text, {3, 2}, PositionEncoding::Utf16) == 12);
  CHECK(offset_of(text, {0, 9}, PositionEncoding::Utf16) == 2);  // clamps before the CRLF
  CHECK(offset_of(text, {9, 0}, PositionEncoding::Utf16) == text.size());
  CHECK(position_of(text, 5, PositionEncoding::Utf16) == LspPosition{1, 1});
  CHECK(position_of(text, 3, PositionEncoding::Utf16) == LspPosition{0, 2});  // between CR and LF
  CHECK(position_of(text, 12, PositionEncoding::Utf16) == LspPosition{3, 2});
  CHECK(position_of("a\n", 2, PositionEncoding::Utf16) == LspPosition{1, 0});
}

TEST_CASE("document store: incremental edits in UTF-16, all or nothing, snapshots stay immutable") {
  DocumentStore store;
  store.open("file:///t.py", "python", 1, "a\xF0\x9F\x98\x80" "b\nx = 1\n");
  auto before = store.get("file:///t.py");
  auto err = store.change("file:///t.py", 2,
                          {ContentChange{LspRange{{0, 3}, {0, 3}}, "X"}, ContentChange{LspRange{{1, 4}, {1, 5}}, "42"}},
                          PositionEncoding::Utf16);
  CHECK_FALSE(err);
  auto after = store.get("file:///t.py");
  CHECK(after->text == "a\xF0\x9F\x98\x80Xb\nx = 42\n");
  CHECK(after->version == 2);
  CHECK(before->text == "a\xF0\x9F\x98\x80" "b\nx = 1\n");  // an analysis holding it sees no change

  err = store.change("file:///t.py", 3,
                     {ContentChange{std::nullopt, "new"}, ContentChange{LspRange{{0, 2}, {0, 1}}, "?"}},
                     PositionEncoding::Utf16);
  REQUIRE(err);
  CHECK(err->find("start is after its end") != std::string::npos);
  CHECK(store.get("file:///t.py")->text == after->text);
  CHECK(store.get("file:///t.py")->version == 2);

  CHECK(store.change("file:///other.py", 1, {}, PositionEncoding::Utf16));
  CHECK(store.close("file:///t.py"));
  CHECK_FALSE(store.close("file:///t.py"));
  CHECK(store.get("file:///t.py") == nullptr);
}
