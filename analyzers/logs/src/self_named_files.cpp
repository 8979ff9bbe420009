#include "self_named_files.h"

#include <cctype>
#include <optional>
#include <set>

#include "denpex/logs/attribution.h"

namespace denpex::logs {
namespace {

constexpr uint64_t kFirstLines = 40;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The number at `i` after up to two separators (` `, `=`, `:`); -1 when none.
int number_after(std::string_view s, size_t i) {
  for (int seps = 0; i < s.size() && seps < 2 && (s[i] == ' ' || s[i] == '=' || s[i] == ':'); ++seps) ++i;
  if (i >= s.size() || !is_digit(s[i])) return -1;
  int v = 0;
  for (size_t n = 0; i < s.size() && is_digit(s[i]); ++i, ++n) {
    if (n >= 5) return -1;
    v = v * 10 + (s[i] - '0');
  }
  if (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '.')) return -1;
  return v;
}

int world_named(std::string_view line) {
  std::string low(line.substr(0, 200));
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view key : {"world_size", "world size", "world-size", "worldsize"})
    if (size_t at = low.find(key); at != std::string::npos) return number_after(low, at + key.size());
  // The short key scripts log (`host=osprey rank=1 world=4`): a word of its own, then `=` or `:`.
  for (size_t at = low.find("world"); at != std::string::npos; at = low.find("world", at + 5)) {
    const bool alone = at == 0 || !(std::isalnum(static_cast<unsigned char>(low[at - 1])) || low[at - 1] == '_');
    if (alone && at + 5 < low.size() && (low[at + 5] == '=' || low[at + 5] == ':')) return number_after(low, at + 5);
  }
  return -1;
}

}  // namespace

std::pair<int, int> rank_and_world(std::string_view line) {
  std::pair<size_t, size_t> at{0, 0};
  const int rank = logged_rank(line, &at);
  if (rank < 0) return {-1, 0};
  // Right behind the rank's digits: ` of 4`, `/4`.
  std::string_view rest = line.substr(at.first + at.second);
  int world = -1;
  if (rest.starts_with(" of ")) world = number_after(rest, 4);
  else if (rest.starts_with("/")) world = number_after(rest, 1);
  if (world < 0) world = world_named(line);
  if (world < 2 || rank >= world) return {-1, 0};
  return {rank, world};
}

void name_files_by_their_words(Diagnoser::State& st) {
  struct Named {
    uint32_t input;
    int rank, world;
    uint64_t line;
    std::string text;
  };
  std::vector<Named> named;
  for (uint32_t i = 0; i < st.inputs.size(); ++i) {
    const InputState& in = st.inputs[i];
    if (in.file_attr.rank >= 0 || in.summary.binary || in.name_ranks.size() > 1) continue;
    std::optional<Named> mine;
    bool mixed = false;  // no one rank's file: a prefix names a rank or host, or its lines name two ranks
    uint64_t n = 0;
    for (size_t pos = 0; pos < in.head.size() && n < kFirstLines && !mixed;) {
      size_t end = in.head.find('\n', pos);
      if (end == std::string::npos) end = in.head.size();
      const std::string_view line = std::string_view(in.head).substr(pos, end - pos);
      pos = end + 1;
      ++n;
      const Attribution a = attribute_line(line);
      if (a.rank >= 0 || a.node_prefix) mixed = true;
      const std::string_view body = a.body(line);
      const auto [rank, world] = rank_and_world(body);
      const int said = rank >= 0 ? rank : logged_rank(body);
      if (said < 0) continue;
      if (mine && (mine->rank != said || (rank >= 0 && world != mine->world))) mixed = true;
      if (rank >= 0 && !mine) mine = Named{i, rank, world, n, std::string(body.substr(0, 160))};
    }
    if (mine && !mixed) named.push_back(std::move(*mine));
  }
  if (named.size() < 2) return;
  const int world = named.front().world;
  std::set<int> ranks;
  for (const auto& f : named)
    if (f.world == world) ranks.insert(f.rank);
  // Every rank of the world once, and no file of another world size.
  if (ranks.size() != named.size() || named.size() != static_cast<size_t>(world)) return;
  for (const auto& f : named) {
    InputState& in = st.inputs[f.input];
    in.file_attr.rank = f.rank;
    in.summary.rank = f.rank;
    if (!in.name_ranks.empty()) in.name_ranks.front().second = f.rank;
    in.self_named = in.summary.file + " is rank " + std::to_string(f.rank) + "'s: its own line " +
                    std::to_string(shown_line(in, f.line)) + " says so (`" + f.text + "`), and each of the " +
                    std::to_string(world) + " files names one rank of " + std::to_string(world) + " this way.";
    if (auto s = st.source_of.find({f.input, -1}); s != st.source_of.end()) st.sources[s->second].rank = f.rank;
  }
}

}  // namespace denpex::logs
