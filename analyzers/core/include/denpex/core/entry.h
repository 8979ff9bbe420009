#pragma once
// The encyclopedia's entry model: one failure, its fingerprints, its explanation and its fix.
// Filled by analyzers/encyclopedia from YAML; read by every renderer and by the log matcher.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace denpex::core {

enum class Severity { Fatal, Error, Warning, Info };
enum class Role { Initiator, Collateral, Either };

std::string_view to_string(Severity s);
std::string_view to_string(Role r);
std::optional<Severity> severity_from_string(std::string_view s);
std::optional<Role> role_from_string(std::string_view s);

struct Fingerprint {
  std::string pattern;
  double confidence = 0.7;
  std::string requires_pattern;  // empty: none
  std::string excludes_pattern;  // empty: none
  int window = 50;
  std::string when;  // empty: none
  int line = 0;      // 1-based line of the pattern in its source file, for error messages
};

struct Symptom {
  std::string symptom;
  std::string why;
};

struct Entry {
  std::string id;
  std::string title;
  std::string category;
  std::vector<std::string> tags;
  Severity severity = Severity::Error;
  Role role = Role::Initiator;
  std::vector<Fingerprint> fingerprints;
  std::string summary;
  std::string mechanism;
  std::vector<Symptom> symptoms;
  std::vector<std::string> confirm;
  std::string fix;
  std::string prevention;
  std::string verify;
  std::vector<std::string> related;
  std::vector<std::string> codes;
  std::vector<std::string> references;
  std::vector<std::string> examples_match;
  std::vector<std::string> examples_no_match;
  std::string source;  // file it came from ("builtin:memory/cuda-oom.yaml" for embedded ones)
  bool builtin = false;

  bool can_initiate() const { return role != Role::Collateral; }
  bool has_tag(std::string_view tag) const { return std::find(tags.begin(), tags.end(), tag) != tags.end(); }
};

// The fixed list of categories, in the order docs and `signatures list` show them.
const std::vector<std::string_view>& categories();
// "CUDA runtime" -> "cuda-runtime"
std::string category_dir(std::string_view category);

}  // namespace denpex::core
