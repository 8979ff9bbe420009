#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "denpex/encyclopedia/library.h"

using namespace denpex::encyclopedia;

namespace {

const char* kValid = R"(id: sample-entry
title: A sample failure
category: Memory
tags: [x]
severity: error
role: initiator
fingerprints:
  - pattern: 'Sample failure of (?P<size>\d+ MiB)'
    confidence: 0.6
summary: s
mechanism: m
fix: f
verify: v
examples:
  match:
    - 'Sample failure of 3 MiB'
    - 'x Sample failure of 4 MiB'
  no_match:
    - 'Sample success'
)";

std::vector<Problem> problems_of(const std::string& text, std::string_view expected_id = "sample-entry") {
  std::vector<Problem> problems;
  parse_entry(text, "sig/sample-entry.yaml", expected_id, problems);
  return problems;
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  auto pos = s.find(from);
  REQUIRE(pos != std::string::npos);
  return s.replace(pos, from.size(), to);
}

}  // namespace

TEST_CASE("a valid entry loads with every field") {
  std::vector<Problem> problems;
  auto e = parse_entry(kValid, "sig/sample-entry.yaml", "sample-entry", problems);
  REQUIRE(e);
  CHECK(problems.empty());
  CHECK(e->fingerprints.size() == 1);
  CHECK(e->fingerprints[0].confidence == doctest::Approx(0.6));
  CHECK(e->examples_match.size() == 2);
}

TEST_CASE("each kind of malformed entry gives one clear file:line problem") {
  struct Case {
    std::string text;
    std::string expect;
    int line;
  };
  std::vector<Case> cases = {
      {replace(kValid, "tags: [x]", "tags: [x]\ncolour: red"), "unknown key `colour`", 5},
      {replace(kValid, "summary: s\n", "sumary: s\n"), "(did you mean `summary`?)", 12},
      {replace(kValid, "title: A sample failure\n", ""), "missing required field `title`", 1},
      {replace(kValid, "(?P<size>\\d+ MiB)", "(?P<size>\\d+ MiB"), "does not compile as RE2", 8},
      {replace(kValid, "confidence: 0.6", "confidence: 1.6"), "`confidence` must be between 0 and 1", 9},
      {replace(kValid, "category: Memory", "category: Memroy"), "unknown category 'Memroy'", 3},
      {replace(kValid, "role: initiator", "role: victim"), "`role` must be initiator, collateral or either", 6},
      {replace(kValid, "severity: error", "severity: bad"), "`severity` must be fatal", 5},
      {replace(kValid, "    confidence: 0.6", "    when: 'size > 2 * tried'"), "does not capture", 9},
      {replace(kValid, "    - 'x Sample failure of 4 MiB'\n", ""), "at least 2 log excerpts", 16},
      {replace(kValid, "id: sample-entry", "id: other-entry"), "differs from the file name", 1},
      {replace(kValid, "id: sample-entry", "id: Bad_Id"), "must be kebab-case", 1},
      {"id: [unclosed\n", "YAML syntax error", 2},
      {"- just\n- a list\n", "must be a YAML mapping", 1},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto problems = problems_of(c.text);
    REQUIRE(!problems.empty());
    bool found = false;
    for (const auto& p : problems) found = found || p.message.find(c.expect) != std::string::npos;
    CHECK_MESSAGE(found, problems[0].str());
    CHECK(problems[0].str().rfind("sig/sample-entry.yaml:", 0) == 0);
  }
}

TEST_CASE("a broken user entry is skipped; the built-in library stays whole") {
  auto dir = std::filesystem::temp_directory_path() / "denpex-loader-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "memory");
  std::ofstream(dir / "memory" / "broken.yaml") << "id: broken\ntitle: [\n";
  std::ofstream(dir / "memory" / "cuda-oom.yaml") << replace(replace(kValid, "sample-entry", "cuda-oom"), "A sample failure", "Overridden");
  std::vector<Problem> problems;
  Library lib = Library::builtin(&problems);
  size_t builtin_count = lib.entries().size();
  REQUIRE(builtin_count > 0);
  auto added = lib.add_directory(dir, problems);
  CHECK(added == std::vector<std::string>{"cuda-oom"});
  CHECK(lib.entries().size() == builtin_count);  // overridden, not duplicated
  CHECK(lib.find("cuda-oom")->title == "Overridden");
  bool reported = false;
  for (const auto& p : problems) reported = reported || p.file.find("broken.yaml") != std::string::npos;
  CHECK(reported);
  std::filesystem::remove_all(dir);
}

TEST_CASE("dangling related ids and near-miss ids are reported with suggestions") {
  Library lib = Library::builtin();
  auto near = lib.closest_ids("cuda-om");
  REQUIRE(!near.empty());
  CHECK(near[0] == "cuda-oom");
  denpex::core::Entry e = *lib.find("cuda-oom");
  e.id = "my-entry";
  e.related = {"cuda-oomm"};
  lib.add(e);
  std::vector<Problem> problems;
  lib.check_links(problems);
  bool found = false;
  for (const auto& p : problems) found = found || (p.message.find("'cuda-oomm', which is no entry (did you mean 'cuda-oom'?)") != std::string::npos);
  CHECK(found);
}

TEST_CASE("a duplicate id within one directory is reported with both files") {
  auto dir = std::filesystem::temp_directory_path() / "denpex-dup-test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "a");
  std::filesystem::create_directories(dir / "b");
  std::ofstream(dir / "a" / "sample-entry.yaml") << kValid;
  std::ofstream(dir / "b" / "sample-entry.yaml") << kValid;
  Library lib;
  std::vector<Problem> problems;
  auto added = lib.add_directory(dir, problems);
  CHECK(added.size() == 1);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].str().find("b/sample-entry.yaml:1: duplicate id 'sample-entry', also defined in") != std::string::npos);
  std::filesystem::remove_all(dir);
}
