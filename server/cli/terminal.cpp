#include "denpex/server/terminal.h"

#include <unistd.h>

#include <cstdlib>

namespace denpex::cli {

Style Style::for_stream(std::FILE* stream, std::string_view mode) {
  if (mode == "always") return Style(true);
  if (mode == "never") return Style(false);
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && no_color[0] != '\0') return Style(false);
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string_view(term) == "dumb") return Style(false);
  return Style(isatty(fileno(stream)) == 1);
}

std::string Style::wrap(std::string_view code, std::string_view s) const {
  if (!on_) return std::string(s);
  std::string out = "\x1b[";
  out += code;
  out += 'm';
  out += s;
  out += "\x1b[0m";
  return out;
}

void print_error(std::string_view command, std::string_view message) {
  Style st = Style::for_stream(stderr);
  std::fprintf(stderr, "%s %.*s: %.*s\n", st.red("error:").c_str(), static_cast<int>(command.size()), command.data(),
               static_cast<int>(message.size()), message.data());
}

void report_problems(const std::string& command, const std::vector<encyclopedia::Problem>& problems) {
  Style st = Style::for_stream(stderr);
  for (const auto& p : problems)
    std::fprintf(stderr, "%s: %s %s\n", command.c_str(), st.yellow("warning:").c_str(), p.str().c_str());
}

}  // namespace denpex::cli
