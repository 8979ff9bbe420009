#include "denpex/server/library_loading.h"

#include <cstdio>

#include "denpex/server/terminal.h"

namespace denpex::cli {

LoadedLibrary load_library(const std::vector<std::string>& user_dirs) {
  LoadedLibrary out;
  out.library = encyclopedia::Library::builtin(&out.problems);
  for (const auto& dir : user_dirs) {
    auto ids = out.library.add_directory(dir, out.problems);
    out.user_ids.insert(out.user_ids.end(), ids.begin(), ids.end());
  }
  return out;
}

void report_problems(const std::string& command, const std::vector<encyclopedia::Problem>& problems) {
  Style st = Style::for_stream(stderr);
  for (const auto& p : problems)
    std::fprintf(stderr, "%s: %s %s\n", command.c_str(), st.yellow("warning:").c_str(), p.str().c_str());
}

}  // namespace denpex::cli
