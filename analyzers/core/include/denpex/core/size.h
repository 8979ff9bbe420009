#pragma once
// Numbers as logs print them: "20.00 MiB", "1.5GB", "600000". Used for evidence and `when`.
#include <optional>
#include <string>
#include <string_view>

namespace denpex::core {

// Bytes for sizes with a unit (KiB/MiB/GiB/TiB are powers of 1024, KB/MB/GB/TB of 1000, a bare
// "B" is bytes); the plain value for unit-less numbers. nullopt when the text is not a number.
std::optional<double> parse_quantity(std::string_view text);

// "1.95 GiB": the binary unit that keeps the number below 1024, two decimals.
std::string format_bytes(double bytes);

}  // namespace denpex::core
