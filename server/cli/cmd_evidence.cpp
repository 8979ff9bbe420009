// `denpex evidence [--out DIR]`: what this machine looks like, for a failure report and for
// `diagnose --evidence`. Every probe is optional and bounded in time: a missing tool or an
// unreadable kernel log is written down as such, and never stops the pack.
#include <fcntl.h>
#include <signal.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <utility>  // boost::asio 1.74 uses std::exchange without including it
#include <array>
#include <boost/asio.hpp>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "denpex/server/evidence.h"
#include "denpex/server/options.h"
#include "denpex/server/terminal.h"

extern char** environ;

namespace denpex::cli {
namespace {
namespace bp = boost::process;
namespace asio = boost::asio;
namespace fs = std::filesystem;

const char* kHelp =
    "Usage: denpex evidence [options]\n\n"
    "Collect what a failure report needs from this machine into DIR/evidence.md (for people) and\n"
    "DIR/evidence.json (for `denpex diagnose --evidence DIR`): Python, PyTorch, CUDA, cuDNN and NCCL\n"
    "versions (what `torch.utils.collect_env` reports), `nvidia-smi -q`, the tail of the kernel log\n"
    "(`journalctl -k` or `dmesg`), NCCL_*, PYTORCH_*, CUDA_*, TORCH_*, SLURM_* and launcher\n"
    "variables (secrets redacted), `ulimit -a`, /dev/shm size and free host memory.\n"
    "Each probe runs for at most --timeout seconds; one that is missing, fails or times out is\n"
    "reported so, and the pack is written anyway. Nothing is sent anywhere.\n\n"
    "Options:\n"
    "  --out DIR        Where to write (default: ./denpex-evidence; created if missing). Only\n"
    "                   evidence.md and evidence.json are written there, atomically\n"
    "  --python EXE     The interpreter the training runs with (default: python3 on PATH)\n"
    "  --collect-env    Also run `python3 -m torch.utils.collect_env` in full (it runs pip,\n"
    "                   conda and compilers too: slower; it gets three times --timeout)\n"
    "  --timeout S      Seconds per probe (default: 10)\n"
    "  -h, --help       Show this help\n\n"
    "Exit codes: 0 the pack was written, 2 usage error or the pack could not be written.\n";

constexpr size_t kMaxOutput = 1 << 20;

// The versions `torch.utils.collect_env` reports, read in-process: collect_env also runs pip,
// conda, lsb_release and more, which takes seconds and is what --collect-env is for.
const char* kVersionsScript = R"PY(import platform, sys
print("Python version:", sys.version.replace("\n", " "))
print("Python platform:", platform.platform())
try:
    import torch
except Exception as e:
    print("PyTorch: does not import:", type(e).__name__ + ":", e)
    sys.exit(3)
print("PyTorch version:", torch.__version__)
print("Is debug build:", torch.version.debug)
print("CUDA used to build PyTorch:", torch.version.cuda)
print("ROCm used to build PyTorch:", getattr(torch.version, "hip", None))
cuda = torch.cuda.is_available()
print("Is CUDA available:", cuda)
print("cuDNN version:", torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None)
try:
    print("NCCL version:", ".".join(map(str, torch.cuda.nccl.version())) if cuda else None)
except Exception as e:
    print("NCCL version: unknown (" + type(e).__name__ + ")")
for i in range(torch.cuda.device_count() if cuda else 0):
    p = torch.cuda.get_device_properties(i)
    print(f"GPU {i}: {p.name}, {p.total_memory >> 20} MiB, compute capability {p.major}.{p.minor}")
print("Distributed available:", torch.distributed.is_available())
)PY";
constexpr size_t kKernelLines = 300;

struct Outcome {
  bool ran = false;
  int code = -1;
  std::string output;
  std::string status, detail;
};

// Runs argv with stdin closed and stdout+stderr captured (the last kMaxOutput bytes), in its own
// process group so that a timeout ends everything it started.
Outcome run_probe(const std::vector<std::string>& argv, std::chrono::seconds timeout) {
  Outcome o;
  boost::filesystem::path exe = argv[0];
  if (argv[0].find('/') == std::string::npos) exe = bp::search_path(argv[0]);
  if (exe.empty() || ::access(exe.c_str(), X_OK) != 0) {
    o.status = "missing";
    o.detail = argv[0] + " is not installed (not found on PATH)";
    return o;
  }
  asio::io_context ios;
  bp::async_pipe pipe(ios);
  std::array<char, 65536> buf{};
  std::function<void()> read = [&] {
    pipe.async_read_some(asio::buffer(buf), [&](const boost::system::error_code& ec, size_t n) {
      o.output.append(buf.data(), n);
      if (o.output.size() > 2 * kMaxOutput) o.output.erase(0, o.output.size() - kMaxOutput);
      if (!ec) read();
    });
  };
  bp::child child;
  try {
    child = bp::child(exe, bp::args(std::vector<std::string>(argv.begin() + 1, argv.end())),
                      (bp::std_out & bp::std_err) > pipe, bp::std_in < bp::null, ios,
                      bp::extend::on_exec_setup([](auto&) { ::setpgid(0, 0); }));
  } catch (const std::exception& e) {
    o.status = "failed";
    o.detail = std::string("cannot start: ") + e.what();
    return o;
  }
  const pid_t pid = child.id();
  ::setpgid(pid, pid);
  read();
  ios.run_for(timeout);
  bool timed_out = !ios.stopped();
  if (timed_out) {
    ::kill(-pid, SIGKILL);
    ios.restart();
    ios.run_for(std::chrono::seconds(2));
  }
  std::error_code ec;
  child.wait(ec);
  int status = child.native_exit_code();
  if (::kill(-pid, 0) == 0) ::kill(-pid, SIGKILL);  // what it left behind
  o.ran = true;
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  if (o.output.size() > kMaxOutput) o.output.erase(0, o.output.size() - kMaxOutput);
  if (timed_out) {
    o.status = "timed out";
    o.detail = "stopped after " + std::to_string(timeout.count()) + " s";
  } else if (o.code != 0) {
    o.status = "failed";
    o.detail = "exit code " + std::to_string(o.code);
  } else {
    o.status = "ok";
  }
  return o;
}

std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of("\n ");
  if (end == std::string::npos) return "";
  size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

std::string join(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

features::Probe probe(std::string name, const std::vector<std::string>& argv, std::chrono::seconds timeout,
                      Outcome* raw = nullptr) {
  Outcome o = run_probe(argv, timeout);
  features::Probe p{std::move(name), join(argv), o.status, o.detail, features::redact_text(o.output)};
  if (raw) *raw = std::move(o);
  return p;
}

std::vector<std::string> tail_lines(const std::string& text, size_t n) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(features::redact_text(line));
  if (lines.size() > n) lines.erase(lines.begin(), lines.end() - static_cast<long>(n));
  return lines;
}

void read_memory(features::EvidencePack& pack) {
  struct statvfs v {};
  if (::statvfs("/dev/shm", &v) == 0) {
    pack.shm_size = static_cast<uint64_t>(v.f_blocks) * v.f_frsize;
    pack.shm_free = static_cast<uint64_t>(v.f_bavail) * v.f_frsize;
  }
  std::ifstream meminfo("/proc/meminfo");
  for (std::string key; meminfo >> key;) {
    uint64_t kib = 0;
    meminfo >> kib;
    if (key == "MemTotal:") pack.mem_total = kib * 1024;
    if (key == "MemAvailable:") pack.mem_available = kib * 1024;
    meminfo.ignore(256, '\n');
  }
}

// The kernel's recent messages: the journal names the host on every line (so the diagnoser
// attributes them to the node); plain dmesg is the fallback where there is no journal.
void read_kernel_log(features::EvidencePack& pack, std::chrono::seconds timeout) {
  Outcome o;
  features::Probe journal = probe("kernel log (journal)", {"journalctl", "-k", "-n", std::to_string(kKernelLines),
                                                           "--no-pager", "-o", "short", "-q"},
                                  timeout, &o);
  std::vector<std::string> lines = tail_lines(o.output, kKernelLines);
  if (journal.status == "ok" && !lines.empty() && lines.front().rfind("-- No entries --", 0) != 0) {
    journal.output.clear();  // the lines are kept once, below
    journal.detail = std::to_string(lines.size()) + " lines";
    pack.probes.push_back(std::move(journal));
    pack.kernel_log_source = "journalctl -k";
    pack.kernel_log = std::move(lines);
    return;
  }
  if (journal.status == "ok") {
    journal.status = "failed";
    journal.detail = "no kernel messages in the journal";
  }
  journal.output = last_line(journal.output);
  pack.probes.push_back(std::move(journal));
  // Wall-clock stamps (-T) let the diagnoser order the kernel's lines against the ranks' logs.
  features::Probe dmesg = probe("kernel log (dmesg)", {"dmesg", "-T"}, timeout, &o);
  lines = tail_lines(o.output, kKernelLines);
  if (dmesg.status == "ok") {
    dmesg.output.clear();
    dmesg.detail = std::to_string(lines.size()) + " lines";
    pack.kernel_log_source = "dmesg -T";
    pack.kernel_log = std::move(lines);
  } else if (dmesg.status == "failed") {
    // Usually kernel.dmesg_restrict: only root may read it.
    dmesg.status = "unreadable";
    dmesg.detail += ": " + last_line(o.output);
    dmesg.output.clear();
  }
  pack.probes.push_back(std::move(dmesg));
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Replaces DIR/name only when what is there is ours (or nothing): a file of the same name that
// is not an evidence pack is somebody else's, and stays. Written to a temporary file first and
// renamed, so that a reader never sees half a pack.
std::string write_atomically(const fs::path& dir, const std::string& name, const std::string& text,
                             const std::string& ours_marker) {
  const fs::path target = dir / name;
  std::error_code ec;
  auto st = fs::symlink_status(target, ec);
  if (fs::exists(st)) {
    if (!fs::is_regular_file(st)) return "'" + target.string() + "' exists and is not a regular file; choose another --out";
    std::ifstream f(target, std::ios::binary);
    std::string head(16u << 20, '\0');
    f.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(f.gcount()));
    if (head.find(ours_marker) == std::string::npos)
      return "'" + target.string() + "' exists and is not an evidence pack; it is left alone: choose another --out";
  }
  const fs::path tmp = dir / ("." + name + ".tmp-" + std::to_string(::getpid()));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot write '" + tmp.string() + "': " + std::strerror(errno);
  const char* p = text.data();
  size_t left = text.size();
  bool ok = true;
  while (left > 0 && ok) {
    ssize_t w = ::write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    ok = w > 0;
    if (ok) {
      p += w;
      left -= static_cast<size_t>(w);
    }
  }
  ok = ok && ::fsync(fd) == 0;
  std::string why = ok ? "" : std::strerror(errno);
  ::close(fd);
  if (ok && ::rename(tmp.c_str(), target.c_str()) != 0) {
    ok = false;
    why = std::strerror(errno);
  }
  if (!ok) {
    ::unlink(tmp.c_str());
    return "cannot write '" + target.string() + "': " + why;
  }
  return "";
}

}  // namespace

