// `denpex` top level: global flags and the subcommand table.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "denpex/python/parse.h"
#include "denpex/server/cli.h"
#include "denpex/server/terminal.h"

namespace denpex::cli {
namespace {

struct Command {
  const char* name;
  const char* summary;
  int (*run)(const Args&);
};

const Command kCommands[] = {
    {"diagnose", "Diagnose a training failure from logs (files, directories or stdin)", cmd_diagnose},
    {"run", "Run a training command, watch its output, diagnose it when it fails", cmd_run},
    {"triage", "Diagnose many jobs' outputs at once: counts, suspect nodes, failing lines", cmd_triage},
    {"evidence", "Collect versions, GPU state, kernel log and environment into an evidence pack", cmd_evidence},
    {"check", "Check Python training code for risky PyTorch patterns", cmd_check},
    {"explain", "Show an encyclopedia entry: cause, mechanism, fix, verification", cmd_explain},
    {"signatures", "List, test and validate encyclopedia entries", cmd_signatures},
    {"lsp", "Start the language server on stdin/stdout", cmd_lsp},
};

void print_help() {
  std::printf(
      "denpex: find out why a PyTorch training run broke, and what to do about it.\n"
      "Everything runs locally; nothing is ever uploaded.\n\n"
      "Usage: denpex <command> [options] [args]\n\nCommands:\n");
  for (const auto& c : kCommands) std::printf("  %-11s %s\n", c.name, c.summary);
  std::printf(
      "\nGlobal options:\n"
      "  -h, --help     Show this help (or `denpex <command> --help`)\n"
      "  -V, --version  Show the version of denpex and of its engines\n\n"
      "Exit codes: 0 nothing found, 1 a failure diagnosed or findings reported, 2 usage or I/O error.\n"
      "Colour is used on terminals unless NO_COLOR is set.\n");
}

void print_version() {
  std::printf("denpex %s\n", DENPEX_VERSION);
  std::printf("  RE2 %s\n", DENPEX_RE2_VERSION);
  std::printf("  tree-sitter runtime %s (language ABI %d)\n", DENPEX_TS_RUNTIME_VERSION, TREE_SITTER_LANGUAGE_VERSION);
  std::printf("  tree-sitter-python %s (ABI %u)\n", DENPEX_TS_PYTHON_VERSION, python::grammar_abi_version());
}

}  // namespace

int run_main(int argc, char** argv) {
  if (argc < 2) {
    print_help();
    return kUsage;
  }
  std::string first = argv[1];
  if (first == "-h" || first == "--help" || first == "help") {
    if (first == "help" && argc > 2) {
      Args help_args = {"--help"};
      for (const auto& c : kCommands)
        if (std::strcmp(c.name, argv[2]) == 0) return c.run(help_args);
    }
    print_help();
    return kOk;
  }
  if (first == "-V" || first == "--version") {
    print_version();
    return kOk;
  }
  for (const auto& c : kCommands) {
    if (first != c.name) continue;
    Args args(argv + 2, argv + argc);
    try {
      return c.run(args);
    } catch (const std::exception& e) {
      print_error(c.name, std::string("internal error: ") + e.what() +
                              " (please report it with the command line that caused it)");
      return kUsage;
    }
  }
  print_error("denpex", "unknown command '" + first + "'; run `denpex --help` for the list");
  return kUsage;
}

}  // namespace denpex::cli
