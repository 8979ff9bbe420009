// Log bytes -> report: normalize, attribute, match, causality. Invariant: the literal prefilter
// changes nothing (the report with it equals the report without it, byte for byte), whatever the
// input and however it is split into chunks and files.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "denpex/encyclopedia/library.h"
#include "denpex/logs/diagnoser.h"
#include "denpex/server/diagnose_render.h"

namespace {

const denpex::logs::Matcher& matcher() {
  static const auto lib = denpex::encyclopedia::Library::builtin();
  static const denpex::logs::Matcher m(lib.entries());
  return m;
}

std::string report(const std::vector<std::string_view>& files, size_t piece, size_t prefilter_after) {
  denpex::logs::DiagnoseOptions o;
  o.prefilter_after = prefilter_after;
  denpex::logs::Diagnoser d(matcher(), o);
  for (size_t i = 0; i < files.size(); ++i) {
    uint32_t id = d.open("rank" + std::to_string(i) + ".log");
    for (size_t pos = 0; pos < files[i].size(); pos += piece) d.feed(id, files[i].substr(pos, piece));
    d.close(id);
  }
  return denpex::features::diagnose_json(d.finish()).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  // The first byte picks the chunk size; 0x1e (record separator) splits the rest into files.
  const size_t piece = 1 + data[0] % 97;
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  std::vector<std::string_view> files;
  for (size_t at; files.size() < 7 && (at = rest.find('\x1e')) != std::string_view::npos; rest.remove_prefix(at + 1))
    files.push_back(rest.substr(0, at));
  files.push_back(rest);
  if (report(files, piece, 0) != report(files, piece, SIZE_MAX)) std::abort();
  return 0;
}
