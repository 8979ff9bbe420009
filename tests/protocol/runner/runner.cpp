// Replays a recorded JSON-RPC session (tests/protocol/*.jsonrpc) against the real `denpex lsp`
// over pipes, so framing, lifecycle and exit codes are tested exactly as an editor sees them.
// The case format is described in tests/protocol/README.md.
//
// Usage: protocol_runner <denpex binary> <case.jsonrpc>
// DENPEX_PROTOCOL_TIMEOUT (seconds, default 10) bounds each wait, so a hung server fails the
// test instead of hanging CI.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <boost/process.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace bp = boost::process;
namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Step {
  enum Kind { SendFramed, SendRaw, Expect, Close, Exit } kind;
  int line;
  std::string data;  // body or raw bytes; expected JSON text
  json expected;
  int exit_code = 0;
};

struct Case {
  std::vector<std::string> args;  // extra arguments for `denpex lsp`
  std::vector<Step> steps;
};

[[noreturn]] void die(const std::string& where, const std::string& msg) {
  std::cerr << where << ": " << msg << "\n";
  std::exit(2);
}

// \r \n \t \\ and \xHH; anything else is taken literally.
std::string unescape(const std::string& s, const std::string& where) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i >= s.size()) die(where, "dangling backslash");
    switch (s[i]) {
      case 'r': out += '\r'; break;
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case '\\': out += '\\'; break;
      case 'x': {
        std::string hex = s.substr(i + 1, 2);
        if (hex.size() != 2 || !std::isxdigit(static_cast<unsigned char>(hex[0])) ||
            !std::isxdigit(static_cast<unsigned char>(hex[1])))
          die(where, "\\x needs two hex digits");
        out += static_cast<char>(std::stoi(hex, nullptr, 16));
        i += 2;
        break;
      }
      default: die(where, std::string("unknown escape \\") + s[i]);
    }
  }
  return out;
}

Case parse_case(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) die(path, "cannot open");
  Case c;
  std::string line;
  int n = 0;
  bool sent = false;
  // Sessions name real files (workspaces, logs) next to the case, wherever the checkout is.
  const std::string case_dir = fs::absolute(fs::path(path)).parent_path().lexically_normal().string();
  while (std::getline(in, line)) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    for (size_t at; (at = line.find("${CASE_DIR}")) != std::string::npos;) line.replace(at, 11, case_dir);
    std::string where = path + ":" + std::to_string(n);
    if (line.empty() || line[0] == '#') continue;
    auto rest = [&](size_t k) { return line.size() > k ? line.substr(k) : std::string(); };
    if (line.rfind("--> ", 0) == 0) {
      std::string body = rest(4);
      sent = true;
      if (body.rfind("raw ", 0) == 0)
        c.steps.push_back({Step::SendRaw, n, unescape(body.substr(4), where), {}, 0});
      else if (body.rfind("escaped ", 0) == 0)
        c.steps.push_back({Step::SendFramed, n, unescape(body.substr(8), where), {}, 0});
      else
        c.steps.push_back({Step::SendFramed, n, body, {}, 0});  // verbatim, so malformed JSON can be sent
    } else if (line.rfind("<-- ", 0) == 0) {
      Step s{Step::Expect, n, rest(4), {}, 0};
      try {
        s.expected = json::parse(s.data);
      } catch (const json::exception& e) {
        die(where, std::string("expected message is not JSON: ") + e.what());
      }
      c.steps.push_back(std::move(s));
    } else if (line == "close") {
      c.steps.push_back({Step::Close, n, {}, {}, 0});
    } else if (line.rfind("exit ", 0) == 0) {
      c.steps.push_back({Step::Exit, n, {}, {}, std::atoi(rest(5).c_str())});
    } else if (line.rfind("args ", 0) == 0) {
      if (sent) die(where, "args must come before the first message");
      std::istringstream words(rest(5));
      for (std::string w; words >> w;) c.args.push_back(w);
    } else {
      die(where, "unrecognised line (expected '--> ', '<-- ', 'close', 'exit N', 'args ...' or '# ')");
    }
  }
  if (c.steps.empty() || c.steps.back().kind != Step::Exit) die(path, "a case must end with `exit N`");
  return c;
}

