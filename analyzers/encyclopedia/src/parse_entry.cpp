// YAML -> core::Entry with validation. Each check reports one `file:line: problem` line.
#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include <set>

#include "denpex/core/condition.h"
#include "denpex/core/edit_distance.h"
#include "denpex/encyclopedia/library.h"

namespace denpex::encyclopedia {
namespace {

const std::set<std::string, std::less<>> kTopKeys = {
    "id",      "title",  "category",   "tags",   "severity", "role",    "fingerprints",
    "summary", "mechanism", "symptoms", "confirm", "fix",     "prevention", "verify",
    "related", "codes",  "references", "examples"};
const std::set<std::string, std::less<>> kRequired = {"id",      "title",     "category", "severity", "role",
                                                      "fingerprints", "summary", "mechanism", "fix",
                                                      "verify",  "examples"};
const std::set<std::string, std::less<>> kFingerprintKeys = {"pattern", "confidence", "requires",
                                                             "excludes", "window",   "when"};

class Reader {
 public:
  Reader(const std::string& file, std::vector<Problem>& problems) : file_(file), problems_(problems) {}

  void problem(const YAML::Node& at, std::string message) {
    int line = at.IsDefined() ? static_cast<int>(at.Mark().line) + 1 : 0;
    if (line <= 0) line = 0;
    problems_.push_back({file_, line, std::move(message)});
    ok_ = false;
  }
  void problem(int line, std::string message) {
    problems_.push_back({file_, line, std::move(message)});
    ok_ = false;
  }

  std::string text(const YAML::Node& node, std::string_view key) {
    if (!node.IsScalar()) {
      problem(node, "`" + std::string(key) + "` must be a string");
      return {};
    }
    return node.Scalar();
  }

  std::vector<std::string> strings(const YAML::Node& node, std::string_view key) {
    std::vector<std::string> out;
    if (!node.IsSequence()) {
      problem(node, "`" + std::string(key) + "` must be a list of strings");
      return out;
    }
    for (const auto& item : node) out.push_back(text(item, key));
    return out;
  }

  bool ok() const { return ok_; }

