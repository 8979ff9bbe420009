#include "denpex/server/options.h"

#include <cstdio>

#include "denpex/server/terminal.h"

namespace denpex::cli {

Options& Options::flag(const std::string& name, char short_name) {
  flags_.insert(name);
  if (short_name) shorts_[short_name] = name;
  return *this;
}

Options& Options::value(const std::string& name, char short_name) {
  valued_.insert(name);
  if (short_name) shorts_[short_name] = name;
  return *this;
}

int Options::usage_error(const std::string& message) const {
  print_error(command_, message + " (see `denpex " + command_ + " --help`)");
  return kUsage;
}

std::optional<int> Options::parse(const Args& args) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") {
      rest_.assign(args.begin() + static_cast<long>(i) + 1, args.end());
      return std::nullopt;
    }
    if (a == "-h" || a == "--help") {
      help_requested_ = true;
      std::fputs(help_.c_str(), stdout);
      return std::nullopt;
    }
    std::string name, val;
    bool inline_value = false;
    if (a.rfind("--", 0) == 0) {
      name = a.substr(2);
      if (auto eq = name.find('='); eq != std::string::npos) {
        val = name.substr(eq + 1);
        name = name.substr(0, eq);
        inline_value = true;
      }
    } else if (a.size() == 2 && a[0] == '-' && a[1] != '-' && shorts_.count(a[1])) {
      name = shorts_[a[1]];
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("unknown option '" + a + "'");
    } else {
      positional_.push_back(a);
      continue;
    }
    if (flags_.count(name)) {
      if (inline_value) return usage_error("option --" + name + " takes no value");
      values_[name].push_back("");
    } else if (valued_.count(name)) {
      if (!inline_value) {
        if (i + 1 >= args.size()) return usage_error("option --" + name + " needs a value");
        val = args[++i];
      }
      values_[name].push_back(val);
    } else {
      return usage_error("unknown option '--" + name + "'");
    }
  }
  return std::nullopt;
}

std::string Options::get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() || it->second.empty() ? fallback : it->second.back();
}

std::vector<std::string> Options::all(const std::string& name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

}  // namespace denpex::cli
