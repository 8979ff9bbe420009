#include "path_rank.h"

#include <cctype>

namespace denpex::logs {
namespace {

bool path_char(char c) {
  return !std::isspace(static_cast<unsigned char>(c)) && c != '\'' && c != '"' && c != '`' && c != ',' &&
         c != '(' && c != ')' && c != '[' && c != ']';
}

bool looks_like_path(std::string_view t) {
  if (t.find('/') != std::string_view::npos || t.find('\\') != std::string_view::npos) return true;
  const size_t dot = t.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 >= t.size() || t.size() - dot > 6) return false;
  for (size_t i = dot + 1; i < t.size(); ++i)
    if (!std::isalnum(static_cast<unsigned char>(t[i]))) return false;
  return std::isalpha(static_cast<unsigned char>(t[dot + 1]));
}

// Another parallel axis's rank: `mp_rank_00`, `tp-rank1`, `model_parallel_rank_0`.
bool other_axis(std::string_view t, size_t at) {
  for (std::string_view axis : {"mp", "tp", "model_parallel", "tensor_parallel", "pipe", "expert", "ep", "local"}) {
    if (at < axis.size() + 1) continue;
    const char sep = t[at - 1];
    if ((sep == '_' || sep == '-') && t.substr(at - 1 - axis.size(), axis.size()) == axis) {
      const size_t before = at - 1 - axis.size();
      // Only a whole word: in `zero_pp_rank_3` DeepSpeed's `pp` is the data-parallel partition.
      if (before == 0 || !std::isalpha(static_cast<unsigned char>(t[before - 1]))) return true;
    }
  }
  return false;
}

// Every rank the token names: `rank` not inside a longer word, an optional `_`/`-`, digits.
bool ranks_in(std::string_view t, int& found) {
  for (size_t at = t.find("rank"); at != std::string_view::npos; at = t.find("rank", at + 4)) {
    if (at > 0 && std::isalpha(static_cast<unsigned char>(t[at - 1]))) continue;  // `frank3`
    size_t d = at + 4;
    if (d < t.size() && (t[d] == '_' || t[d] == '-')) ++d;
    size_t e = d;
    while (e < t.size() && std::isdigit(static_cast<unsigned char>(t[e]))) ++e;
    if (e == d || e - d > 5 || other_axis(t, at)) continue;
    if (e < t.size() && std::isalpha(static_cast<unsigned char>(t[e]))) continue;  // `rank3d`, a word
    const int r = std::stoi(std::string(t.substr(d, e - d)));
    if (found >= 0 && found != r) return false;
    found = r;
  }
  return true;
}

// The word before position `at` (lower-case), skipping one separator.
std::string_view word_before(std::string_view t, size_t at) {
  size_t e = at;
  while (e > 0 && (t[e - 1] == ' ' || t[e - 1] == '_' || t[e - 1] == '-')) --e;
  size_t b = e;
  while (b > 0 && std::isalpha(static_cast<unsigned char>(t[b - 1]))) --b;
  return t.substr(b, e - b);
}

}  // namespace

int rank_in_words(std::string_view message) {
  std::string low(message);
  for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string_view t = low;
  int found = -1;
  for (size_t at = t.find("rank"); at != std::string_view::npos; at = t.find("rank", at + 4)) {
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(t[at - 1])) || t[at - 1] == '/' || t[at - 1] == '.')) continue;
    size_t d = at + 4;
    while (d < t.size() && d - at < 7 && (t[d] == ' ' || t[d] == '_' || t[d] == '-' || t[d] == ':' || t[d] == '#' || t[d] == '='))
      ++d;
    size_t e = d;
    while (e < t.size() && std::isdigit(static_cast<unsigned char>(t[e]))) ++e;
    if (e == d || e - d > 5) continue;
    // `rank1_w1.idx`, `rank3d`: a file or a word, not a rank said in words.
    if (e < t.size() && (std::isalpha(static_cast<unsigned char>(t[e])) || t[e] == '_' ||
                         (t[e] == '.' && e + 1 < t.size() && std::isalpha(static_cast<unsigned char>(t[e + 1])))))
      continue;
    const std::string_view before = word_before(t, at);
    bool skip = false;
    for (std::string_view w : {"local", "mp", "tp", "pp", "ep", "dp", "pipe", "pipeline", "tensor", "model", "expert",
                               "node", "group", "from", "to", "peer", "src", "dst", "than", "other", "remote"})
      if (before == w) skip = true;
    if (skip) continue;
    const int r = std::stoi(std::string(t.substr(d, e - d)));
    if (found >= 0 && found != r) return -1;
    found = r;
  }
  return found;
}

PathRank rank_in_paths(std::string_view message) {
  PathRank out;
  for (size_t i = 0; i < message.size();) {
    if (!path_char(message[i])) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < message.size() && path_char(message[j])) ++j;
    std::string_view token = message.substr(i, j - i);
    while (!token.empty() && (token.back() == '.' || token.back() == ':' || token.back() == ';')) token.remove_suffix(1);
    if (looks_like_path(token) && token.find("rank") != std::string_view::npos) {
      const int before = out.rank;
      if (!ranks_in(token, out.rank)) return {};
      if (before < 0 && out.rank >= 0) out.path = std::string(token);
    }
    i = j;
  }
  if (out.rank < 0) out.path.clear();
  return out;
}

}  // namespace denpex::logs
