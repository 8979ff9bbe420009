#pragma once
// A small, strict option parser: `--name VALUE`, `--name=VALUE`, flags, `--` ends options.
// Unknown options are errors (with a suggestion), never silently ignored.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "denpex/server/cli.h"

namespace denpex::cli {

class Options {
 public:
  Options(std::string command, std::string help) : command_(std::move(command)), help_(std::move(help)) {}
  Options& flag(const std::string& name, char short_name = 0);
  Options& value(const std::string& name, char short_name = 0);

  // Returns nullopt on success (`help()` true when -h/--help was given); otherwise the exit code
  // to return, after printing the error.
  std::optional<int> parse(const Args& args);

  bool help() const { return help_requested_; }
  bool has(const std::string& name) const { return values_.count(name) > 0; }
  std::string get(const std::string& name, const std::string& fallback = "") const;
  std::vector<std::string> all(const std::string& name) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // Arguments after a literal `--`.
  const std::vector<std::string>& rest() const { return rest_; }
  const std::string& help_text() const { return help_; }
  // Prints the error, returns kUsage.
  int usage_error(const std::string& message) const;

 private:
  std::string command_, help_;
  std::set<std::string> flags_, valued_;
  std::map<char, std::string> shorts_;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positional_, rest_;
  bool help_requested_ = false;
};

}  // namespace denpex::cli
