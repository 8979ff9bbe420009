#include "odd_one_out.h"

#include <cstdlib>
#include <map>
#include <set>

namespace denpex::logs {
namespace {

int rank_of(const Captures& c, std::string_view key) {
  auto it = c.find(key);
  if (it == c.end() || it->second.empty() || it->second.size() > 7) return -1;
  for (char ch : it->second)
    if (ch < '0' || ch > '9') return -1;
  return std::atoi(it->second.c_str());
}

std::optional<OddOneOut> odd_in(const std::vector<const Captures*>& messages, const std::string& what) {
  std::map<int, std::string> held;  // rank -> its value, as the messages report it
  for (const Captures* c : messages)
    for (auto [rank_key, value_key] : {std::pair<std::string, std::string>{"rank", what}, {"other_rank", "other_" + what}}) {
      const int rank = rank_of(*c, rank_key);
      auto v = c->find(value_key);
      if (rank < 0 || v == c->end() || v->second.empty()) continue;
      auto [it, added] = held.try_emplace(rank, v->second);
      if (!added && it->second != v->second) return std::nullopt;  // the messages disagree
    }
  return odd_value(held, what);
}

}  // namespace

std::optional<OddOneOut> odd_value(const std::map<int, std::string>& held, const std::string& what) {
  if (held.size() < 3) return std::nullopt;
  std::map<std::string, std::vector<int>> by_value;
  for (const auto& [rank, value] : held) by_value[value].push_back(rank);
  if (by_value.size() != 2) return std::nullopt;
  auto lone = by_value.begin(), rest = std::next(lone);
  if (lone->second.size() != 1) std::swap(lone, rest);
  if (lone->second.size() != 1 || rest->second.size() < 2) return std::nullopt;
  return OddOneOut{lone->second.front(), what, lone->first, rest->first, rest->second};
}

std::optional<OddOneOut> odd_one_out(const std::vector<const Captures*>& messages) {
  std::set<std::string> compared;  // X such that some message holds both X and other_X
  for (const Captures* c : messages)
    for (const auto& [key, value] : *c)
      if (key.starts_with("other_") && key != "other_rank" && c->contains(key.substr(6))) compared.insert(key.substr(6));
  for (const std::string& what : compared)
    if (auto odd = odd_in(messages, what)) return odd;
  return std::nullopt;
}

}  // namespace denpex::logs
