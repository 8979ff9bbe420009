#pragma once
// A log opened in an editor, diagnosed: which lines get a diagnostic (the initiating fault, the
// first matched line of each collateral rank), where the failure points into the user's own
// source (the innermost traceback frame in a workspace file), and the hover text of any line.
// Pure: the caller supplies the text and how a traceback path maps to a workspace file.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "denpex/core/cancel.h"
#include "denpex/core/entry.h"
#include "denpex/logs/diagnosis.h"
#include "denpex/logs/matcher.h"

namespace denpex::features {

struct LogMark {
  enum class Kind { Initiator, Collateral, Unknown };
  Kind kind = Kind::Initiator;
  uint32_t line = 0;  // 0-based line of the log document
  core::Severity severity = core::Severity::Error;
  std::string message;
  std::string entry;  // empty for Kind::Unknown
  int rank = -1;
};

// The failure's frame in a workspace file: "rank 5 ran out of CUDA memory here".
struct SourceMark {
  std::string path;       // the workspace file, as `resolve` returned it
  uint32_t line = 0;      // 0-based line in that file
  std::string function;
  std::string message;
  std::string entry;
  uint32_t log_line = 0;  // 0-based line of the log where the frame was printed
};

struct LogDocument {
  logs::Report report;
  std::vector<LogMark> marks;         // initiator first, then collateral in log order
  std::optional<SourceMark> source;
  bool cancelled = false;
};

// Maps a path printed in a traceback to a workspace file; empty when it is not one.
using ResolveSource = std::function<std::string(std::string_view printed_path)>;

// `name` is the document's file name (ranks are attributed from names such as rank3.log).
LogDocument diagnose_log_document(const logs::Matcher& matcher, std::string_view name, std::string_view text,
                                  const ResolveSource& resolve, const core::CancelToken* cancel = nullptr);

// "rank 5 (local rank 1) on node-03", "rank unknown"
std::string rank_label(int rank, int local_rank, const std::string& node);

// Markdown for a hover on line `line` of a diagnosed log whose text on that line is `line_text`:
// the entry and evidence on the initiating line, a symptom note naming the initiator on a
// collateral line (marked or merely matched), and the entry of any other matched line.
// Empty when the line matches nothing and carries no mark.
std::string log_hover(const LogDocument& doc, const logs::Matcher& matcher, uint32_t line, std::string_view line_text);

// Markdown for a hover on a SourceMark.
std::string source_mark_hover(const SourceMark& mark, const core::Entry* entry, const logs::Report& report);

}  // namespace denpex::features
