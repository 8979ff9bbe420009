#include "denpex/server/check_config.h"

#include <fstream>
#include <optional>
#include <string_view>
#include <set>

#include "denpex/python/rule.h"

#define TOML_EXCEPTIONS 1
#include <toml++/toml.h>

namespace denpex::project {
namespace fs = std::filesystem;
namespace {

std::string where(const std::string& file, const toml::source_region& r) {
  return file + ":" + std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column);
}

bool read_strings(const std::string& file, const std::string& key, const toml::node& n, std::vector<std::string>& out,
                  std::vector<std::string>& errors) {
  const toml::array* arr = n.as_array();
  if (!arr) {
    errors.push_back(where(file, n.source()) + ": tool.denpex." + key + " must be an array of strings");
    return false;
  }
  for (const auto& item : *arr) {
    auto s = item.value<std::string>();
    if (!s) {
      errors.push_back(where(file, item.source()) + ": tool.denpex." + key + " must hold only strings");
      return false;
    }
    out.push_back(*s);
  }
  return true;
}

// toml++ 3.3 (Debian 12) reaches __builtin_unreachable() on some non-ASCII characters outside
// strings and comments (is_non_ascii_horizontal_whitespace; found by fuzz_config_entry): undefined
// behaviour. TOML allows non-ASCII only inside strings and comments, so such text is a syntax
// error anyway: it is reported here, as file:line:col, and toml++ never sees it.
std::optional<std::string> non_ascii_outside_strings(std::string_view text) {
  enum class In { Code, Comment, Basic, Literal, MultiBasic, MultiLiteral } in = In::Code;
  size_t line = 1, col = 1;
  for (size_t i = 0; i < text.size(); ++i, ++col) {
    char c = text[i];
    if (c == '\n') {
      ++line;
      col = 0;
      if (in == In::Comment || in == In::Basic || in == In::Literal) in = In::Code;
      continue;
    }
    auto at = [&](std::string_view s) { return text.substr(i, s.size()) == s; };
    switch (in) {
      case In::Code:
        if (static_cast<unsigned char>(c) >= 0x80)
          return std::to_string(line) + ":" + std::to_string(col) +
                 ": a non-ASCII character outside a string or comment (TOML allows them only there)";
        if (c == '#') in = In::Comment;
        else if (at("\"\"\"")) in = In::MultiBasic, i += 2, col += 2;
        else if (at("'''")) in = In::MultiLiteral, i += 2, col += 2;
        else if (c == '"') in = In::Basic;
        else if (c == '\'') in = In::Literal;
        break;
      case In::Comment:
        break;
      case In::Basic:
      case In::MultiBasic:
        if (in == In::MultiBasic && c == '\\') {
          // A line-ending backslash: toml++ skips the whitespace after it with the same faulty
          // check, so a non-ASCII character right after it is refused here too.
          size_t j = i + 1;
          while (j < text.size() && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r')) ++j;
          if (j < text.size() && text[j] == '\n') {
            size_t l = line, k = j, at = 0;
            for (; k < text.size() && (text[k] == ' ' || text[k] == '\t' || text[k] == '\r' || text[k] == '\n'); ++k)
              if (text[k] == '\n') ++l, at = k + 1;
            if (k < text.size() && static_cast<unsigned char>(text[k]) >= 0x80)
              return std::to_string(l) + ":" + std::to_string(k - at + 1) +
                     ": a non-ASCII character right after a line-ending backslash in a multi-line string "
                     "(the TOML reader cannot take it there; start the line with an ASCII character or \\uXXXX)";
            line = l, col = k - at, i = k - 1;
            break;
          }
        }
        if (c == '\\') {  // an escaped character, a quote included
          ++i, ++col;
        }
        else if (in == In::Basic && c == '"') in = In::Code;
        else if (in == In::MultiBasic && at("\"\"\"")) in = In::Code, i += 2, col += 2;
        break;
      case In::Literal:
        if (c == '\'') in = In::Code;
        break;
      case In::MultiLiteral:
        if (at("'''")) in = In::Code, i += 2, col += 2;
        break;
    }
  }
  return std::nullopt;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

CheckConfig read_check_config(const fs::path& path) {
  CheckConfig cfg;
  cfg.file = path.string();
  toml::table root;
  std::string text = read_text(path);
  if (auto bad = non_ascii_outside_strings(text)) {
    cfg.errors.push_back(cfg.file + ":" + *bad);
    return cfg;
  }
  try {
    root = toml::parse(text, path.string());
  } catch (const toml::parse_error& e) {
    cfg.errors.push_back(where(cfg.file, e.source()) + ": " + std::string(e.description()));
    return cfg;
  }
  const toml::table* tool = root["tool"]["denpex"].as_table();
  if (!tool) return cfg;
  static const std::set<std::string, std::less<>> kKnown = {"select", "extend-select", "ignore", "exclude",
                                                            "severity", "signature-dirs", "signatures"};
  for (const auto& [key, node] : *tool) {
    std::string k(key.str());
    if (!kKnown.count(k)) {
      cfg.warnings.push_back(where(cfg.file, key.source()) + ": unknown key 'tool.denpex." + k +
                             "' (known: select, extend-select, ignore, exclude, severity, signature-dirs)");
      continue;
    }
    if (k == "select") read_strings(cfg.file, k, node, cfg.select, cfg.errors);
    else if (k == "extend-select") read_strings(cfg.file, k, node, cfg.extend_select, cfg.errors);
    else if (k == "ignore") read_strings(cfg.file, k, node, cfg.ignore, cfg.errors);
    else if (k == "exclude") read_strings(cfg.file, k, node, cfg.exclude, cfg.errors);
    else if (k == "signature-dirs" || k == "signatures") {
      std::vector<std::string> dirs;
      if (read_strings(cfg.file, k, node, dirs, cfg.errors))
        for (auto& d : dirs) cfg.signature_dirs.push_back((path.parent_path() / d).lexically_normal().string());
    } else if (k == "severity") {
      const toml::table* t = node.as_table();
      if (!t) {
        cfg.errors.push_back(where(cfg.file, node.source()) + ": tool.denpex.severity must be a table of CODE = \"level\"");
        continue;
      }
      for (const auto& [code, level] : *t) {
        auto s = level.value<std::string>();
        auto sev = s ? core::severity_from_string(*s) : std::nullopt;
        if (!sev) {
          cfg.errors.push_back(where(cfg.file, level.source()) + ": severity of " + std::string(code.str()) +
                               " must be one of \"fatal\", \"error\", \"warning\", \"info\"");
          continue;
        }
        cfg.severity[std::string(code.str())] = *sev;
      }
    }
  }
  return cfg;
}

std::optional<fs::path> find_check_config(const fs::path& start) {
  std::error_code ec;
  fs::path dir = fs::absolute(start, ec);
  if (ec) return std::nullopt;
  if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
  for (; !dir.empty(); dir = dir.parent_path()) {
    fs::path candidate = dir / "pyproject.toml";
    if (fs::is_regular_file(candidate, ec)) {
      std::string text = read_text(candidate);
      // A broken pyproject.toml that mentions us should be reported (by read_check_config), not skipped.
      const bool mentions = text.find("[tool.denpex") != std::string::npos;
      if (non_ascii_outside_strings(text)) {
        if (mentions) return candidate;
      } else {
        try {
          if (toml::parse(text, candidate.string())["tool"]["denpex"].as_table()) return candidate;
        } catch (const toml::parse_error&) {
          if (mentions) return candidate;
        }
      }
    }
    if (dir == dir.parent_path()) break;
  }
  return std::nullopt;
}

python::AnalyzeOptions analyze_options(const CheckConfig& cfg, const std::vector<std::string>& select,
                                       const std::vector<std::string>& ignore,
                                       const std::vector<std::string>& extend_select) {
  python::AnalyzeOptions out;
  out.select = select.empty() ? cfg.select : select;
  std::vector<std::string> extend = select.empty() ? cfg.extend_select : std::vector<std::string>{};
  extend.insert(extend.end(), extend_select.begin(), extend_select.end());
  if (!extend.empty()) {
    if (out.select.empty()) out.select = {"DPX"};  // every default rule, as an empty selection means
    out.select.insert(out.select.end(), extend.begin(), extend.end());
  }
  out.ignore = cfg.ignore;
  out.ignore.insert(out.ignore.end(), ignore.begin(), ignore.end());
  out.severity = cfg.severity;
  return out;
}

std::vector<std::string> unknown_codes(const std::vector<std::string>& codes) {
  std::vector<std::string> out;
  for (const auto& code : codes) {
    bool known = code == "ALL";
    for (const python::RuleInfo* r : python::rules()) known = known || r->code.substr(0, code.size()) == code;
    if (!known) out.push_back(code);
  }
  return out;
}

}  // namespace denpex::project