// "<any>" matches any value; objects match when every expected key matches; arrays and scalars
// must match exactly (element by element, with the same rules) except for a trailing "<...>". Returns the path of the first
// difference, or nullopt.
std::optional<std::string> first_difference(const json& want, const json& got, const std::string& path) {
  if (want.is_string() && want == "<any>") return std::nullopt;
  // "<contains>text": a string that contains `text` (Markdown and long messages).
  if (want.is_string() && want.get<std::string>().rfind("<contains>", 0) == 0) {
    std::string needle = want.get<std::string>().substr(10);
    if (got.is_string() && got.get<std::string>().find(needle) != std::string::npos) return std::nullopt;
    return path + ": expected a string containing " + json(needle).dump() + ", got " + got.dump();
  }
  if (want.is_object()) {
    if (!got.is_object()) return path + ": expected an object, got " + got.dump();
    for (auto it = want.begin(); it != want.end(); ++it) {
      auto g = got.find(it.key());
      if (g == got.end()) return path + "/" + it.key() + ": missing";
      if (auto m = first_difference(it.value(), *g, path + "/" + it.key())) return m;
    }
    return std::nullopt;
  }
  if (want.is_array()) {
    if (!got.is_array()) return path + ": expected an array, got " + got.dump();
    // A trailing "<...>" accepts any further elements: the encyclopedia grows, and a case about
    // one entry should not break when another entry also matches.
    bool open_ended = !want.empty() && want.back() == "<...>";
    size_t n = open_ended ? want.size() - 1 : want.size();
    if (open_ended ? got.size() < n : got.size() != n)
      return path + ": expected " + (open_ended ? "at least " : "") + std::to_string(n) + " elements, got " +
             std::to_string(got.size());
    for (size_t i = 0; i < n; ++i)
      if (auto m = first_difference(want[i], got[i], path + "/" + std::to_string(i))) return m;
    return std::nullopt;
  }
  if (want != got) return path + ": expected " + want.dump() + ", got " + got.dump();
  return std::nullopt;
}

// Collects the server's stdout on a thread and cuts it into frames.
class Output {
 public:
  explicit Output(int fd) : fd_(fd), thread_([this] { pump(); }) {}
  ~Output() {
    stop_ = true;
    thread_.join();
  }

  // The next message body; nullopt on timeout or when the output ended (see `ended()`).
  std::optional<std::string> next(Clock::duration timeout, std::string* problem) {
    std::unique_lock<std::mutex> lock(mu_);
    auto deadline = Clock::now() + timeout;
    for (;;) {
      if (auto body = take_frame(problem)) return body;
      if (!problem->empty()) return std::nullopt;
      if (eof_) {
        *problem = buf_.empty() ? "the server closed its output" : "the server's output ended inside a message";
        return std::nullopt;
      }
      if (cv_.wait_until(lock, deadline) == std::cv_status::timeout && Clock::now() >= deadline) {
        if (auto body = take_frame(problem)) return body;
        *problem = "timed out waiting for a message";
        return std::nullopt;
      }
    }
  }

