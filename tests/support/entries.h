#pragma once
// Minimal encyclopedia entries for engine tests: an id, a role, a severity and one fingerprint.
#include <string>

#include "denpex/core/entry.h"

namespace denpex::testing {

inline core::Entry test_entry(std::string id, core::Role role, core::Severity severity, std::string pattern,
                              double confidence = 0.8) {
  core::Entry e;
  e.id = id;
  e.title = std::move(id);
  e.role = role;
  e.severity = severity;
  core::Fingerprint f;
  f.pattern = std::move(pattern);
  f.confidence = confidence;
  e.fingerprints.push_back(std::move(f));
  return e;
}

}  // namespace denpex::testing