 private:
  const std::string& file_;
  std::vector<Problem>& problems_;
  bool ok_ = true;
};

std::string closest_key(std::string_view key, const std::set<std::string, std::less<>>& keys) {
  std::string best;
  size_t best_score = 3;  // only suggest near misses
  for (const auto& k : keys) {
    size_t d = core::edit_distance(key, k);
    if (d < best_score) {
      best_score = d;
      best = k;
    }
  }
  return best;
}

void check_keys(Reader& r, const YAML::Node& map, const std::set<std::string, std::less<>>& allowed,
                std::string_view where) {
  for (const auto& kv : map) {
    const std::string key = kv.first.Scalar();
    if (allowed.count(key)) continue;
    std::string msg = "unknown key `" + key + "`" + std::string(where);
    if (auto near = closest_key(key, allowed); !near.empty()) msg += " (did you mean `" + near + "`?)";
    r.problem(kv.first, msg);
  }
}

void check_regex(Reader& r, const YAML::Node& at, const std::string& pattern, std::string_view what) {
  RE2::Options opts;
  opts.set_log_errors(false);
  RE2 re(pattern, opts);
  if (!re.ok()) r.problem(at, std::string(what) + " does not compile as RE2: " + re.error() + " in '" + pattern + "'");
}

core::Fingerprint read_fingerprint(Reader& r, const YAML::Node& node) {
  core::Fingerprint fp;
  fp.line = static_cast<int>(node.Mark().line) + 1;
  if (!node.IsMap()) {
    r.problem(node, "a fingerprint must be a mapping with at least `pattern`");
    return fp;
  }
  check_keys(r, node, kFingerprintKeys, " in fingerprint");
  if (!node["pattern"]) {
    r.problem(node, "fingerprint without `pattern`");
    return fp;
  }
  fp.pattern = r.text(node["pattern"], "pattern");
  if (fp.pattern.empty()) r.problem(node["pattern"], "empty `pattern`");
  check_regex(r, node["pattern"], fp.pattern, "pattern");
  if (auto c = node["confidence"]) {
    try {
      fp.confidence = c.as<double>();
      if (fp.confidence < 0 || fp.confidence > 1) r.problem(c, "`confidence` must be between 0 and 1");
    } catch (const YAML::Exception&) {
      r.problem(c, "`confidence` must be a number between 0 and 1");
    }
  }
  if (auto w = node["window"]) {
    try {
      fp.window = w.as<int>();
      if (fp.window < 1 || fp.window > 10000) r.problem(w, "`window` must be between 1 and 10000 lines");
    } catch (const YAML::Exception&) {
      r.problem(w, "`window` must be a whole number of lines");
    }
  }
  if (auto q = node["requires"]) {
    fp.requires_pattern = r.text(q, "requires");
    check_regex(r, q, fp.requires_pattern, "`requires`");
  }
  if (auto x = node["excludes"]) {
    fp.excludes_pattern = r.text(x, "excludes");
    check_regex(r, x, fp.excludes_pattern, "`excludes`");
  }
  if (auto w = node["when"]) {
    fp.when = r.text(w, "when");
    std::string error;
    auto cond = core::Condition::parse(fp.when, &error);
    if (!cond) {
      r.problem(w, error);
    } else {
      RE2 re(fp.pattern);
      const auto& groups = re.NamedCapturingGroups();
      for (const auto& name : cond->names())
        if (!groups.count(name)) r.problem(w, "`when` uses `" + name + "`, which the pattern does not capture");
    }
  }
  return fp;
}

}  // namespace

std::optional<core::Entry> parse_entry(std::string_view yaml_text, const std::string& file,
                                       std::string_view expected_id, std::vector<Problem>& problems) {
  Reader r(file, problems);
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml_text));
  } catch (const YAML::ParserException& e) {
    r.problem(e.mark.line + 1, "YAML syntax error: " + e.msg);
    return std::nullopt;
  }
  if (!root.IsMap()) {
    r.problem(1, "an entry must be a YAML mapping (id:, title:, ...)");
    return std::nullopt;
  }
  check_keys(r, root, kTopKeys, "");
  for (const auto& key : kRequired)
    if (!root[key]) r.problem(1, "missing required field `" + key + "`");

  core::Entry e;
  e.source = file;
  try {
    if (auto n = root["id"]) {
      e.id = r.text(n, "id");
      static const RE2 kebab("[a-z0-9]+(-[a-z0-9]+)*");
      if (!RE2::FullMatch(e.id, kebab)) r.problem(n, "`id` must be kebab-case (a-z, 0-9, -): '" + e.id + "'");
      if (!expected_id.empty() && e.id != expected_id)
        r.problem(n, "`id` '" + e.id + "' differs from the file name '" + std::string(expected_id) + "'");
    }
    if (auto n = root["title"]) e.title = r.text(n, "title");
    if (auto n = root["category"]) {
      e.category = r.text(n, "category");
      bool known = false;
      for (auto c : core::categories()) known = known || c == e.category;
      if (!known) r.problem(n, "unknown category '" + e.category + "'");
    }
    if (auto n = root["tags"]) e.tags = r.strings(n, "tags");
    if (auto n = root["severity"]) {
      auto s = core::severity_from_string(r.text(n, "severity"));
      if (!s) r.problem(n, "`severity` must be fatal, error, warning or info");
      else e.severity = *s;
    }
    if (auto n = root["role"]) {
      auto s = core::role_from_string(r.text(n, "role"));
      if (!s) r.problem(n, "`role` must be initiator, collateral or either");
      else e.role = *s;
    }
    if (auto n = root["fingerprints"]) {
      if (!n.IsSequence() || n.size() == 0) r.problem(n, "`fingerprints` must be a non-empty list");
      else
        for (const auto& fp : n) e.fingerprints.push_back(read_fingerprint(r, fp));
    }
    if (auto n = root["summary"]) e.summary = r.text(n, "summary");
    if (auto n = root["mechanism"]) e.mechanism = r.text(n, "mechanism");
    if (auto n = root["symptoms"]) {
      if (!n.IsSequence()) r.problem(n, "`symptoms` must be a list of {symptom, why}");
      else
        for (const auto& s : n) {
          if (!s.IsMap() || !s["symptom"] || !s["why"]) {
            r.problem(s, "each symptom needs `symptom` and `why`");
            continue;
          }
          check_keys(r, s, {"symptom", "why"}, " in symptom");
          e.symptoms.push_back({r.text(s["symptom"], "symptom"), r.text(s["why"], "why")});
        }
    }
    if (auto n = root["confirm"]) e.confirm = r.strings(n, "confirm");
    if (auto n = root["fix"]) e.fix = r.text(n, "fix");
    if (auto n = root["prevention"]) e.prevention = r.text(n, "prevention");
    if (auto n = root["verify"]) e.verify = r.text(n, "verify");
    if (auto n = root["related"]) e.related = r.strings(n, "related");
    if (auto n = root["codes"]) {
      e.codes = r.strings(n, "codes");
      static const RE2 code("DPX[0-9]{3}");
      for (const auto& c : e.codes)
        if (!RE2::FullMatch(c, code)) r.problem(n, "`codes` entries look like DPX001, not '" + c + "'");
    }
    if (auto n = root["references"]) e.references = r.strings(n, "references");
    if (auto n = root["examples"]) {
      if (!n.IsMap()) {
        r.problem(n, "`examples` must be a mapping with `match` and `no_match` lists");
      } else {
        check_keys(r, n, {"match", "no_match"}, " in examples");
        if (n["match"]) e.examples_match = r.strings(n["match"], "examples.match");
        if (n["no_match"]) e.examples_no_match = r.strings(n["no_match"], "examples.no_match");
        if (e.examples_match.size() < 2) r.problem(n, "`examples.match` needs at least 2 log excerpts");
        if (e.examples_no_match.empty()) r.problem(n, "`examples.no_match` needs at least 1 near-miss");
      }
    }
  } catch (const YAML::Exception& ex) {
    r.problem(ex.mark.line + 1, std::string("unexpected YAML structure: ") + ex.msg);
  }
  if (!r.ok()) return std::nullopt;
  return e;
}

std::string Problem::str() const {
  return line > 0 ? file + ":" + std::to_string(line) + ": " + message : file + ": " + message;
}

}  // namespace denpex::encyclopedia
