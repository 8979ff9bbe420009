// `denpex run [--log FILE] -- CMD ARGS...`: run a training command, pass its output through
// untouched, watch it live, and diagnose it when it fails. Exits with the command's own code.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <utility>  // boost::asio 1.74 uses std::exchange without including it
#include <array>
#include <boost/asio.hpp>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cstdio>
#include <cctype>
#include <chrono>
#include <fstream>
#include <optional>
#include <string>

#include "denpex/logs/diagnoser.h"
#include "denpex/server/absence_watch.h"
#include "denpex/server/diagnose_render.h"
#include "denpex/logs/builtin_atoms.h"
#include "denpex/server/library_loading.h"
#include "denpex/server/options.h"
#include "denpex/server/terminal.h"

namespace denpex::cli {
namespace {
namespace bp = boost::process;
namespace asio = boost::asio;

const char* kHelp =
    "Usage: denpex run [options] -- CMD [ARGS...]\n\n"
    "Run a training command, pass its stdout and stderr through unchanged, watch them live, print\n"
    "one line to stderr at the first initiating fault, and print the diagnosis if the command fails.\n"
    "SIGINT and SIGTERM are forwarded to the command's process group; nothing is left running.\n\n"
    "Options:\n"
    "  --log FILE                   Also write the command's output (stdout and stderr) to FILE\n"
    "  --expect-absent ENTRY[,...]  Verify a fix: exit 0 only if the command succeeds and none of\n"
    "                               these entries' fingerprints appears (else say where it did)\n"
    "  --steps-timeout DURATION     With --expect-absent: a run still going after DURATION (600,\n"
    "                               10m, 1h) has run the steps that failed before; stop it (SIGTERM,\n"
    "                               SIGKILL 10 s later) and count it as verified if nothing appeared\n"
    "  --signatures DIR             Also load entries from DIR (repeatable)\n"
    "  --color auto|always|never    Colour in the report (default: auto; NO_COLOR disables)\n"
    "  -h, --help                   Show this help\n\n"
    "Exit code: the command's own; 128+N when it was killed by signal N; 127 when it cannot start;\n"
    "with --expect-absent, 1 when the command succeeded but an expected-absent fingerprint appeared,\n"
    "and 0 when --steps-timeout stopped it before any did.\n";

// `600`, `90s`, `10m`, `1h` -> seconds; nullopt when malformed or not positive.
std::optional<long> parse_duration(const std::string& s) {
  size_t digits = 0;
  while (digits < s.size() && digits < 9 && std::isdigit(static_cast<unsigned char>(s[digits]))) ++digits;
  if (digits == 0) return std::nullopt;
  long n = std::stol(s.substr(0, digits));
  std::string unit = s.substr(digits);
  long scale = unit.empty() || unit == "s" ? 1 : unit == "m" ? 60 : unit == "h" ? 3600 : 0;
  if (scale == 0 || n <= 0) return std::nullopt;
  return n * scale;
}

void write_all(int fd, const char* data, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;  // a closed terminal must not stop the child's output from being read
    data += w;
    n -= static_cast<size_t>(w);
  }
}

// Reads one of the child's pipes until EOF: to our own fd first, then the log, then the engine.
struct Stream {
  bp::async_pipe pipe;
  int fd;
  uint32_t input;
  std::array<char, 65536> buf{};
  Stream(asio::io_context& ios, int out_fd) : pipe(ios), fd(out_fd), input(0) {}
};

void pump(Stream& s, logs::Diagnoser& diag, std::ofstream* log, features::AbsenceWatch* watch) {
  s.pipe.async_read_some(asio::buffer(s.buf), [&s, &diag, log, watch](const boost::system::error_code& ec, size_t n) {
    if (n > 0) {
      write_all(s.fd, s.buf.data(), n);
      if (log) log->write(s.buf.data(), static_cast<std::streamsize>(n)).flush();
      diag.feed(s.input, std::string_view(s.buf.data(), n));
      if (watch) watch->feed(s.fd == STDOUT_FILENO ? 0 : 1, std::string_view(s.buf.data(), n));
    }
    if (ec) return;
    pump(s, diag, log, watch);
  });
}

}  // namespace