 private:
  void pump() {
    char chunk[65536];
    for (;;) {
      // Poll so the runner can stop even when something (a grandchild of a broken server)
      // keeps the pipe open after the server itself was killed.
      pollfd p{fd_, POLLIN, 0};
      int ready = ::poll(&p, 1, 50);
      if (ready == 0 || (ready < 0 && errno == EINTR)) {
        if (stop_) return;
        continue;
      }
      ssize_t n = ::read(fd_, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      std::lock_guard<std::mutex> lock(mu_);
      if (n <= 0) {
        eof_ = true;
        cv_.notify_all();
        return;
      }
      buf_.append(chunk, static_cast<size_t>(n));
      cv_.notify_all();
    }
  }

  // The server's own framing is strict: exactly `Content-Length: N\r\n\r\n`, nothing else.
  std::optional<std::string> take_frame(std::string* problem) {
    size_t end = buf_.find("\r\n\r\n");
    if (end == std::string::npos) return std::nullopt;
    std::string header = buf_.substr(0, end);
    const std::string prefix = "Content-Length: ";
    if (header.rfind(prefix, 0) != 0 || header.find("\r\n") != std::string::npos) {
      *problem = "the server wrote a malformed header: " + json(header).dump();
      return std::nullopt;
    }
    size_t len = std::stoul(header.substr(prefix.size()));
    if (buf_.size() < end + 4 + len) return std::nullopt;
    std::string body = buf_.substr(end + 4, len);
    buf_.erase(0, end + 4 + len);
    return body;
  }

  int fd_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string buf_;
  bool eof_ = false;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

bool write_all(int fd, const std::string& data) {
  const char* p = data.data();
  size_t n = data.size();
  while (n > 0) {
    ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

std::string pretty(const std::string& body) {
  try {
    return json::parse(body).dump(2);
  } catch (const json::exception&) {
    return body;  // not JSON: show the bytes as they came
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: protocol_runner <denpex> <case.jsonrpc>\n";
    return 2;
  }
  ::signal(SIGPIPE, SIG_IGN);  // a server that exits early must fail the test, not kill the runner
  std::string denpex = argv[1], path = argv[2];
  Case c = parse_case(path);
  auto timeout = std::chrono::seconds(10);
  if (const char* t = std::getenv("DENPEX_PROTOCOL_TIMEOUT")) timeout = std::chrono::seconds(std::atoi(t));

  std::vector<std::string> args = {"lsp"};
  args.insert(args.end(), c.args.begin(), c.args.end());
  bp::pipe to_server, from_server;
  bp::child child(denpex, bp::args(args), bp::std_in < to_server, bp::std_out > from_server);
  // Drop our copies of the child's ends so EOF travels both ways.
  ::close(to_server.native_source());
  to_server.assign_source(-1);
  ::close(from_server.native_sink());
  from_server.assign_sink(-1);

  int failures = 0;
  auto fail = [&](const Step& s, const std::string& msg) {
    std::cerr << path << ":" << s.line << ": FAILED: " << msg << "\n";
    ++failures;
  };
  {
    Output out(from_server.native_source());
    for (const Step& s : c.steps) {
      if (failures) break;
      switch (s.kind) {
        case Step::SendFramed:
        case Step::SendRaw: {
          std::string bytes = s.kind == Step::SendRaw
                                  ? s.data
                                  : "Content-Length: " + std::to_string(s.data.size()) + "\r\n\r\n" + s.data;
          if (!write_all(to_server.native_sink(), bytes)) fail(s, "the server stopped reading its input");
          break;
        }
        case Step::Expect: {
          std::string problem;
          auto body = out.next(timeout, &problem);
          if (!body) {
            fail(s, problem + "\n  expected: " + s.expected.dump(2));
            break;
          }
          json got;
          try {
            got = json::parse(*body);
          } catch (const json::exception& e) {
            fail(s, std::string("the server sent invalid JSON (") + e.what() + "):\n  " + *body);
            break;
          }
          if (auto m = first_difference(s.expected, got, ""))
            fail(s, "message does not match at " + *m + "\n  expected (subset): " + s.expected.dump(2) +
                        "\n  actual: " + got.dump(2));
          break;
        }
        case Step::Close:
          ::close(to_server.native_sink());
          to_server.assign_sink(-1);
          break;
        case Step::Exit: {
          auto deadline = Clock::now() + timeout;
          while (child.running() && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
          if (child.running()) {
            fail(s, "the server did not exit within the timeout");
            break;
          }
          if (child.exit_code() != s.exit_code)
            fail(s, "exit code " + std::to_string(child.exit_code()) + ", expected " + std::to_string(s.exit_code));
          // Exactly one reply per request: anything left over is a bug. The server has exited,
          // so its output ends promptly.
          std::string problem;
          while (auto extra = out.next(timeout, &problem))
            fail(s, "unexpected message from the server:\n  " + pretty(*extra));
          if (problem != "the server closed its output") fail(s, problem);
          break;
        }
      }
    }
    if (child.running()) child.terminate();  // after a failure: do not leave it behind
    if (to_server.native_sink() != -1) {
      ::close(to_server.native_sink());
      to_server.assign_sink(-1);
    }
  }
  child.wait();
  if (failures) return 1;
  std::cout << path << ": ok (" << c.steps.size() << " steps)\n";
  return 0;
}
