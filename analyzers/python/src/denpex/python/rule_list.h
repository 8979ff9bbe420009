#pragma once
// The generated list of every rule object (rule_list.cpp in the build directory).
#include <vector>

#include "denpex/python/rule.h"

namespace denpex::python {

struct RuleEntry {
  const RuleInfo* rule;
  const char* stem;
};
const std::vector<RuleEntry>& rule_list();

}  // namespace denpex::python
