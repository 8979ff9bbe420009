#include "denpex/server/transport.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>

namespace denpex::lsp {
namespace {

// Garbage without newlines must not grow the buffer without bound.
constexpr size_t kMaxHeaderLine = 8192;
constexpr std::string_view kLengthHeader = "content-length:";

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Header values end up in error messages that are sent as JSON, so they must be printable ASCII.
std::string printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 80)) {
    unsigned char u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? c : '?';
  }
  if (s.size() > 80) out += "...";
  return out;
}

std::string mib(size_t n) {
  if (n % (size_t(1) << 20) == 0) return std::to_string(n >> 20) + " MiB";
  return std::to_string(n) + " bytes";
}

}  // namespace

FrameReader::FrameReader(Source source, size_t max_message_bytes)
    : source_(std::move(source)), max_(max_message_bytes) {}

FrameReader FrameReader::from_fd(int fd, size_t max_message_bytes) {
  return FrameReader(
      [fd](char* buf, size_t n) -> long {
        for (;;) {
          ssize_t r = ::read(fd, buf, n);
          if (r < 0 && errno == EINTR) continue;
          return static_cast<long>(r);
        }
      },
      max_message_bytes);
}

bool FrameReader::fill() {
  if (eof_) return false;
  if (pos_ > 0 && pos_ >= buf_.size() / 2) {
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  char chunk[65536];
  long n = source_(chunk, sizeof chunk);
  if (n <= 0) {
    eof_ = true;
    return false;
  }
  buf_.append(chunk, static_cast<size_t>(n));
  return true;
}

bool FrameReader::read_line(std::string* line) {
  for (;;) {
    size_t nl = buf_.find('\n', pos_);
    if (nl != std::string::npos) {
      line->assign(buf_, pos_, nl - pos_);
      pos_ = nl + 1;
      if (!line->empty() && line->back() == '\r') line->pop_back();
      return true;
    }
    if (buf_.size() - pos_ > kMaxHeaderLine) {
      // Hand back what we have; the caller rejects it as a header and resynchronises.
      line->assign(buf_, pos_, kMaxHeaderLine);
      pos_ += kMaxHeaderLine;
      return true;
    }
    if (!fill()) return false;
  }
}

bool FrameReader::resync() {
  // Scan for the next "Content-Length:" anywhere, not just at a line start: the body of a bad
  // frame is unknown and need not end with a newline.
  for (;;) {
    std::string_view rest(buf_.data() + pos_, buf_.size() - pos_);
    for (size_t i = 0; i + kLengthHeader.size() <= rest.size(); ++i) {
      if (iequals(rest.substr(i, kLengthHeader.size()), kLengthHeader)) {
        pos_ += i;
        return true;
      }
    }
    // Keep only a tail that could be the start of a split header name.
    size_t keep = std::min(rest.size(), kLengthHeader.size() - 1);
    pos_ = buf_.size() - keep;
    if (!fill()) return false;
  }
}

Frame FrameReader::next() {
  Frame f;
  if (skip_ > 0) {
    while (skip_ > 0) {
      if (pos_ == buf_.size() && !fill()) {
        f.error = "input ended inside an oversized message";
        return f;
      }
      size_t n = std::min(skip_, buf_.size() - pos_);
      pos_ += n;
      skip_ -= n;
    }
  }
  if (resyncing_) {
    resyncing_ = false;
    if (!resync()) return f;  // garbage up to EOF was already reported
  }

  bool any_header = false;
  std::optional<size_t> length;
  std::string problem;
  std::string line;
  for (;;) {
    if (!read_line(&line)) {
      // Blank lines between messages are harmless; EOF there is a clean end.
      if (any_header) f.error = "input ended inside a message header";
      return f;
    }
    if (line.empty()) {
      if (!any_header) continue;
      break;
    }
    any_header = true;
    size_t colon = line.find(':');
    if (colon == std::string::npos || line.size() >= kMaxHeaderLine) {
      f.kind = Frame::Kind::BadFrame;
      f.error = "expected a header line such as 'Content-Length: 42', got '" + printable(line) + "'";
      resyncing_ = true;
      return f;
    }
    std::string_view name = trim(std::string_view(line).substr(0, colon));
    std::string_view value = trim(std::string_view(line).substr(colon + 1));
    if (!iequals(name, "content-length")) continue;  // Content-Type and unknown headers: ignored
    size_t n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
      problem = "invalid Content-Length '" + printable(value) + "': expected a non-negative decimal number";
    } else if (length && *length != n) {
      problem = "conflicting Content-Length headers (" + std::to_string(*length) + " and " + std::to_string(n) + ")";
    } else {
      length = n;
    }
  }
  if (problem.empty() && !length) problem = "message has no Content-Length header";
  if (!problem.empty()) {
    f.kind = Frame::Kind::BadFrame;
    f.error = problem;
    resyncing_ = true;
    return f;
  }
  if (*length > max_) {
    f.kind = Frame::Kind::TooLarge;
    f.error = "message of " + std::to_string(*length) + " bytes exceeds the limit of " + mib(max_) + "; skipped";
    skip_ = *length;
    return f;
  }
  // What is buffered, then the rest read straight into the body: the read buffer stays at a few
  // chunks and a big message (a log opened in the editor) is held once, not twice.
  std::string body(*length, '\0');
  size_t got = std::min(*length, buf_.size() - pos_);
  std::memcpy(body.data(), buf_.data() + pos_, got);
  pos_ += got;
  while (got < *length) {
    long n = eof_ ? 0 : source_(body.data() + got, *length - got);
    if (n <= 0) {
      eof_ = true;
      f.error = "input ended inside a message body (" + std::to_string(got) + " of " + std::to_string(*length) + " bytes)";
      return f;
    }
    got += static_cast<size_t>(n);
  }
  f.kind = Frame::Kind::Message;
  f.body = std::move(body);
  return f;
}

FrameWriter FrameWriter::to_fd(int fd) {
  return FrameWriter([fd](const char* buf, size_t n) {
    while (n > 0) {
      ssize_t w = ::write(fd, buf, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      buf += w;
      n -= static_cast<size_t>(w);
    }
    return true;
  });
}

bool FrameWriter::send(std::string_view body) {
  std::string frame = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  frame += body;
  std::lock_guard<std::mutex> lock(mu_);
  if (failed_) return false;
  if (!sink_(frame.data(), frame.size())) failed_ = true;
  return !failed_;
}

bool FrameWriter::ok() const {
  std::lock_guard<std::mutex> lock(mu_);
  return !failed_;
}

size_t find_invalid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size(), i = 0;
  while (i < n) {
    unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t len;
    uint32_t cp;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07;
    } else {
      return i;
    }
    if (i + len > n) return i;
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return i;
    i += len;
  }
  return std::string_view::npos;
}

}  // namespace denpex::lsp
