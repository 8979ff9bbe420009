#include "exit_reports.h"

#include <map>

#include "odd_one_out.h"

namespace denpex::logs {
namespace {

std::string signal_name(int n) {
  switch (n) {
    case 2: return "SIGINT";
    case 4: return "SIGILL";
    case 6: return "SIGABRT";
    case 7: return "SIGBUS";
    case 8: return "SIGFPE";
    case 9: return "SIGKILL";
    case 11: return "SIGSEGV";
    case 13: return "SIGPIPE";
    case 15: return "SIGTERM";
    default: return "";
  }
}

bool is_crash(const std::string& outcome) {
  for (const char* s : {"SIGSEGV", "SIGABRT", "SIGBUS", "SIGFPE", "SIGILL", "SIGKILL"})
    if (outcome == s) return true;
  return false;
}

std::string describe(const std::string& outcome) {
  return outcome.starts_with("SIG") ? "was killed by " + outcome : "exited with " + outcome;
}

}  // namespace

std::string exit_outcome(const WorkerExit& e) {
  if (!e.signal.empty()) return e.signal;
  if (e.exitcode < 0 && !signal_name(-e.exitcode).empty()) return signal_name(-e.exitcode);
  if (e.exitcode > 128 && !signal_name(e.exitcode - 128).empty()) return signal_name(e.exitcode - 128);
  return "code " + std::to_string(e.exitcode);
}

std::optional<OddExit> odd_exit(const std::vector<WorkerExit>& reports) {
  std::map<int, std::string> outcome;  // worker -> how it ended, as first reported
  for (const auto& r : reports)
    if (r.worker >= 0) outcome.try_emplace(r.worker, exit_outcome(r));
  std::vector<int> crashed;
  for (const auto& [worker, how] : outcome)
    if (is_crash(how)) crashed.push_back(worker);
  if (crashed.size() == 1) return OddExit{crashed.front(), describe(outcome[crashed.front()]), ""};
  if (!crashed.empty()) return std::nullopt;
  auto odd = odd_value(outcome, "outcome");
  if (!odd) return std::nullopt;
  return OddExit{odd->rank, describe(odd->value), "the others " + describe(odd->usual)};
}

}  // namespace denpex::logs
