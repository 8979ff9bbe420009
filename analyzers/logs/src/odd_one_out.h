#pragma once
// The rank that differs, read from messages in which ranks compare themselves with a peer and
// name both sides: DDP's `Rank 0 has 4 params, while rank 3 has inconsistent 6 params`, the
// collective checker's `Rank 1 is running collective: ...OpType=BROADCAST... but Rank 0 is
// running collective: ...OpType=ALLREDUCE`. Every rank raises such a message, so the first one
// printed says nothing about who is wrong; what they say together does.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "denpex/logs/matcher.h"

namespace denpex::logs {

struct OddOneOut {
  int rank = -1;
  std::string what;   // the compared capture: "params", "op"
  std::string value;  // what the odd rank holds
  std::string usual;  // what every other rank holds
  std::vector<int> others;
};

// Over the captures of such messages (`rank` with `X`, `other_rank` with `other_X`): the one rank
// whose X no other rank shares, when at least two others all share one value. nullopt when the
// messages contradict themselves, name fewer than three ranks, or leave more than one apart.
std::optional<OddOneOut> odd_one_out(const std::vector<const Captures*>& messages);

// The same over values already gathered (rank -> what it holds).
std::optional<OddOneOut> odd_value(const std::map<int, std::string>& held, const std::string& what);

}  // namespace denpex::logs
