#pragma once
// Suppression comments, read from comment nodes only (never from strings):
//   # denpex: ignore[DPX001, DPX002]   this line      # denpex: ignore        this line, every rule
//   # noqa: DPX001                      this line      # noqa                  this line, every rule
//   # denpex: ignore-file[DPX013]      the whole file  # denpex: ignore-file   the whole file
#include <string>
#include <string_view>
#include <vector>

#include "denpex/core/finding.h"
#include "denpex/python/module.h"

namespace denpex::python {

struct Suppression {
  TSNode comment{};
  uint32_t line = 0;
  bool file_level = false;
  bool noqa = false;                // flake8 style: codes of other tools may share the comment
  bool all = false;                 // no code list
  std::vector<std::string> codes;
  std::vector<bool> used;           // per code; for `all`, one flag
};

std::vector<Suppression> read_suppressions(const Module& m);

// Drops suppressed findings, marking what each suppression was used for.
void apply_suppressions(std::vector<Suppression>& sups, std::vector<core::Finding>& findings);

}  // namespace denpex::python
