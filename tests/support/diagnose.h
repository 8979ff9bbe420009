#pragma once
// Diagnoses in-memory logs with the built-in library, as `denpex diagnose` does with files: each
// (name, text) pair is one input, fed whole.
#include <string>
#include <utility>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/diagnoser.h"

namespace denpex::testing {

inline logs::Report diagnose_inputs(const std::vector<std::pair<std::string, std::string>>& inputs) {
  static auto lib = encyclopedia::Library::builtin();
  static logs::Matcher m(lib.entries());
  logs::Diagnoser d(m);
  for (const auto& [name, text] : inputs) {
    auto in = d.open(name);
    d.feed(in, text);
    d.close(in);
  }
  return d.finish();
}

// One unnamed stream: a name that says no rank.
inline logs::Report diagnose_text(const std::string& text) { return diagnose_inputs({{"job.log", text}}); }

}  // namespace denpex::testing
