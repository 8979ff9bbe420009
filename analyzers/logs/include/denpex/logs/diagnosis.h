#pragma once
// What log diagnosis concludes: the initiating fault, where it happened, what followed from it,
// the evidence, and the hypotheses it weighed. Plain data; renderers live in server/features.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "denpex/logs/events.h"
#include "denpex/logs/matcher.h"

namespace denpex::logs {

struct Location {
  std::string file;
  uint64_t line = 0;  // 1-based
};

struct Collateral {
  int rank = -1;
  std::string entry;
  Location where;
};

struct Hypothesis {
  std::string entry;
  double confidence = 0;
  int rank = -1;
  Location where;
  std::vector<std::string> evidence_for;
  std::vector<std::string> evidence_against;
};

struct Diagnosis {
  const core::Entry* entry = nullptr;
  double confidence = 0;
  // The run failed: the entry is fatal or an error, or the launcher's teardown shows a worker died
  // (a SIGTERM gap under an info entry). A warning-only advisory is not a failure.
  bool failed = false;
  int initiating_rank = -1;
  int initiating_local_rank = -1;
  std::string initiating_node;
  Location first_error;
  std::string first_error_text;
  // The first error line as the context shows lines: normalized, launcher prefix kept (first_error_text
  // is the matched text without it).
  std::string first_error_line;
  uint64_t context_first_line = 0;      // line number of context_before[0]
  std::vector<std::string> context_before;  // up to --context lines before first_error
  Captures captures;                    // named captures of the first error line
  // The Python traceback the first error line belongs to (EventTracker::exception_at on the
  // source that printed it: same input, same rank), outermost frame first and capped like
  // ExceptionEvent::stack; empty when the line belongs to none (a watchdog line, a C++ abort).
  std::vector<StackFrame> traceback;
  std::vector<std::string> findings;    // evidence turned into sentences
  std::vector<std::string> chain;       // the causal chain, earliest first
  std::vector<Collateral> collateral;
  std::vector<Hypothesis> hypotheses;   // competing explanations, most likely first
};

struct InputSummary {
  std::string file;
  uint64_t lines = 0;
  uint64_t bytes = 0;
  int rank = -1;
  std::string node;
  bool binary = false;  // NUL bytes seen: probably not a text log
  std::string reshaped;  // how a reshaped paste was put back (paste_repair.h); empty when it was not
};

struct LineRef {
  Location where;
  int rank = -1;
  std::string text;
};

struct FinalException {
  Location where;
  int rank = -1;
  ExceptionEvent event;
};

struct RootCauseRef {
  Location where;
  RootCause cause;
};

// A known message of a run that did not fail: a cancellation from outside (Ctrl-C, scancel), or
// what healthy runs print (an info entry). Made only when there is no diagnosis, so that "no
// failure" can say what the log does show.
struct Note {
  const core::Entry* entry = nullptr;
  int rank = -1;
  Location where;
  std::string text;
};

struct Report {
  std::vector<Diagnosis> diagnoses;  // most likely first; empty when nothing known matched
  std::vector<Note> notes;           // only when diagnoses is empty: cancellations first, one per entry
  std::vector<InputSummary> inputs;
  std::optional<LineRef> first_error_line;
  std::optional<FinalException> final_exception;
  std::optional<RootCauseRef> root_cause;
  uint64_t total_lines = 0;
  uint64_t total_bytes = 0;
};

}  // namespace denpex::logs
