// Build-time tool: validates every signatures/**/*.yaml and writes them as C++ initializers, so
// the built-in library costs no YAML parsing at start-up. Broken entries are reported as
// `file:line: problem` and left out.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "denpex/encyclopedia/library.h"

namespace fs = std::filesystem;
using denpex::core::Entry;

namespace {

std::string lit(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n\"\n\""; break;  // keeps generated lines short and diffable
      case '\t': out += "\\t"; break;
      case '?': out += "\\?"; break;          // no trigraphs
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\%03o", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string lits(const std::vector<std::string>& v) {
  std::string out = "{";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + lit(v[i]);
  return out + "}";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: embed_entries SIGNATURES_DIR OUT.cpp\n");
    return 2;
  }
  fs::path root(argv[1]);
  std::vector<denpex::encyclopedia::Problem> problems;
  denpex::encyclopedia::Library lib;
  lib.add_directory(root, problems);
  lib.check_links(problems);
  // Broken entries are left out, loudly; the rest of the library still ships. The
  // signatures.validate test turns any problem into a test failure.
  for (const auto& p : problems) std::fprintf(stderr, "warning: %s\n", p.str().c_str());
  std::ostringstream o;
  o << "// Generated from signatures/ by embed_entries. Do not edit.\n"
       "#include \"builtin_entries.h\"\n\nnamespace denpex::encyclopedia {\n"
       "std::vector<core::Entry> builtin_entries() {\n  using namespace core;\n  std::vector<Entry> v;\n"
    << "  v.reserve(" << lib.entries().size() << ");\n";
  for (const Entry& e : lib.entries()) {
    std::string source = fs::relative(e.source, root.parent_path()).generic_string();
    o << "  {\n    Entry e;\n"
      << "    e.id = " << lit(e.id) << ";\n    e.title = " << lit(e.title) << ";\n"
      << "    e.category = " << lit(e.category) << ";\n    e.tags = " << lits(e.tags) << ";\n"
      << "    e.severity = Severity(" << static_cast<int>(e.severity) << ");\n"
      << "    e.role = Role(" << static_cast<int>(e.role) << ");\n";
    for (const auto& f : e.fingerprints) {
      o << "    e.fingerprints.push_back({" << lit(f.pattern) << ", " << f.confidence << ", " << lit(f.requires_pattern)
        << ", " << lit(f.excludes_pattern) << ", " << f.window << ", " << lit(f.when) << ", " << f.line << "});\n";
    }
    o << "    e.summary = " << lit(e.summary) << ";\n    e.mechanism = " << lit(e.mechanism) << ";\n";
    for (const auto& s : e.symptoms) o << "    e.symptoms.push_back({" << lit(s.symptom) << ", " << lit(s.why) << "});\n";
    o << "    e.confirm = " << lits(e.confirm) << ";\n    e.fix = " << lit(e.fix) << ";\n"
      << "    e.prevention = " << lit(e.prevention) << ";\n    e.verify = " << lit(e.verify) << ";\n"
      << "    e.related = " << lits(e.related) << ";\n    e.codes = " << lits(e.codes) << ";\n"
      << "    e.references = " << lits(e.references) << ";\n"
      << "    e.examples_match = " << lits(e.examples_match) << ";\n"
      << "    e.examples_no_match = " << lits(e.examples_no_match) << ";\n"
      << "    e.source = " << lit(source) << ";\n    e.builtin = true;\n    v.push_back(std::move(e));\n  }\n";
  }
  o << "  return v;\n}\n}  // namespace denpex::encyclopedia\n";
  // Write only when changed so an unchanged library does not trigger a rebuild.
  std::string text = o.str();
  std::ifstream old(argv[2], std::ios::binary);
  std::stringstream prev;
  prev << old.rdbuf();
  if (prev.str() != text) std::ofstream(argv[2], std::ios::binary | std::ios::trunc) << text;
  return 0;
}
