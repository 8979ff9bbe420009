// The loop around the server: the reader (this thread), one writer thread that owns the output,
// and a watch on the client's process.
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

#include "denpex/server/lsp_server.h"

namespace denpex::lsp {
namespace {

class Writer {
 public:
  explicit Writer(FrameWriter& out) : out_(out), thread_([this] { loop(); }) {}
  ~Writer() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  void push(std::string body) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back(std::move(body));
    }
    cv_.notify_one();
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      cv_.wait(lock, [this] { return done_ || !queue_.empty(); });
      if (queue_.empty()) return;  // done and drained
      std::string body = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      out_.send(body);
      lock.lock();
    }
  }

  FrameWriter& out_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> queue_;
  bool done_ = false;
  std::thread thread_;  // last: starts after the fields it uses
};

// LSP: "If the parent process is not alive then the server should exit". Checked every second.
// Detached, so it touches nothing that the server owns.
void watch_client(long pid) {
  std::thread([pid] {
    while (true) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
        std::fprintf(stderr, "denpex lsp: the client process %ld is gone; exiting\n", pid);
        std::_Exit(1);
      }
    }
  }).detach();
}

}  // namespace

int serve(FrameReader& in, FrameWriter& out, const ServerOptions& options) {
  Writer writer(out);
  // error_handler_t::replace: text cut from a log (evidence lines are capped) may end inside a
  // UTF-8 sequence; a reply must never fail to serialise because of it.
  Server server([&writer](const json& j) { writer.push(j.dump(-1, ' ', false, json::error_handler_t::replace)); }, options);
  bool watching = false;
  while (!server.exited()) {
    Frame f = in.next();
    if (f.kind == Frame::Kind::Eof) {
      server.handle(std::move(f));
      server.note("input closed without an exit notification");
      break;
    }
    server.handle(std::move(f));
    if (!watching && server.client_pid() > 0) {
      watching = true;
      watch_client(server.client_pid());
    }
    if (!out.ok()) {
      server.note("cannot write to the client; stopping");
      break;
    }
  }
  return server.exit_code();
}

}  // namespace denpex::lsp
