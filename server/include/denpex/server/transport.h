#pragma once
// LSP base protocol framing (`Content-Length: N\r\n\r\n<N bytes>`), isolated from JSON-RPC so the
// protocol layer never sees bytes and tests can drive it from strings. Like clangd's Transport.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace denpex::lsp {

// A client that sends more than this is broken or hostile; holding it would let one message
// exhaust memory. Large enough for any source file or pasted log an editor will send.
inline constexpr size_t kDefaultMaxMessageBytes = size_t(256) << 20;

struct Frame {
  enum class Kind {
    Message,   // `body` holds one complete message
    BadFrame,  // headers unusable (missing/invalid Content-Length); input skipped to the next header
    TooLarge,  // Content-Length above the cap; the body was discarded unread
    Eof,       // input ended; `error` is set when it ended inside a message
  };
  Kind kind = Kind::Eof;
  std::string body;
  std::string error;  // why, for people: goes into the log and the error reply
};

// Reads frames from a byte source. Not thread-safe: one reader thread owns the input.
class FrameReader {
 public:
  // Reads up to `n` bytes into `buf`; returns the count, 0 at end of input, -1 on error.
  using Source = std::function<long(char* buf, size_t n)>;

  explicit FrameReader(Source source, size_t max_message_bytes = kDefaultMaxMessageBytes);
  // Reads from a file descriptor (retries EINTR).
  static FrameReader from_fd(int fd, size_t max_message_bytes = kDefaultMaxMessageBytes);

  Frame next();

 private:
  bool fill();                         // appends more input to buf_; false at EOF/error
  bool read_line(std::string* line);   // one header line without its terminator
  bool resync();                       // skips input up to the next line starting "Content-Length:"

  Source source_;
  size_t max_;
  std::string buf_;
  size_t pos_ = 0;
  bool eof_ = false;
  bool resyncing_ = false;  // a bad frame was reported; skip to the next header before reading
  size_t skip_ = 0;         // bytes of a reported oversized body still to discard
};

// Writes frames to a byte sink. send() is thread-safe and writes each frame whole, so replies
// from different threads never interleave; it is the only thing that may write to stdout.
class FrameWriter {
 public:
  // Writes all `n` bytes or returns false.
  using Sink = std::function<bool(const char* buf, size_t n)>;

  explicit FrameWriter(Sink sink) : sink_(std::move(sink)) {}
  static FrameWriter to_fd(int fd);

  // False once the sink has failed (the client went away); later sends are dropped.
  bool send(std::string_view body);
  bool ok() const;

 private:
  Sink sink_;
  mutable std::mutex mu_;
  bool failed_ = false;
};

// Index of the first byte that is not part of well-formed UTF-8 (overlong forms, surrogates and
// code points above U+10FFFF are ill-formed), or npos when all of `s` is valid.
size_t find_invalid_utf8(std::string_view s);

}  // namespace denpex::lsp
