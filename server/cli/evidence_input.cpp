#include "denpex/server/evidence_input.h"

#include <fstream>
#include <sstream>

namespace denpex::cli {

std::optional<features::EvidencePack> read_evidence_pack(const std::string& dir, std::string& error) {
  std::ifstream f(dir + "/evidence.json", std::ios::binary);
  std::stringstream text;
  text << f.rdbuf();
  if (!f) {
    error = "cannot read '" + dir + "/evidence.json'; make a pack with `denpex evidence --out " + dir + "`";
    return std::nullopt;
  }
  auto pack = features::parse_evidence(text.str(), error);
  if (!pack) error = dir + "/evidence.json: " + error;
  return pack;
}

void feed_kernel_log(logs::Diagnoser& diagnoser, const features::EvidencePack& pack, const std::string& dir) {
  if (pack.kernel_log.empty()) return;
  uint32_t id = diagnoser.open(dir + "/dmesg" + (pack.host.empty() ? "" : "-" + pack.host) + ".log");
  for (const auto& line : features::kernel_log_lines(pack)) {
    diagnoser.feed(id, line);
    diagnoser.feed(id, "\n");
  }
  diagnoser.close(id);
}

}  // namespace denpex::cli