int cmd_evidence(const Args& args) {
  Options opts("evidence", kHelp);
  opts.value("out").value("python").value("timeout").flag("collect-env");
  if (auto rc = opts.parse(args)) return *rc;
  if (opts.help()) return kOk;
  if (!opts.positional().empty()) return opts.usage_error("unexpected argument '" + opts.positional()[0] + "'");
  long seconds = 10;
  if (opts.has("timeout")) {
    const std::string t = opts.get("timeout");
    char* end = nullptr;
    seconds = std::strtol(t.c_str(), &end, 10);
    if (t.empty() || *end != '\0' || seconds < 1 || seconds > 600) return opts.usage_error("--timeout needs seconds, 1 to 600");
  }
  const std::chrono::seconds timeout(seconds);
  const fs::path dir = opts.get("out", "denpex-evidence");
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir)) {
    print_error("evidence", "cannot create '" + dir.string() + "': " + (ec ? ec.message() : "not a directory"));
    return kUsage;
  }

  features::EvidencePack pack;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) pack.host = host;
  pack.created = utc_now();
  const std::string python = opts.get("python", "python3");

  Outcome o;
  features::Probe versions = probe("PyTorch versions", {python, "-c", kVersionsScript}, timeout, &o);
  versions.command = python + " -c <versions script>";
  if (versions.status == "failed" && o.code == 3) {
    versions.status = "missing";
    versions.detail = "PyTorch does not import in " + python + " (" + last_line(o.output) + ")";
  }
  const bool torch_imports = versions.status == "ok";
  pack.probes.push_back(std::move(versions));
  if (opts.has("collect-env")) {
    if (torch_imports) {
      pack.probes.push_back(probe("collect_env", {python, "-m", "torch.utils.collect_env"}, timeout * 3));
    } else {
      pack.probes.push_back({"collect_env", python + " -m torch.utils.collect_env", "skipped",
                             "PyTorch does not import in " + python, ""});
    }
  }
  pack.probes.push_back(probe("nvidia-smi", {"nvidia-smi", "-q"}, timeout));
  read_kernel_log(pack, timeout);
  pack.probes.push_back(probe("ulimit", {"/bin/sh", "-c", "ulimit -a"}, timeout));
  read_memory(pack);
  for (char** e = environ; e && *e; ++e) {
    std::string_view kv(*e);
    size_t eq = kv.find('=');
    if (eq == std::string_view::npos || !features::evidence_env_name(kv.substr(0, eq))) continue;
    pack.environment.emplace_back(std::string(kv.substr(0, eq)),
                                  features::redact_env_value(kv.substr(0, eq), kv.substr(eq + 1)));
  }
  std::sort(pack.environment.begin(), pack.environment.end());

  std::string error = write_atomically(dir, "evidence.json", features::evidence_json(pack).dump(2, ' ', false,
                                       nlohmann::json::error_handler_t::replace) + "\n", "\"tool\": \"denpex evidence\"");
  if (error.empty()) error = write_atomically(dir, "evidence.md", features::evidence_markdown(pack), "# Evidence pack");
  if (!error.empty()) {
    print_error("evidence", error);
    return kUsage;
  }
  std::printf("denpex evidence: wrote %s and %s\n", (dir / "evidence.md").c_str(), (dir / "evidence.json").c_str());
  for (const auto& p : pack.probes)
    std::printf("  %-22s %s%s\n", p.name.c_str(), p.status.c_str(), p.detail.empty() ? "" : (": " + p.detail).c_str());
  std::printf("  %-22s %s\n", "/dev/shm",
              pack.shm_size ? (std::to_string(*pack.shm_size >> 20) + " MiB, " + std::to_string(pack.shm_free.value_or(0) >> 20) + " MiB free").c_str()
                            : "not available");
  std::printf("  %-22s %zu variables (secrets redacted)\n", "environment", pack.environment.size());
  std::printf("Use it: denpex diagnose --evidence %s LOGS...\n", dir.c_str());
  return kOk;
}

}  // namespace denpex::cli
