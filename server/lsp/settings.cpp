#include "settings.h"

#include <fnmatch.h>

#include "convert.h"
#include "denpex/server/check_config.h"

namespace denpex::lsp {
namespace {

bool read_list(const json& v, const std::string& key, std::vector<std::string>& out, std::vector<std::string>* problems) {
  if (!v.is_array()) {
    problems->push_back("setting '" + key + "' must be an array of strings; ignored");
    return false;
  }
  std::vector<std::string> items;
  for (const auto& s : v) {
    if (!s.is_string()) {
      problems->push_back("setting '" + key + "' must hold only strings; ignored");
      return false;
    }
    items.push_back(s.get<std::string>());
  }
  out = std::move(items);
  return true;
}

}  // namespace

Settings parse_settings(const json& j, const Settings& base, std::vector<std::string>* problems) {
  Settings s = base;
  if (j.is_null()) return s;
  const json* obj = &j;
  if (j.is_object() && j.contains("denpex") && j["denpex"].is_object()) obj = &j["denpex"];
  if (!obj->is_object()) {
    problems->push_back("settings must be an object; ignored");
    return s;
  }
  for (const auto& [key, v] : obj->items()) {
    if (key == "select" || key == "ignore") {
      std::vector<std::string> codes;
      if (!read_list(v, key, codes, problems)) continue;
      if (auto unknown = project::unknown_codes(codes); !unknown.empty()) {
        problems->push_back("setting '" + key + "': no rule matches '" + unknown.front() + "'; ignored");
        continue;
      }
      (key == "select" ? s.select : s.ignore) = std::move(codes);
    } else if (key == "signatureDirs") {
      read_list(v, key, s.signature_dirs, problems);
    } else if (key == "logGlobs") {
      read_list(v, key, s.log_globs, problems);
    } else if (key == "docsUrl") {
      if (!v.is_string()) problems->push_back("setting 'docsUrl' must be a string; ignored");
      else s.docs_url = v.get<std::string>();
      while (!s.docs_url.empty() && s.docs_url.back() == '/') s.docs_url.pop_back();
    } else if (key == "denpex") {
      continue;
    } else {
      problems->push_back("unknown setting '" + key + "' (known: select, ignore, signatureDirs, logGlobs, docsUrl); ignored");
    }
  }
  return s;
}

bool is_log_document(const std::string& uri, const std::string& language_id, const std::vector<std::string>& globs) {
  if (language_id == "log") return true;
  if (language_id == "python") return false;
  auto path = uri_to_path(uri);
  std::string full = path ? *path : uri;
  std::string name = uri_basename(uri);
  for (const auto& g : globs) {
    const std::string& subject = g.find('/') == std::string::npos ? name : full;
    if (::fnmatch(g.c_str(), subject.c_str(), 0) == 0) return true;
  }
  return false;
}

bool is_python_document(const std::string& uri, const std::string& language_id) {
  if (language_id == "python") return true;
  std::string name = uri_basename(uri);
  auto ends = [&](std::string_view suffix) {
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  return ends(".py") || ends(".pyi");
}

}  // namespace denpex::lsp
