// An entry's own examples, diagnosed on their own, must name that entry: `signatures test` only
// checks that the entry matches; this checks that causality picks it (a generic wrapper line
// printed before the specific cause must not win). Entries that never initiate a diagnosis are
// exempt: info entries (no diagnosis by design), collateral ones (an initiator present wins) and
// the `fallback` entry for unknown exceptions (it initiates only when other ranks show symptoms).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/diagnoser.h"

TEST_CASE("each initiating entry's examples, diagnosed alone, name that entry first") {
  auto lib = denpex::encyclopedia::Library::builtin();
  denpex::logs::Matcher matcher(lib.entries());
  size_t checked = 0;
  std::vector<std::string> wrong;
  for (const auto& e : lib.entries()) {
    if (e.severity == denpex::core::Severity::Info || e.role == denpex::core::Role::Collateral) continue;
    // The fallback for unknown exceptions initiates only inside a cascade (other ranks' symptoms).
    if (std::find(e.tags.begin(), e.tags.end(), "fallback") != e.tags.end()) continue;
    for (size_t i = 0; i < e.examples_match.size(); ++i) {
      denpex::logs::Diagnoser d(matcher);
      uint32_t id = d.open("example.log");
      d.feed(id, e.examples_match[i]);
      d.close(id);
      auto report = d.finish();
      ++checked;
      std::string top = report.diagnoses.empty() ? "(none)" : report.diagnoses[0].entry->id;
      if (top != e.id) wrong.push_back(e.id + " examples.match[" + std::to_string(i) + "] -> " + top);
    }
  }
  CHECK(checked > 300);
  std::string listed;
  for (size_t i = 0; i < wrong.size() && i < 10; ++i) listed += "\n  " + wrong[i];
  CHECK_MESSAGE(wrong.empty(), wrong.size() << " examples diagnosed as another entry:" << listed);
}
