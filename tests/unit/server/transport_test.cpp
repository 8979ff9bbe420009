#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "denpex/server/transport.h"

using denpex::lsp::Frame;
using denpex::lsp::FrameReader;
using denpex::lsp::FrameWriter;

namespace {

// Feeds `input` in chunks of `chunk` bytes, so headers and bodies split across reads.
FrameReader reader_over(const std::string& input, size_t chunk = 3, size_t max = denpex::lsp::kDefaultMaxMessageBytes) {
  auto pos = std::make_shared<size_t>(0);
  return FrameReader(
      [input, pos, chunk](char* buf, size_t n) -> long {
        size_t k = std::min({n, chunk, input.size() - *pos});
        std::copy_n(input.data() + *pos, k, buf);
        *pos += k;
        return static_cast<long>(k);
      },
      max);
}

std::string framed(const std::string& body) { return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body; }

}  // namespace

TEST_CASE("transport: frames split across reads come out whole, in order") {
  for (size_t chunk : {1, 2, 7, 4096}) {
    CAPTURE(chunk);
    auto r = reader_over(framed("{\"a\":1}") + framed("") + framed("{\"b\":\"\xC3\xA9\"}"), chunk);
    Frame f = r.next();
    CHECK(f.kind == Frame::Kind::Message);
    CHECK(f.body == "{\"a\":1}");
    f = r.next();
    CHECK(f.kind == Frame::Kind::Message);
    CHECK(f.body.empty());
    f = r.next();
    CHECK(f.body == "{\"b\":\"\xC3\xA9\"}");
    f = r.next();
    CHECK(f.kind == Frame::Kind::Eof);
    CHECK(f.error.empty());
  }
}

TEST_CASE("transport: header names are case-insensitive, other headers ignored, bare LF tolerated") {
  auto r = reader_over("content-length:3\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\nabc"
                       "X-Whatever: 1\nCONTENT-LENGTH:  2 \n\nde");
  CHECK(r.next().body == "abc");
  CHECK(r.next().body == "de");
  CHECK(r.next().kind == Frame::Kind::Eof);
}

TEST_CASE("transport: a bad header is reported once, then input is skipped to the next Content-Length") {
  auto r = reader_over("Content-Length: x1\r\n\r\n{garbage}" + framed("ok1") +
                       "Content-Type: a\r\n\r\n{no length}" + framed("ok2") + "not a header\r\n" + framed("ok3"));
  Frame f = r.next();
  CHECK(f.kind == Frame::Kind::BadFrame);
  CHECK(f.error.find("invalid Content-Length 'x1'") != std::string::npos);
  CHECK(r.next().body == "ok1");
  f = r.next();
  CHECK(f.kind == Frame::Kind::BadFrame);
  CHECK(f.error == "message has no Content-Length header");
  CHECK(r.next().body == "ok2");
  f = r.next();
  CHECK(f.kind == Frame::Kind::BadFrame);
  CHECK(f.error.find("'not a header'") != std::string::npos);
  CHECK(r.next().body == "ok3");
  CHECK(r.next().kind == Frame::Kind::Eof);
}

TEST_CASE("transport: resynchronisation finds a header glued to the end of a body") {
  auto r = reader_over("Content-Length: -1\r\n\r\n{junk without newline}content-length: 2\r\n\r\nhi");
  CHECK(r.next().kind == Frame::Kind::BadFrame);
  CHECK(r.next().body == "hi");
}

TEST_CASE("transport: numbers that are not plain non-negative decimals are rejected") {
  for (const char* v : {"", "-3", "+3", "3.0", "0x10", "3 4", "99999999999999999999999"}) {
    CAPTURE(v);
    auto r = reader_over(std::string("Content-Length: ") + v + "\r\n\r\n");
    CHECK(r.next().kind == Frame::Kind::BadFrame);
  }
  auto r = reader_over("Content-Length: 2\r\nContent-Length: 3\r\n\r\nabc");
  Frame f = r.next();
  CHECK(f.kind == Frame::Kind::BadFrame);
  CHECK(f.error.find("conflicting") != std::string::npos);
}

TEST_CASE("transport: an oversized message is refused before its body is read, then skipped by length") {
  std::string body(100, 'x');
  body.replace(10, 21, "Content-Length: 1\r\n\r\n");  // must not be mistaken for a header
  auto r = reader_over(framed(body) + framed("next") + framed(std::string(64, 'y')), 5, 64);
  Frame f = r.next();
  CHECK(f.kind == Frame::Kind::TooLarge);
  CHECK(f.error == "message of 100 bytes exceeds the limit of 64 bytes; skipped");
  CHECK(r.next().body == "next");
  CHECK(r.next().body == std::string(64, 'y'));
}

