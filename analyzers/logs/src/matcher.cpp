#include "denpex/logs/matcher.h"

#include <algorithm>
#include <system_error>
#include <unordered_map>

#include "prefilter.h"

namespace denpex::logs {

namespace {
RE2::Options pattern_options() {
  RE2::Options o;
  o.set_log_errors(false);
  return o;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
}  // namespace

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

Matcher::Matcher(const std::vector<core::Entry>& entries) : entries_(entries) {
  RE2::Options opts = pattern_options();
  // The DFA for a few hundred patterns fits comfortably here; larger budgets only cost RSS.
  opts.set_max_mem(48 << 20);
  set_ = std::make_unique<RE2::Set>(opts, RE2::UNANCHORED);
  std::unordered_map<std::string, int> helper_ids;
  auto add = [&](const std::string& pattern) -> int {
    std::string err;
    int id = set_->Add(pattern, &err);
    if (id >= 0) {
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
    helper_ids.emplace(pattern, id);
    return id;
  };
  for (uint32_t e = 0; e < entries.size(); ++e) {
    for (uint32_t f = 0; f < entries[e].fingerprints.size(); ++f) {
      const auto& fp = entries[e].fingerprints[f];
      // The Set parses the pattern with the same options: if it is accepted, so is the RE2.
      int id = add(fp.pattern);
      if (id < 0) continue;
      Fp entry_fp;
      entry_fp.entry = e;
      entry_fp.index = f;
      entry_fp.requires_id = add_helper(fp.requires_pattern);
      entry_fp.excludes_id = add_helper(fp.excludes_pattern);
      if (!fp.when.empty()) entry_fp.when = core::Condition::parse(fp.when, nullptr);
      fp_of_pattern_[static_cast<size_t>(id)] = static_cast<int>(fps_.size());
      fps_.push_back(std::move(entry_fp));
    }
  }
  pattern_count_ = fp_of_pattern_.size();
  if (pattern_count_ == 0) return;
  auto compile = [this] {
    if (!set_->Compile()) error_ = "the fingerprint set could not be compiled (out of memory)";
  };
  try {
    compiling_ = std::thread(compile);
  } catch (const std::system_error&) {
    compile();
  }
}

void Matcher::wait() const {
  std::call_once(*compiled_once_, [this] {
    if (compiling_.joinable()) compiling_.join();
  });
}

Matcher::~Matcher() { wait(); }

void Matcher::match(std::string_view line, std::vector<int>* ids) const {
  ids->clear();
  wait();
  if (pattern_count_ == 0 || !error_.empty()) return;
  set_->Match(re2::StringPiece(line.data(), line.size()), ids);
  std::sort(ids->begin(), ids->end());
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
  const RE2& re = fp.regex(entries_[fp.entry].fingerprints[fp.index].pattern);
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
