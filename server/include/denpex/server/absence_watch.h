#pragma once
// `denpex run --expect-absent ENTRY,...`: watches a command's output streams for the fingerprints
// of the named entries only, with their context rules, so that a rerun after a fix can prove the
// failure is gone. Lines are cut from arbitrary chunks, normalized and stripped of launcher
// prefixes exactly as `diagnose` sees them.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "denpex/core/entry.h"

namespace denpex::logs {
class Matcher;
class Scanner;
}  // namespace denpex::logs

namespace denpex::features {

struct Sighting {
  std::string entry;   // the entry id whose fingerprint matched
  std::string stream;  // the stream's name ("stdout", "stderr")
  uint64_t line = 0;   // 1-based, within that stream
  std::string text;    // the matched line, normalized
  uint64_t repeats = 0;
};

class AbsenceWatch {
 public:
  // `entries` are the ones that must not appear; `streams` names the inputs fed by index.
  AbsenceWatch(std::vector<core::Entry> entries, std::vector<std::string> streams);
  ~AbsenceWatch();
  void feed(uint32_t stream, std::string_view bytes);
  // Ends every stream (a last line without a newline counts) and returns what was seen, in order.
  std::vector<Sighting> finish();

 private:
  void line(uint32_t stream, std::string_view raw);

  std::vector<core::Entry> entries_;
  std::vector<std::string> streams_;
  std::unique_ptr<logs::Matcher> matcher_;
  std::unique_ptr<logs::Scanner> scanner_;
  std::vector<std::string> partial_;
  std::vector<uint64_t> lines_;
  std::string norm_;
};

}  // namespace denpex::features