TEST_CASE("transport: the default cap is 256 MiB and is reported as such") {
  // Room for a 100 MB log in one didOpen (tests/lsp-process/big_log.py), still a bound.
  CHECK(denpex::lsp::kDefaultMaxMessageBytes == 256u * 1024 * 1024);
  // Only the header is sent: the error must come without waiting for 256 MiB of body.
  auto r = reader_over("Content-Length: 268435457\r\n\r\n");
  Frame f = r.next();
  CHECK(f.kind == Frame::Kind::TooLarge);
  CHECK(f.error.find("exceeds the limit of 256 MiB") != std::string::npos);
  f = r.next();
  CHECK(f.kind == Frame::Kind::Eof);
  CHECK(f.error == "input ended inside an oversized message");
}

TEST_CASE("transport: end of input inside a message is an EOF with a reason, between messages a clean one") {
  auto r = reader_over("Content-Length: 10\r\n\r\nabc");
  Frame f = r.next();
  CHECK(f.kind == Frame::Kind::Eof);
  CHECK(f.error == "input ended inside a message body (3 of 10 bytes)");
  r = reader_over("Content-Length: 10\r\n");
  CHECK(r.next().error == "input ended inside a message header");
  r = reader_over("\r\n\r\n");
  f = r.next();
  CHECK(f.kind == Frame::Kind::Eof);
  CHECK(f.error.empty());
}

TEST_CASE("transport: an endless header line is cut off instead of buffered") {
  auto r = reader_over(std::string(100000, 'a') + "\r\n" + framed("ok"), 4096);
  CHECK(r.next().kind == Frame::Kind::BadFrame);
  CHECK(r.next().body == "ok");
}

TEST_CASE("transport: the writer frames each body whole, also from many threads at once") {
  std::string out;
  FrameWriter w([&out](const char* p, size_t n) {
    // Written byte by byte with a yield, to give interleaving every chance if locking were wrong.
    for (size_t i = 0; i < n; ++i) {
      out += p[i];
      if (i % 8 == 0) std::this_thread::yield();
    }
    return true;
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&w, t] {
      for (int i = 0; i < 50; ++i) w.send("{\"t\":" + std::to_string(t) + ",\"i\":" + std::to_string(i) + "}");
    });
  for (auto& th : threads) th.join();
  auto r = reader_over(out, 4096);
  int count = 0;
  for (Frame f = r.next(); f.kind == Frame::Kind::Message; f = r.next()) {
    CHECK(f.body.front() == '{');
    CHECK(f.body.back() == '}');
    ++count;
  }
  CHECK(count == 400);
}

TEST_CASE("transport: a failed sink stops further sends") {
  int calls = 0;
  FrameWriter w([&calls](const char*, size_t) {
    ++calls;
    return false;
  });
  CHECK_FALSE(w.send("{}"));
  CHECK_FALSE(w.ok());
  CHECK_FALSE(w.send("{}"));
  CHECK(calls == 1);
}

TEST_CASE("transport: UTF-8 validation finds the first ill-formed byte") {
  using denpex::lsp::find_invalid_utf8;
  constexpr auto npos = std::string_view::npos;
  CHECK(find_invalid_utf8("plain ascii") == npos);
  CHECK(find_invalid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") == npos);
  CHECK(find_invalid_utf8("\xF4\x8F\xBF\xBF") == npos);    // U+10FFFF, the last code point
  CHECK(find_invalid_utf8("ab\xC3(") == 2);                // lead byte without continuation
  CHECK(find_invalid_utf8("\xC0\xAF") == 0);               // overlong '/'
  CHECK(find_invalid_utf8("\xE0\x80\xAF") == 0);           // overlong, three bytes
  CHECK(find_invalid_utf8("\xF0\x80\x80\xAF") == 0);       // overlong, four bytes
  CHECK(find_invalid_utf8("x\xED\xA0\x80") == 1);          // surrogate U+D800
  CHECK(find_invalid_utf8("\xF4\x90\x80\x80") == 0);       // above U+10FFFF
  CHECK(find_invalid_utf8("ok\xE2\x82") == 2);             // truncated at the end
  CHECK(find_invalid_utf8("\x80") == 0);                   // stray continuation byte
  CHECK(find_invalid_utf8("\xFF") == 0);
}
