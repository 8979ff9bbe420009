#pragma once
// The `denpex` command line: one function per subcommand, each returning the process exit code.
#include <string>
#include <string_view>
#include <vector>

namespace denpex::cli {

enum Exit : int { kOk = 0, kFindings = 1, kUsage = 2 };

using Args = std::vector<std::string>;

int run_main(int argc, char** argv);

int cmd_diagnose(const Args& args);
int cmd_run(const Args& args);
int cmd_triage(const Args& args);
int cmd_evidence(const Args& args);
int cmd_check(const Args& args);
int cmd_explain(const Args& args);
int cmd_signatures(const Args& args);
int cmd_lsp(const Args& args);

}  // namespace denpex::cli
