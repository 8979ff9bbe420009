#pragma once
// Subcommands that later issues fill in say so plainly instead of pretending.
#include <cstdio>
#include <string>

#include "denpex/server/cli.h"
#include "denpex/server/terminal.h"

namespace denpex::cli {

inline int not_built_yet(const char* command, const char* usage, const Args& args) {
  for (const auto& a : args) {
    if (a == "-h" || a == "--help") {
      std::printf("Usage: %s\n\nNot built yet in this version of denpex.\n", usage);
      return kOk;
    }
  }
  print_error(command, "not built yet in this version of denpex");
  return kUsage;
}

}  // namespace denpex::cli
