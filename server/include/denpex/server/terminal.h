#pragma once
// Terminal conventions shared by every subcommand: colour only for a tty and never under
// NO_COLOR or TERM=dumb (https://no-color.org), `--color=always|never|auto` to override.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "denpex/encyclopedia/library.h"

namespace denpex::cli {

class Style {
 public:
  // `mode`: "auto", "always" or "never".
  static Style for_stream(std::FILE* stream, std::string_view mode = "auto");
  static Style plain() { return Style(false); }

  std::string bold(std::string_view s) const { return wrap("1", s); }
  std::string dim(std::string_view s) const { return wrap("2", s); }
  std::string red(std::string_view s) const { return wrap("31", s); }
  std::string yellow(std::string_view s) const { return wrap("33", s); }
  std::string green(std::string_view s) const { return wrap("32", s); }
  std::string cyan(std::string_view s) const { return wrap("36", s); }
  bool enabled() const { return on_; }

 private:
  explicit Style(bool on) : on_(on) {}
  std::string wrap(std::string_view code, std::string_view s) const;
  bool on_;
};

// "error: <message>" on stderr, the convention for every failure the user must act on.
void print_error(std::string_view command, std::string_view message);
// Problems in the user's encyclopedia files, one warning line each: `command: warning: file:line: ...`.
void report_problems(const std::string& command, const std::vector<encyclopedia::Problem>& problems);

}  // namespace denpex::cli
