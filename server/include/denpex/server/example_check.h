#pragma once
// `denpex signatures test`: every example of every entry run through the whole library.
#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/matcher.h"

namespace denpex::features {

struct ExampleResult {
  enum class Status { Validated, Missing, Noisy, Ambiguous };
  std::string entry;
  bool positive = true;  // from examples.match (true) or examples.no_match (false)
  size_t index = 0;
  Status status = Status::Validated;
  double confidence = 0;     // of the entry on this example, when it matched
  std::string rival;         // for Ambiguous: the entry that claimed the example
  double rival_confidence = 0;
};

const char* to_string(ExampleResult::Status s);

// Tests the examples of the entries named in `ids` (all entries when empty).
std::vector<ExampleResult> check_examples(const encyclopedia::Library& library, const logs::Matcher& matcher,
                                          const std::vector<std::string>& ids = {});

}  // namespace denpex::features