int cmd_run(const Args& args) {
  Options opts("run", kHelp);
  opts.value("log").value("signatures").value("color").value("expect-absent").value("steps-timeout");
  if (auto rc = opts.parse(args)) return *rc;
  if (opts.help()) return kOk;
  std::vector<std::string> command = opts.rest();
  if (command.empty()) command = opts.positional();
  else if (!opts.positional().empty()) return opts.usage_error("put the command after `--`");
  if (command.empty()) return opts.usage_error("no command to run; usage: denpex run -- CMD [ARGS...]");

  boost::filesystem::path exe = command[0];
  if (command[0].find('/') == std::string::npos) exe = bp::search_path(command[0]);
  if (exe.empty() || ::access(exe.c_str(), X_OK) != 0) {
    print_error("run", "cannot run '" + command[0] + "': command not found or not executable");
    return 127;
  }
  std::unique_ptr<std::ofstream> log;
  if (opts.has("log")) {
    log = std::make_unique<std::ofstream>(opts.get("log"), std::ios::binary | std::ios::trunc);
    if (!*log) {
      print_error("run", "cannot write '" + opts.get("log") + "'");
      return kUsage;
    }
  }

  auto loaded = project::load_library(opts.all("signatures"));
  report_problems("run", loaded.problems);
  // The entries a fix should have made disappear, checked before the command runs.
  std::unique_ptr<features::AbsenceWatch> watch;
  std::vector<std::string> absent_ids;
  for (const auto& list : opts.all("expect-absent"))
    for (size_t b = 0; b <= list.size();) {
      size_t e = std::min(list.find(',', b), list.size());
      if (e > b) absent_ids.push_back(list.substr(b, e - b));
      b = e + 1;
    }
  if (opts.has("expect-absent")) {
    if (absent_ids.empty()) return opts.usage_error("--expect-absent needs entry ids (see `denpex signatures list`)");
    std::vector<core::Entry> absent;
    for (const auto& id : absent_ids) {
      const core::Entry* e = loaded.library.find(id);
      if (!e) {
        std::string msg = "no encyclopedia entry '" + id + "'";
        auto near = loaded.library.closest_ids(id, 3);
        for (size_t i = 0; i < near.size(); ++i) msg += (i ? ", " : "; did you mean ") + near[i];
        return opts.usage_error(msg);
      }
      absent.push_back(*e);
    }
    watch = std::make_unique<features::AbsenceWatch>(std::move(absent), std::vector<std::string>{"stdout", "stderr"});
  }
  std::optional<long> steps_timeout;
  if (opts.has("steps-timeout")) {
    if (!watch) return opts.usage_error("--steps-timeout verifies a fix: use it with --expect-absent ENTRY");
    steps_timeout = parse_duration(opts.get("steps-timeout"));
    if (!steps_timeout) return opts.usage_error("--steps-timeout wants a duration such as 600, 90s, 10m or 1h");
  }
  logs::Matcher matcher(loaded.library.entries(), &logs::builtin_prefilter_atoms());
  logs::DiagnoseOptions dopts;
  dopts.repair_pastes_up_to = 0;  // a live line as the command prints: nothing is held back
  logs::Diagnoser diag(matcher, dopts);
  Style err_style = Style::for_stream(stderr, opts.get("color", "auto"));
  diag.on_live_fault([&](const logs::LiveFault& f) {
    std::string who = f.rank >= 0 ? "rank " + std::to_string(f.rank) + ": " : "";
    std::string msg = "denpex: " + who + "initiating fault: " + f.entry->title + " (" + f.entry->id + ", " + f.file +
                      " line " + std::to_string(f.line) + ")\n";
    msg = err_style.yellow(msg.substr(0, msg.size() - 1)) + "\n";
    write_all(STDERR_FILENO, msg.data(), msg.size());
  });

  asio::io_context ios;
  Stream out(ios, STDOUT_FILENO), err(ios, STDERR_FILENO);
  out.input = diag.open("stdout");
  err.input = diag.open("stderr");
  // The child leads its own process group so that a forwarded signal reaches everything it
  // started (ranks, DataLoader workers), and so that we can clean up what it leaves behind.
  pid_t child_pid = -1;
  bool exited = false;
  asio::signal_set signals(ios, SIGINT, SIGTERM);
  std::function<void()> wait_signal = [&] {
    signals.async_wait([&](const boost::system::error_code& ec, int sig) {
      if (ec) return;
      if (child_pid > 0) ::kill(-child_pid, sig);
      wait_signal();
    });
  };
  wait_signal();
  // A repro that outlives the steps which used to fail has shown what it can: stop it.
  bool timed_out = false;
  asio::steady_timer stop_timer(ios), kill_timer(ios);
  bp::child child;
  try {
    std::vector<std::string> child_args(command.begin() + 1, command.end());
    child = bp::child(exe, bp::args(child_args), bp::std_out > out.pipe, bp::std_err > err.pipe, ios,
                      bp::extend::on_exec_setup([](auto&) { ::setpgid(0, 0); }),
                      bp::on_exit([&](int, const std::error_code&) {
                        exited = true;
                        signals.cancel();
                        stop_timer.cancel();
                        kill_timer.cancel();
                      }));
  } catch (const std::exception& e) {
    print_error("run", "cannot start '" + command[0] + "': " + e.what());
    return 127;
  }
  child_pid = child.id();
  ::setpgid(child_pid, child_pid);  // also from the parent: no race with an early signal
  if (steps_timeout) {
    stop_timer.expires_after(std::chrono::seconds(*steps_timeout));
    stop_timer.async_wait([&](const boost::system::error_code& ec) {
      if (ec || exited) return;
      timed_out = true;
      ::kill(-child_pid, SIGTERM);
      kill_timer.expires_after(std::chrono::seconds(10));
      kill_timer.async_wait([&](const boost::system::error_code& e2) {
        if (!e2 && !exited) ::kill(-child_pid, SIGKILL);
      });
    });
  }
  pump(out, diag, log.get(), watch.get());
  pump(err, diag, log.get(), watch.get());
  ios.run();
  if (!exited) child.wait();
  int status = child.native_exit_code();
  int code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  // Stopped by --steps-timeout: however it ended, it did not fail on its own in that time.
  if (timed_out) code = 0;
  // Grandchildren still alive in the group would be orphans: end them.
  if (::kill(-child_pid, 0) == 0) ::kill(-child_pid, SIGTERM);

  logs::Report report = diag.finish();
  std::vector<features::Sighting> seen;
  if (watch) seen = watch->finish();
  if (!seen.empty()) {
    std::string msg = "\n" + err_style.bold("denpex: the fix is not verified: an expected-absent failure appeared") + "\n";
    for (const auto& s : seen)
      msg += "  " + s.entry + " at " + s.stream + " line " + std::to_string(s.line) +
             (s.repeats ? " (and " + std::to_string(s.repeats) + " more lines)" : "") + ": " + s.text.substr(0, 300) + "\n";
    write_all(STDERR_FILENO, msg.data(), msg.size());
    if (code == 0) {
      if (!report.diagnoses.empty()) {
        std::string text = features::diagnose_text(report, err_style.enabled(), 10, features::shell_quote(command));
        write_all(STDERR_FILENO, text.data(), text.size());
      }
      return 1;
    }
  } else if (watch && code == 0) {
    const std::string how = timed_out ? "the command ran " + std::to_string(*steps_timeout) + " s (--steps-timeout; stopped then)"
                                      : "the command succeeded";
    std::string msg = "denpex: verified: " + how + " and none of " + std::to_string(absent_ids.size()) +
                      " expected-absent " + (absent_ids.size() == 1 ? "entry" : "entries") + " appeared\n";
    write_all(STDERR_FILENO, msg.data(), msg.size());
  }
  if (code != 0) {
    std::string text = features::diagnose_text(report, err_style.enabled(), 10, features::shell_quote(command));
    std::string banner = "\n" + err_style.bold("denpex: the command failed with exit code " + std::to_string(code)) + "\n";
    write_all(STDERR_FILENO, banner.data(), banner.size());
    write_all(STDERR_FILENO, text.data(), text.size());
  }
  return code;
}

}  // namespace denpex::cli
