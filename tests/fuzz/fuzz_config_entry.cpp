// The two files users write: `[tool.denpex]` in pyproject.toml and encyclopedia entries (YAML).
// Invariants: any bytes give a configuration or a list of problems, never a crash; an entry that
// loads compiles into a matcher.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/matcher.h"
#include "denpex/server/check_config.h"

// Every input is read both ways: seeds of either kind then mutate toward the other too.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  static const std::string path = "/tmp/denpex-fuzz-" + std::to_string(getpid()) + ".toml";
  if (FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    auto cfg = denpex::project::read_check_config(path);
    (void)denpex::project::analyze_options(cfg, {}, {}, {});
  }
  std::vector<denpex::encyclopedia::Problem> problems;
  auto entry = denpex::encyclopedia::parse_entry(text, "fuzz.yaml", "", problems);
  if (entry) {
    std::vector<denpex::core::Entry> entries{*entry};
    denpex::logs::Matcher m(entries);
    (void)m;
  }
  return 0;
}
