#include "denpex/core/entry.h"

#include <cctype>

namespace denpex::core {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::Fatal: return "fatal";
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
  }
  return "error";
}

std::string_view to_string(Role r) {
  switch (r) {
    case Role::Initiator: return "initiator";
    case Role::Collateral: return "collateral";
    case Role::Either: return "either";
  }
  return "either";
}

std::optional<Severity> severity_from_string(std::string_view s) {
  for (Severity v : {Severity::Fatal, Severity::Error, Severity::Warning, Severity::Info})
    if (to_string(v) == s) return v;
  return std::nullopt;
}

std::optional<Role> role_from_string(std::string_view s) {
  for (Role v : {Role::Initiator, Role::Collateral, Role::Either})
    if (to_string(v) == s) return v;
  return std::nullopt;
}

const std::vector<std::string_view>& categories() {
  static const std::vector<std::string_view> all = {
      "Memory",       "Compilation",          "Distributed",        "CUDA runtime",
      "Numerics",     "Data loading",         "Tensors and autograd", "Checkpoint and I/O",
      "Environment",  "Hardware",             "Scheduler"};
  return all;
}

std::string category_dir(std::string_view category) {
  if (category == "Tensors and autograd") return "tensors-autograd";
  if (category == "Checkpoint and I/O") return "checkpoint-io";
  std::string out;
  for (char c : category) out += c == ' ' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace denpex::core
