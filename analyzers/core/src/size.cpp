#include "denpex/core/size.h"

#include <cctype>
#include <charconv>
#include <cstdio>

namespace denpex::core {

std::optional<double> parse_quantity(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  std::string digits;
  size_t i = 0;
  for (; i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.' ||
                             text[i] == ',' || (i == 0 && text[i] == '-'));
       ++i) {
    if (text[i] != ',') digits += text[i];
  }
  if (digits.empty() || digits == "-" || digits == ".") return std::nullopt;
  double value = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc() || ptr != digits.data() + digits.size()) return std::nullopt;
  std::string_view unit = text.substr(i);
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (unit.empty()) return value;
  char prefix = static_cast<char>(std::toupper(static_cast<unsigned char>(unit.front())));
  bool binary = unit.size() >= 2 && (unit[1] == 'i' || unit[1] == 'I');
  double base = binary ? 1024.0 : 1000.0;
  switch (prefix) {
    case 'B': return value;
    case 'K': return value * base;
    case 'M': return value * base * base;
    case 'G': return value * base * base * base;
    case 'T': return value * base * base * base * base;
    default: return std::nullopt;
  }
}

std::string format_bytes(double bytes) {
  static const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 4) {
    bytes /= 1024.0;
    ++u;
  }
  char buf[64];
  if (u == 0)
    std::snprintf(buf, sizeof buf, "%.0f %s", bytes, units[u]);
  else
    std::snprintf(buf, sizeof buf, "%.2f %s", bytes, units[u]);
  return buf;
}

}  // namespace denpex::core
