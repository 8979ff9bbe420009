#include "denpex/logs/matcher.h"

#include <algorithm>
#include <system_error>
#include <unordered_map>

#include "prefilter.h"
#include "router.h"

namespace denpex::logs {

namespace {
RE2::Options pattern_options() {
  RE2::Options o;
  o.set_log_errors(false);
  return o;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Lines that must be walked even when no fingerprint hits them: the markers that move the event
// tracker out of idle (EventTracker::feed) and the words of looks_like_error (the first error
// line). Only lines the screen hits are walked, so these keep both exact.
const char* const kEventMarkers[] = {
    R"(Traceback \(most recent call last\))",
    R"(File "[^\n]*", line \d+)",  // the path is printed unescaped: it may hold quotes
    R"(The above exception was the direct cause)",
    R"(During handling of the above exception)",
    R"(terminate called)",
    R"(what\(\):)",
    R"(Root Cause(?: \(first observed failure\))?:)",
    R"(Failures:)",  // unanchored: a launcher prefix may come first
    R"( busId [0-9a-fA-F]+)",  // NCCL's communicator init: a GPU's bus id and its rank
    R"(global_ranks=\[)",      // the elastic agent's rendezvous result: local -> global ranks
    R"(-- Process \d+ terminated)",  // torch.multiprocessing.spawn's marker, also when a paste cuts it
    R"(^==> [^\n]+ <==$)",            // `tail -n +1 rank_*.log`: the file the next lines come from
    R"(^-{10}(?:Begin|End) global rank \d+ STD(?:OUT|ERR)-{10}$)",  // Composer's saved output of a rank
    // A script's own banner between concatenated files: `----- logs/rank0.log -----`, `=== a.txt ===`.
    R"(^(?:---|===|###|\*\*\*)[-=#* ]*[\w./-]+\.(?:log|txt|out|err)[-=#* ]*$)",
    R"([A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit|Failure)\b)",
    R"(Error|ERROR|error:|Exception|FAILED|Fatal|FATAL|fatal:|Killed|Segmentation fault|Aborted)",
};
}  // namespace

std::string Matcher::screen_pattern(std::string_view p) {
  if (!p.empty() && p.front() == '^') p.remove_prefix(1);
  return "(?m:" + std::string(p) + ")";
}

bool Matcher::screen_neutral(std::string_view p) {
  // `(?m:...)` changes only where `^` and `$` match: a pattern holding neither as an anchor
  // (outside a class, unescaped) matches the same text with it or without it.
  bool in_class = false;
  const size_t n = p.size();
  for (size_t i = 0; i < n; ++i) {
    const char c = p[i];
    if (c == '\\') {
      if (i + 1 >= n || p[i + 1] == 'Q') return false;  // \Q...\E: not looked into
      ++i;
      continue;
    }
    if (in_class) {
      if (c == '[' && i + 1 < n && p[i + 1] == ':') {
        const size_t end = p.find(":]", i + 2);
        if (end == std::string_view::npos) return false;
        i = end + 1;
      } else if (c == ']') {
        in_class = false;
      }
      continue;
    }
    if (c == '[') {
      in_class = true;
      if (i + 1 < n && p[i + 1] == '^') ++i;
      if (i + 1 < n && p[i + 1] == ']') ++i;  // a leading ']' is a member
      continue;
    }
    if (c == '^' || c == '$') return false;
  }
  return !in_class;
}

bool Matcher::digit_uniform(std::string_view p) {
  // Digits are one contiguous run of bytes, so a class range whose ends are not digits holds
  // all ten or none; what can single out a digit is a digit written in the pattern (a literal,
  // a class member, an octal escape), `\x`, `\Q...\E` and `\p` (conservatively). Digits of a
  // `{m,n}` repeat count are no literal.
  bool in_class = false;
  const size_t n = p.size();
  for (size_t i = 0; i < n; ++i) {
    const char c = p[i];
    if (c == '\\') {
      if (i + 1 >= n) return false;
      const char e = p[i + 1];
      if (is_digit(e) || e == 'x' || e == 'Q' || e == 'p' || e == 'P') return false;
      ++i;
      continue;
    }
    if (in_class) {
      if (c == '[' && i + 1 < n && p[i + 1] == ':') {
        // [:alnum:], [:^digit:], ...: each holds all ten digits or none.
        const size_t end = p.find(":]", i + 2);
        if (end == std::string_view::npos) return false;
        i = end + 1;
        continue;
      }
      if (c == ']') {
        in_class = false;
      } else if (is_digit(c)) {
        return false;
      }
      continue;
    }
    if (c == '[') {
      in_class = true;
      if (i + 1 < n && p[i + 1] == '^') ++i;
      if (i + 1 < n && p[i + 1] == ']') ++i;  // a leading ']' is a member
      continue;
    }
    if (c == '{' && i + 1 < n && is_digit(p[i + 1])) {
      size_t j = i + 1;
      while (j < n && is_digit(p[j])) ++j;
      if (j < n && p[j] == ',') ++j;
      while (j < n && is_digit(p[j])) ++j;
      if (j < n && p[j] == '}') {
        i = j;
        continue;
      }
    }
    if (is_digit(c)) return false;
  }
  return !in_class;
}

void Matcher::mask_digits(std::string_view text, std::string* out) {
  out->resize(text.size());
  char* o = out->data();
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    o[i] = (static_cast<unsigned char>(c - '0') < 10) ? '0' : c;
  }
}

bool Matcher::digit_blind(std::string_view text, std::vector<std::pair<uint32_t, uint32_t>>* hits) const {
  std::call_once(*digit_once_, [&] {
    if (digit_patterns_.empty()) {
      digit_ready_ = true;
      return;
    }
    digit_prefilter_ = LiteralPrefilter::build(digit_patterns_);
    digit_ready_ = digit_prefilter_ != nullptr;
  });
  if (!digit_ready_) return false;
  if (!digit_prefilter_) return true;
  hits->clear();
  // find() is false for text whose case folding it cannot vouch for: then not blind.
  return digit_prefilter_->find(text, hits) && hits->empty();
}

Matcher::Matcher(const std::vector<core::Entry>& entries, const PrefilterAtoms* atoms) : entries_(entries) {
  RE2::Options opts = pattern_options();
  // The DFA for a few hundred patterns fits comfortably here; larger budgets only cost RSS.
  opts.set_max_mem(48 << 20);
  set_ = std::make_unique<RE2::Set>(opts, RE2::UNANCHORED);
  std::unordered_map<std::string, int> helper_ids;
  // Whether the Set can answer the screen (has_screen): every screen pattern's source pattern
  // must be in it, and none may match where no screen pattern does (an empty pattern, which
  // the screen leaves out, matches everywhere).
  bool screen_covered = true;
  for (const auto& e : entries)
    for (const auto& fp : e.fingerprints)
      for (const std::string* p : {&fp.pattern, &fp.requires_pattern, &fp.excludes_pattern})
        if (!p->empty()) screen_patterns_.push_back(screen_pattern(*p));
  for (const char* m : kEventMarkers) screen_patterns_.push_back(screen_pattern(m));
  // Where routes fit these screen patterns, every pattern is known to parse (FilteredRE2 parsed
  // each screen form at build time, and a pattern parses where its screen form does): the Set is
  // then filled, not only compiled, when a line first needs it (compile_set).
  const bool routable = atoms != nullptr && atoms->routes_fit(screen_patterns_);
  std::vector<std::string> set_patterns;  // id -> pattern, for routing
  auto add_to_set = [&](const std::string& pattern) -> int {
    if (!routable) return set_->Add(pattern, nullptr);
    pending_.push_back(pattern);
    return static_cast<int>(pending_.size()) - 1;
  };
  auto add = [&](const std::string& pattern) -> int {
    int id = add_to_set(pattern);
    if (id >= 0) {
      set_patterns.push_back(pattern);
      fp_of_pattern_.push_back(-1);
      inside_.push_back(pattern.find('^', 1) == std::string::npos);
      if (!digit_uniform(pattern)) digit_patterns_.push_back(pattern);
    }
    return id;
  };
  auto add_helper = [&](const std::string& pattern) -> int {
    if (pattern.empty()) return -1;
    if (auto it = helper_ids.find(pattern); it != helper_ids.end()) return it->second;
    int id = add(pattern);
    if (id < 0) screen_covered = false;
    helper_ids.emplace(pattern, id);
    return id;
  };
  for (uint32_t e = 0; e < entries.size(); ++e) {
    for (uint32_t f = 0; f < entries[e].fingerprints.size(); ++f) {
      const auto& fp = entries[e].fingerprints[f];
      if (fp.pattern.empty()) screen_covered = false;
      // The Set parses the pattern with the same options: if it is accepted, so is the RE2.
      int id = add(fp.pattern);
      if (id < 0) {
        screen_covered = false;
        continue;
      }
      Fp entry_fp;
      entry_fp.entry = e;
      entry_fp.index = f;
      entry_fp.id = id;
      entry_fp.requires_id = add_helper(fp.requires_pattern);
      entry_fp.excludes_id = add_helper(fp.excludes_pattern);
      if (!fp.when.empty()) entry_fp.when = core::Condition::parse(fp.when, nullptr);
      fp_of_pattern_[static_cast<size_t>(id)] = static_cast<int>(fps_.size());
      fps_.push_back(std::move(entry_fp));
    }
  }
  pattern_count_ = fp_of_pattern_.size();
  if (pattern_count_ == 0) return;
  // The screen's own patterns, after the matcher's: those whose screen form differs, once each,
  // and the event markers.
  std::vector<std::string> extra;
  for (const auto& e : entries)
    for (const auto& fp : e.fingerprints)
      for (const std::string* p : {&fp.pattern, &fp.requires_pattern, &fp.excludes_pattern})
        if (!p->empty() && !screen_neutral(*p)) extra.push_back(screen_pattern(*p));
  std::sort(extra.begin(), extra.end());
  extra.erase(std::unique(extra.begin(), extra.end()), extra.end());
  for (const char* m : kEventMarkers) extra.push_back(screen_pattern(m));
  for (const auto& p : extra)
    if (add_to_set(p) < 0) screen_covered = false;
  has_screen_ = screen_covered;
  // Routing stands for the Set only where the Set stands for the screen.
  if (routable && has_screen_) {
    std::unordered_map<std::string_view, int> screen_index;
    for (size_t s = 0; s < screen_patterns_.size(); ++s) screen_index.emplace(screen_patterns_[s], static_cast<int>(s));
    std::vector<int> screen_of;
    for (const auto& p : set_patterns) {
      auto it = screen_index.find(screen_pattern(p));
      screen_of.push_back(it == screen_index.end() ? -1 : it->second);
    }
    router_ = Router::make(*atoms, screen_patterns_, std::move(set_patterns), screen_of, pattern_options());
  }
  // Routed, the Set is compiled when a line first needs it (wait()): a short input often never
  // does. Otherwise it compiles at once, on a thread of its own.
  if (router_) return;
  try {
    compiling_ = std::thread([this] { compile_set(); });
  } catch (const std::system_error&) {
    compile_set();
  }
}

void Matcher::compile_set() const {
  for (const auto& p : pending_)
    if (set_->Add(p, nullptr) < 0) {
      error_ = "the fingerprint set could not be built: a pattern did not parse";
      return;
    }
  if (!set_->Compile()) error_ = "the fingerprint set could not be compiled (out of memory)";
}

void Matcher::wait() const {
  waited_.store(true);
  std::call_once(*compiled_once_, [this] {
    if (compiling_.joinable()) {
      compiling_.join();
    } else if (router_) {
      compile_set();
    }
  });
}

// A Set nobody asked for is not compiled only to be destroyed.
Matcher::~Matcher() {
  if (compiling_.joinable()) compiling_.join();
}

void Matcher::match(std::string_view line, std::vector<int>* ids) const {
  if (router_ && router_->match(line, ids)) return;
  match_by_set(line, ids);
}

void Matcher::match_by_set(std::string_view line, std::vector<int>* ids) const {
  ids->clear();
  wait();
  if (pattern_count_ == 0 || !error_.empty()) return;
  set_->Match(re2::StringPiece(line.data(), line.size()), ids);
  // The screen's own patterns are no answer here.
  ids->erase(std::remove_if(ids->begin(), ids->end(), [&](int id) { return static_cast<size_t>(id) >= pattern_count_; }),
             ids->end());
  std::sort(ids->begin(), ids->end());
}

bool Matcher::screen(std::string_view text, bool* failed) const {
  bool hit = false;
  if (router_ && router_->screen(text, &hit)) {
    *failed = false;
    return hit;
  }
  return screen_by_set(text, failed);
}

bool Matcher::screen_by_set(std::string_view text, bool* failed) const {
  wait();
  if (!has_screen_ || !error_.empty()) {
    *failed = true;  // no Set to ask: every line is walked
    return true;
  }
  RE2::Set::ErrorInfo info;
  const bool hit = set_->Match(re2::StringPiece(text.data(), text.size()), nullptr, &info);
  *failed = info.kind != RE2::Set::kNoError;
  return hit;
}

const Matcher::Fp* Matcher::fingerprint(int id) const {
  if (id < 0 || static_cast<size_t>(id) >= fp_of_pattern_.size()) return nullptr;
  int fp = fp_of_pattern_[static_cast<size_t>(id)];
  return fp < 0 ? nullptr : &fps_[static_cast<size_t>(fp)];
}

const RE2& Matcher::Fp::regex(const std::string& pattern) const {
  std::call_once(*once_, [&] { re_ = std::make_unique<RE2>(pattern, pattern_options()); });
  return *re_;
}

bool Matcher::extract(const Fp& fp, std::string_view line, Captures* out) const {
  // With routing, the RE2 that routing compiled for this pattern pulls the captures too.
  const RE2* routed = router_ ? router_->set_regex(fp.id) : nullptr;
  const RE2& re = routed ? *routed : fp.regex(entries_[fp.entry].fingerprints[fp.index].pattern);
  if (!re.ok()) return false;
  const int n = re.NumberOfCapturingGroups();
  std::vector<re2::StringPiece> groups(static_cast<size_t>(n) + 1);
  if (!re.Match(re2::StringPiece(line.data(), line.size()), 0, line.size(), RE2::UNANCHORED, groups.data(),
                    n + 1))
    return false;
  for (const auto& [name, index] : re.NamedCapturingGroups()) {
    const auto& g = groups[static_cast<size_t>(index)];
    if (g.data() != nullptr) (*out)[name] = std::string(g.data(), g.size());
  }
  return true;
}

}  // namespace denpex::logs
