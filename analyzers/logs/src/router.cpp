#include "router.h"

#include <algorithm>

#include "denpex/logs/matcher.h"
#include "prefilter.h"

namespace denpex::logs {

std::unique_ptr<Router> Router::make(const PrefilterAtoms& atoms, const std::vector<std::string>& screen_patterns,
                                     std::vector<std::string> set_patterns, const std::vector<int>& screen_of,
                                     const RE2::Options& options) {
  if (!atoms.routes_fit(screen_patterns) || set_patterns.size() != screen_of.size()) return nullptr;
  auto prefilter = LiteralPrefilter::from_atoms(atoms.route_atoms);
  if (!prefilter) return nullptr;
  auto r = std::unique_ptr<Router>(new Router());
  r->prefilter_ = std::move(prefilter);
  r->screens_of_atom_.resize(atoms.route_atoms.size());
  for (size_t s = 0; s < atoms.routes.size(); ++s)
    for (uint16_t a : atoms.routes[s]) {
      if (a >= atoms.route_atoms.size()) return nullptr;
      r->screens_of_atom_[a].push_back(static_cast<uint32_t>(s));
    }
  r->ids_of_screen_.resize(screen_patterns.size());
  r->neutral_id_of_screen_.assign(screen_patterns.size(), -1);
  for (size_t id = 0; id < screen_of.size(); ++id) {
    const int s = screen_of[id];
    if (s < 0 || static_cast<size_t>(s) >= screen_patterns.size()) return nullptr;
    r->ids_of_screen_[static_cast<size_t>(s)].push_back(static_cast<int>(id));
    if (Matcher::screen_neutral(set_patterns[id])) r->neutral_id_of_screen_[static_cast<size_t>(s)] = static_cast<int>(id);
  }
  r->screen_patterns_ = screen_patterns;
  r->set_patterns_ = std::move(set_patterns);
  r->options_ = options;
  r->screen_re_ = std::make_unique<Lazy[]>(r->screen_patterns_.size());
  r->set_re_ = std::make_unique<Lazy[]>(r->set_patterns_.size());
  return r;
}

Router::~Router() = default;

const RE2* Router::regex(Lazy* lazies, const std::vector<std::string>& patterns, size_t i) const {
  Lazy& l = lazies[i];
  std::call_once(l.once, [&] { l.re = std::make_unique<RE2>(patterns[i], options_); });
  return l.re->ok() ? l.re.get() : nullptr;
}

bool Router::candidates(std::string_view text, std::vector<uint32_t>* screens, std::vector<int>* ids) const {
  if (text.size() > kMaxText) return false;
  thread_local std::vector<std::pair<uint32_t, uint32_t>> scratch;
  thread_local std::vector<uint32_t> atoms;
  if (!prefilter_->find_atoms(text, &scratch, &atoms)) return false;
  screens->clear();
  for (uint32_t a : atoms) screens->insert(screens->end(), screens_of_atom_[a].begin(), screens_of_atom_[a].end());
  std::sort(screens->begin(), screens->end());
  screens->erase(std::unique(screens->begin(), screens->end()), screens->end());
  if (ids == nullptr) return screens->size() <= kMaxCandidates;
  ids->clear();
  for (uint32_t s : *screens) ids->insert(ids->end(), ids_of_screen_[s].begin(), ids_of_screen_[s].end());
  std::sort(ids->begin(), ids->end());
  return ids->size() <= kMaxCandidates;
}

bool Router::match(std::string_view line, std::vector<int>* ids) const {
  thread_local std::vector<uint32_t> screens;
  thread_local std::vector<int> routed;
  if (!candidates(line, &screens, &routed)) return false;
  const re2::StringPiece text(line.data(), line.size());
  ids->clear();
  for (int id : routed) {
    const RE2* re = set_regex(id);
    if (re == nullptr) return false;
    if (RE2::PartialMatch(text, *re)) ids->push_back(id);
  }
  return true;
}

bool Router::screen(std::string_view text, bool* hit) const {
  thread_local std::vector<uint32_t> screens;
  if (!candidates(text, &screens, nullptr)) return false;
  const re2::StringPiece piece(text.data(), text.size());
  for (uint32_t s : screens) {
    const int same = neutral_id_of_screen_[s];
    const RE2* re = same >= 0 ? set_regex(same) : regex(screen_re_.get(), screen_patterns_, s);
    if (re == nullptr) return false;
    if (RE2::PartialMatch(piece, *re)) {
      *hit = true;
      return true;
    }
  }
  *hit = false;
  return true;
}

}  // namespace denpex::logs
