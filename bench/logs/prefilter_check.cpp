// The literal prefilter may only change the cost of `denpex diagnose`, never its report. For each
// input (each file is one diagnosis; a directory's files are diagnosed together, like the CLI
// does), this diagnoses with the prefilter built at once and with it never built, fed in 1 MiB
// pieces and in odd 4093-byte pieces, and compares the JSON reports byte for byte.
// Usage: bench_prefilter_check PATH...   Exit status 1 on any difference.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/diagnoser.h"
#include "denpex/server/diagnose_render.h"

namespace fs = std::filesystem;

static std::string read(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// inputs: (name, bytes)
static std::string run(const denpex::logs::Matcher& m, const std::vector<std::pair<std::string, std::string>>& inputs,
                       size_t after, size_t piece) {
  denpex::logs::DiagnoseOptions o;
  o.prefilter_after = after;
  denpex::logs::Diagnoser d(m, o);
  for (const auto& [name, bytes] : inputs) {
    uint32_t id = d.open(name);
    for (size_t pos = 0; pos < bytes.size(); pos += piece) d.feed(id, std::string_view(bytes).substr(pos, piece));
    d.close(id);
  }
  return denpex::features::diagnose_json(d.finish()).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

int main(int argc, char** argv) {
  auto lib = denpex::encyclopedia::Library::builtin();
  denpex::logs::Matcher matcher(lib.entries());
  int bad = 0, checked = 0;
  auto compare = [&](const std::string& what, const std::vector<std::pair<std::string, std::string>>& inputs) {
    for (size_t piece : {size_t(1) << 20, size_t(4093)}) {
      const std::string with = run(matcher, inputs, 0, piece), without = run(matcher, inputs, SIZE_MAX, piece);
      ++checked;
      if (with != without) {
        ++bad;
        std::printf("DIFFERENT: %s (pieces of %zu bytes)\n", what.c_str(), piece);
      }
    }
  };
  // Every example of the library, one report each, and all of them in one input.
  std::string all;
  for (const auto& e : lib.entries())
    for (const auto* list : {&e.examples_match, &e.examples_no_match})
      for (const auto& ex : *list) {
        compare(e.id + " example", {{"example.log", ex}});
        all += ex + "\n";
      }
  compare("all examples", {{"all.log", all}});
  for (int i = 1; i < argc; ++i) {
    std::vector<std::pair<std::string, std::string>> inputs;
    if (fs::is_directory(argv[i])) {
      std::vector<fs::path> files;
      for (const auto& e : fs::recursive_directory_iterator(argv[i]))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) inputs.emplace_back(f.filename().string(), read(f));
    } else {
      inputs.emplace_back(fs::path(argv[i]).filename().string(), read(argv[i]));
    }
    compare(argv[i], inputs);
  }
  std::printf("%d reports compared, %d different\n", checked, bad);
  return bad == 0 ? 0 : 1;
}
