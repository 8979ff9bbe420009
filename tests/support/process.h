#pragma once
// Runs the real `denpex` binary (or any program) with arguments and optional stdin, capturing
// stdout, stderr and the exit code. For tests that check behaviour end to end.
#include <map>
#include <string>
#include <vector>

namespace denpex::testing {

struct ProcessResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

ProcessResult run_program(const std::string& program, const std::vector<std::string>& args,
                          const std::string& stdin_text = "", const std::map<std::string, std::string>& env = {});
ProcessResult run_denpex(const std::vector<std::string>& args, const std::string& stdin_text = "",
                         const std::map<std::string, std::string>& env = {});

}  // namespace denpex::testing
