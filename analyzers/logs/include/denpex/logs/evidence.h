#pragma once
// Captured numbers turned into sentences an engineer can act on.
#include <string>
#include <vector>

#include "denpex/logs/matcher.h"

namespace denpex::logs {

// Findings for the captures of one hit: OOM sizes and whether fragmentation is the likely cause,
// NCCL timeouts (operation, sequence number, timeout), Xid codes, signals. Empty when the
// captures say nothing beyond the line itself.
std::vector<std::string> findings_from_captures(const Captures& captures);

}  // namespace denpex::logs
