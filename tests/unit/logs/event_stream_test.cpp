// A harness that relays a child's output as JSON event lines (milabench) is read for the lines it
// carries, and the job is diagnosed as if its output had been given plain.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "../../../analyzers/logs/src/event_stream.h"
#include "denpex/logs/paste_repair.h"
#include "diagnose.h"
#include "snapshot.h"

using namespace denpex;

namespace {
// How milabench writes each line of a child's stream: json.dumps (ASCII only) of an event.
std::string as_events(const std::string& log, bool compact = false) {
  std::string out = R"({"event": "start", "data": {"command": ["torchrun", "main.py"], "time": 1733570000.5}, "pipe": null})" "\n";
  size_t pos = 0;
  while (pos < log.size()) {
    size_t nl = log.find('\n', pos);
    if (nl == std::string::npos) nl = log.size();
    const std::string data = nlohmann::json(log.substr(pos, nl - pos) + "\n").dump(-1, ' ', true);
    out += (compact ? R"({"data":)" + data + R"(,"event":"line","pipe":"stderr"})"
                    : R"({"event": "line", "data": )" + data + R"(, "pipe": "stderr"})") + "\n";
    pos = nl + 1;
  }
  return out + R"({"event": "end", "data": {"return_code": 1}, "pipe": null})" "\n";
}
}  // namespace

TEST_CASE("JSON strings decode with their escapes, and a cut one is refused") {
  CHECK(logs::json_string_at(R"(x "a\"b\\c\n\u00e9\ud83d\ude80" y)", 2) == "a\"b\\c\n\xc3\xa9\xf0\x9f\x9a\x80");
  CHECK(logs::json_string_at(R"("lone \udc00")", 0) == "lone \xef\xbf\xbd");
  CHECK_FALSE(logs::json_string_at(R"("cut short)", 0));
  CHECK_FALSE(logs::json_string_at(R"("bad \q escape")", 0));
  CHECK_FALSE(logs::json_string_at("no quote", 0));
}

TEST_CASE("a JSON event stream is read line for line, and diagnosed as its plain output") {
  const std::string plain = testing::read_file(testing::source_path("tests/fixtures/logs/multirank/unknown_exception/job.log"));
  const std::string events = as_events(plain);
  auto text = logs::unevented(events);
  REQUIRE(text);
  // The start and end events stay as they are; every line event becomes its line.
  CHECK(text->starts_with("{\"event\": \"start\""));
  CHECK(text->find(plain) != std::string::npos);
  auto fixed = logs::repair_paste(events);
  REQUIRE(fixed);
  CHECK(fixed->what.find("JSON event lines") != std::string::npos);

  auto want = testing::diagnose_inputs({{"job.log", plain}});
  auto got = testing::diagnose_inputs({{"job.log", events}});
  REQUIRE_FALSE(want.diagnoses.empty());
  REQUIRE_FALSE(got.diagnoses.empty());
  CHECK(got.diagnoses[0].entry->id == want.diagnoses[0].entry->id);
  CHECK(got.diagnoses[0].initiating_rank == want.diagnoses[0].initiating_rank);
  CHECK(got.diagnoses[0].initiating_rank >= 0);

  SUBCASE("keys in another order, without spaces") {
    auto compact = testing::diagnose_inputs({{"job.log", as_events(plain, true)}});
    REQUIRE_FALSE(compact.diagnoses.empty());
    CHECK(compact.diagnoses[0].initiating_rank == want.diagnoses[0].initiating_rank);
  }
  SUBCASE("a log with a few JSON lines of its own is left alone") {
    CHECK_FALSE(logs::unevented(plain + "{\"event\": \"x\"}\n{\"event\": \"y\"}\n{\"event\": \"z\"}\n"));
  }
}
