// `denpex diagnose [FILE|DIR|-]...`: stream logs through the log engine and report which rank
// broke first, what broke and what to do.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

#include "denpex/logs/builtin_atoms.h"
#include "denpex/logs/diagnoser.h"
#include "denpex/server/diagnose_render.h"
#include "denpex/server/evidence_input.h"
#include "denpex/server/library_loading.h"
#include "denpex/server/log_inputs.h"
#include "denpex/server/options.h"
#include "denpex/server/terminal.h"

namespace denpex::cli {
namespace {

const char* kHelp =
    "Usage: denpex diagnose [options] [FILE|DIR|-]...\n\n"
    "Find the initiating fault of a failed training run in its logs: which rank broke first, what\n"
    "broke, the evidence, and the fix. Directories are read recursively; `-` or no argument reads\n"
    "stdin. Several files (rank3.log, node-05.out, dmesg-node-05.log) are attributed by name.\n\n"
    "Options:\n"
    "  --format text|json|markdown  Output format (default: text; json schema in docs/diagnose.md)\n"
    "  --context N                  Lines kept before the first error line (default: 100)\n"
    "  --signatures DIR             Also load entries from DIR (repeatable)\n"
    "  --evidence DIR               Also use an evidence pack (`denpex evidence --out DIR`): its\n"
    "                               kernel log is diagnosed with the logs, its /dev/shm size is evidence\n"
    "  --color auto|always|never    Colour in text output (default: auto; NO_COLOR disables)\n"
    "  --exit-zero                  Exit 0 even when a failure is diagnosed (I/O errors still exit 2)\n"
    "  -h, --help                   Show this help\n\n"
    "Exit codes: 1 a failure was diagnosed, 0 none (or only warnings), 2 usage or I/O error.\n";

class Progress {
 public:
  Progress(uint64_t total) : on_(total >= (64ull << 20) && isatty(STDERR_FILENO) == 1), total_(total) {}
  void update(uint64_t done) {
    if (!on_) return;
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    std::fprintf(stderr, "\rdiagnose: %3d%% of %.1f MiB", static_cast<int>(100.0 * done / total_), total_ / 1048576.0);
  }
  void done() {
    if (on_) std::fprintf(stderr, "\r%40s\r", "");
  }

 private:
  bool on_;
  uint64_t total_;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace

int cmd_diagnose(const Args& args) {
  Options opts("diagnose", kHelp);
  opts.value("format").value("signatures").value("color").value("context").value("evidence").flag("exit-zero");
  if (auto rc = opts.parse(args)) return *rc;
  if (opts.help()) return kOk;
  const std::string format = opts.get("format", "text");
  if (format != "text" && format != "json" && format != "markdown")
    return opts.usage_error("unknown --format '" + format + "' (text, json or markdown)");
  logs::DiagnoseOptions dopts;
  if (opts.has("context")) {
    const std::string c = opts.get("context");
    char* end = nullptr;
    long n = std::strtol(c.c_str(), &end, 10);
    if (c.empty() || *end != '\0' || n < 0 || n > 100000) return opts.usage_error("--context needs a number of lines");
    dopts.context = static_cast<size_t>(n);
  }
  std::vector<project::LogInput> inputs;
  std::string error;
  for (const auto& p : opts.positional())
    if (!project::collect_log_inputs(p, inputs, error)) {
      print_error("diagnose", error);
      return kUsage;
    }
  if (opts.positional().empty()) {
    if (isatty(STDIN_FILENO) == 1) return opts.usage_error("no input: give files or directories, or pipe a log into stdin");
    inputs.push_back({"-", 0});
  }

  // The pack is read before the logs: a wrong --evidence should fail at once, not after them.
  std::optional<features::EvidencePack> pack;
  if (opts.has("evidence") && !(pack = read_evidence_pack(opts.get("evidence"), error))) {
    print_error("diagnose", error);
    return kUsage;
  }
  auto loaded = project::load_library(opts.all("signatures"));
  report_problems("diagnose", loaded.problems);
  // With the built-in library alone the matcher routes lines by the atoms computed at build
  // time, and fills and compiles its Set only when a line routing cannot answer needs it.
  dopts.atoms = &logs::builtin_prefilter_atoms();
  logs::Matcher matcher(loaded.library.entries(), dopts.atoms);
  // Files that already hold more than the prefilter waits for get it from their first piece on;
  // so does any input when the prefilter's atoms were computed at build time (the built-in
  // library alone): then it costs a pass over the first 256 KiB instead of ~20 ms.
  uint64_t total = 0, done = 0;
  for (const auto& in : inputs) total += in.size;
  if (total >= dopts.prefilter_after || dopts.atoms->fit(matcher.screen_patterns())) dopts.prefilter_after = 0;
  logs::Diagnoser diagnoser(matcher, dopts);
  // Without routing, the Set is needed at once: wait for it here, so that a Set that could not
  // be compiled is said before anything is read.
  if (!matcher.routed() && !matcher.ok()) {
    print_error("diagnose", matcher.error());
    return kUsage;
  }
  Progress progress(total);
  std::vector<char> buf(1 << 20);
  for (const auto& in : inputs) {
    std::string failed = project::feed_log_file(diagnoser, in.path, in.path == "-" ? "<stdin>" : in.path, buf,
                                                [&](uint64_t n) { progress.update(done + n); });
    if (!failed.empty()) {
      print_error("diagnose", failed);
      return kUsage;
    }
    done += in.size;
  }
  progress.done();
  // Lines routing left to the Set got no answer from a Set that could not be compiled.
  if (matcher.set_failed()) {
    print_error("diagnose", matcher.error());
    return kUsage;
  }
  if (pack) feed_kernel_log(diagnoser, *pack, opts.get("evidence"));
  logs::Report report = diagnoser.finish();
  if (pack) features::apply_evidence(*pack, report);
  if (format == "json") {
    std::printf("%s\n", features::diagnose_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  } else if (format == "markdown") {
    std::fputs(features::diagnose_markdown(report).c_str(), stdout);
  } else {
    Style st = Style::for_stream(stdout, opts.get("color", "auto"));
    std::fputs(features::diagnose_text(report, st.enabled(), std::min<size_t>(dopts.context, 10)).c_str(), stdout);
  }
  // A run that only printed warnings did not fail: its advisory is shown, the exit code says so.
  bool failed = !report.diagnoses.empty() && report.diagnoses.front().failed;
  const int rc = !failed || opts.has("exit-zero") ? kOk : kFindings;
  // The process ends here. What the diagnosis holds (the library, the matcher's Set and DFA, the
  // line caches: some 10 MB in small allocations) is left to the kernel rather than freed piece
  // by piece, which took ~1 ms of the ~25 ms a 1 MB selection costs from start to report.
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(rc);
}

}  // namespace denpex::cli
