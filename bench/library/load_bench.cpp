// Time to make the encyclopedia usable. The built-in library is validated at build time and
// compiled in, so start-up is construction + compiling all fingerprints into the RE2::Set. The
// same library read from YAML (as user directories are) is timed too: parse + validate + compile.
// Usage: bench_library_load [RUNS] [SIGNATURES_DIR]. Reports min and median of RUNS.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/matcher.h"

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 50;
  const char* dir = argc > 2 ? argv[2] : nullptr;
  std::vector<double> parse_ms, total_ms, yaml_ms;
  size_t entries = 0, patterns = 0;
  for (int i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    auto lib = denpex::encyclopedia::Library::builtin();
    auto t1 = std::chrono::steady_clock::now();
    denpex::logs::Matcher matcher(lib.entries());
    auto t2 = std::chrono::steady_clock::now();
    entries = lib.entries().size();
    patterns = matcher.pattern_count();
    parse_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    total_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t0).count());
    if (dir) {
      auto t3 = std::chrono::steady_clock::now();
      denpex::encyclopedia::Library from_yaml;
      std::vector<denpex::encyclopedia::Problem> problems;
      from_yaml.add_directory(dir, problems);
      denpex::logs::Matcher yaml_matcher(from_yaml.entries());
      auto t4 = std::chrono::steady_clock::now();
      yaml_ms.push_back(std::chrono::duration<double, std::milli>(t4 - t3).count());
    }
  }
  std::sort(parse_ms.begin(), parse_ms.end());
  std::sort(total_ms.begin(), total_ms.end());
  std::sort(yaml_ms.begin(), yaml_ms.end());
  std::printf("entries %zu, patterns %zu, runs %d\n", entries, patterns, runs);
  std::printf("built-in construct: min %.2f ms, median %.2f ms\n", parse_ms.front(), parse_ms[parse_ms.size() / 2]);
  std::printf("built-in construct+compile: min %.2f ms, median %.2f ms\n", total_ms.front(), total_ms[total_ms.size() / 2]);
  if (!yaml_ms.empty())
    std::printf("from YAML files, parse+validate+compile: min %.2f ms, median %.2f ms\n", yaml_ms.front(),
                yaml_ms[yaml_ms.size() / 2]);
  return 0;
}
