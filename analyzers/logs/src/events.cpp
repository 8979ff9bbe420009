#include "denpex/logs/events.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

#include "find_literal.h"

namespace denpex::logs {
namespace {

constexpr size_t kMaxMessage = 512;
constexpr size_t kMaxFrameCode = 200;  // bytes of a frame's source line kept
constexpr size_t kMaxPath = 1024;
constexpr size_t kMaxFunction = 256;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

int leading_int(std::string_view s) {
  s = trim(s);
  bool neg = !s.empty() && s[0] == '-';
  if (neg) s.remove_prefix(1);
  int v = 0;
  size_t n = 0;
  while (n < s.size() && n < 9 && std::isdigit(static_cast<unsigned char>(s[n]))) v = v * 10 + (s[n++] - '0');
  if (n == 0) return neg ? 0 : -1;
  return neg ? -v : v;
}

bool ends_with_suffix(std::string_view type) {
  for (std::string_view s : {"Error", "Exception", "Interrupt", "Exit", "Warning", "Failure"})
    if (type.size() >= s.size() && type.substr(type.size() - s.size()) == s) return true;
  return false;
}

// `VocabMismatch`, `FeatureSchemaDrift`: two or more capitalised humps, each an uppercase letter
// and then lowercase letters or digits. Not `INFO`, not `Epoch`.
bool camel_case_class(std::string_view name) {
  size_t humps = 0, i = 0;
  while (i < name.size()) {
    if (!std::isupper(static_cast<unsigned char>(name[i]))) return false;
    size_t j = i + 1;
    while (j < name.size() && (std::islower(static_cast<unsigned char>(name[j])) || std::isdigit(static_cast<unsigned char>(name[j]))))
      ++j;
    if (j == i + 1) return false;
    ++humps;
    i = j;
  }
  return humps >= 2;
}

}  // namespace

std::optional<std::pair<std::string, std::string>> split_exception_line(std::string_view text, bool after_frames,
                                                                        bool* unconventional) {
  if (unconventional) *unconventional = false;
  if (text.empty() || text[0] == ' ' || text[0] == '\t') return std::nullopt;
  size_t end = 0;
  while (end < text.size() && end < 200 &&
         (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_' || text[end] == '.' ||
          (text[end] == ':' && end + 1 < text.size() && text[end + 1] == ':')))
    end += (text[end] == ':') ? 2 : 1;
  // C accelerator modules start with `_`: `_csv.Error`, `_pickle.PicklingError`.
  const bool underscore_module = text[0] == '_' && end > 1 && std::isalpha(static_cast<unsigned char>(text[1]));
  if (end == 0 || !(std::isalpha(static_cast<unsigned char>(text[0])) || underscore_module)) return std::nullopt;
  std::string_view type = text.substr(0, end);
  if (end < text.size() && text[end] != ':') return std::nullopt;
  // A bare name (`KeyboardInterrupt`) or `Name: message`; the name must look like an exception.
  std::string_view last = type.substr(type.rfind('.') == std::string_view::npos ? 0 : type.rfind('.') + 1);
  std::string_view msg = end < text.size() ? trim(text.substr(end + 1)) : std::string_view{};
  // Two common classes outside that naming: an uncaught StopIteration, a debugger's `bdb.BdbQuit`.
  if (!ends_with_suffix(last) && last != "StopIteration" && last != "BdbQuit" && type.find("::") == std::string_view::npos) {
    // Where Python puts the exception line, right after the frames, a class of the job's own
    // named outside that convention is still the exception: only with a message, so that a bare
    // word another process printed there is not taken for one.
    // C modules name theirs `error` behind the module: `zlib.error`, `struct.error`, `re.error`.
    const bool module_error = last == "error" && type.size() > last.size() + 1;
    if (!after_frames || msg.empty() || !(camel_case_class(last) || module_error)) return std::nullopt;
    if (unconventional) *unconventional = true;
  }
  return std::make_pair(std::string(type), std::string(msg.substr(0, kMaxMessage)));
}

std::optional<StackFrame> parse_frame_line(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  constexpr std::string_view kFile = "File \"", kLine = "\", line ", kIn = ", in ";
  if (!text.starts_with(kFile)) return std::nullopt;
  std::string_view rest = text.substr(kFile.size());
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.remove_suffix(1);
  // From the right: a path may itself contain `", line 3`, a function name does not.
  for (size_t at = rest.rfind(kLine); at != std::string_view::npos;
       at = at == 0 ? std::string_view::npos : rest.rfind(kLine, at - 1)) {
    size_t i = at + kLine.size();
    uint64_t n = 0;
    size_t digits = 0;
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i])) && digits < 19) {
      n = n * 10 + static_cast<uint64_t>(rest[i++] - '0');
      ++digits;
    }
    if (digits == 0 || digits == 19) continue;
    std::string_view after = rest.substr(i);
    // A SyntaxError prints `File "x.py", line 3` with no function: the location is still useful.
    if (!after.empty() && !after.starts_with(kIn)) continue;
    StackFrame f;
    f.file = std::string(rest.substr(0, std::min(at, kMaxPath)));
    f.line = n;
    if (!after.empty()) f.function = std::string(after.substr(kIn.size(), kMaxFunction));
    return f;
  }
  return std::nullopt;
}

bool looks_like_error(std::string_view text) {
  text = text.substr(0, 4096);
  for (std::string_view key : {"Error", "ERROR", "error:", "Exception", "Traceback (most recent call last)",
                               "FAILED", "Fatal", "FATAL", "fatal:", "Killed", "Segmentation fault",
                               "terminate called", "Aborted"})
    if (find_literal(text, key) != std::string_view::npos) return true;
  return false;
}

void EventTracker::exception_line(uint64_t line, std::string_view text) {
  bool unconventional = false;
  auto split = split_exception_line(text, true, &unconventional);
  if (!split) return;
  if (exceptions_.size() >= kMaxEvents) return;
  ExceptionEvent ev;
  ev.line = line;
  ev.type = std::move(split->first);
  ev.message = std::move(split->second);
  ev.traceback_line = traceback_line_;
  ev.chained = std::move(pending_chain_);
  ev.last_frame = std::move(last_frame_);
  ev.frames = frames_;
  ev.unconventional_name = unconventional;
  if (stack_frames_kept_ + stack_.size() <= kMaxStackFrames) {
    stack_frames_kept_ += stack_.size();
    ev.stack = std::move(stack_);
  }
  exceptions_.push_back(std::move(ev));
  pending_chain_.clear();
  last_frame_.clear();
  frames_ = 0;
  stack_.clear();
}

const ExceptionEvent* EventTracker::exception_at(uint64_t line) const {
  if (table_traceback_rank(line) >= 0) return nullptr;
  for (const auto& e : exceptions_)
    if (e.traceback_line != 0 && e.traceback_line <= line && line <= e.line) return &e;
  // A message goes on below its exception line (`BackendCompilerFailed ... raised:` then the
  // cause, `Error(s) in loading state_dict` then `size mismatch for ...`): the nearest exception
  // line above claims the line before one below does.
  const ExceptionEvent* above = nullptr;
  const ExceptionEvent* below = nullptr;
  for (const auto& e : exceptions_) {
    if (e.line <= line && (!above || e.line > above->line)) above = &e;
    if (e.line > line && (!below || e.line < below->line)) below = &e;
  }
  if (above && line - above->line <= kNearLines) return above;
  if (below && below->line - line <= kNearLines) return below;
  return nullptr;
}

static bool is_table_key(std::string_view key) {
  for (std::string_view k : {"time", "host", "rank", "exitcode", "error_file", "traceback", "msg"})
    if (key == k) return true;
  return false;
}

int EventTracker::table_traceback_rank(uint64_t line) const {
  for (const auto& t : table_tracebacks_)
    if (line >= t.first_line && line <= t.last_line) return t.rank;
  return -1;
}

// Torch 1.9 quotes a field's message (`msg: "Signal 9 (SIGKILL) received by PID 7"`); later
// versions print it bare.
static std::string_view unquoted(std::string_view value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') return value.substr(1, value.size() - 2);
  return value;
}

void EventTracker::table_field(std::string_view key, std::string_view value) {
  value = unquoted(value);
  if (table_ == Table::Failures) {
    // An entry's `time` and `host` come before its `rank`, its `exitcode` and `traceback` after.
    RootCause* entry = !other_failures_.empty() && other_failures_.back().rank == failure_rank_ && failure_rank_ >= 0
                           ? &other_failures_.back()
                           : nullptr;
    if (key == "time") {
      failure_time_ = std::string(value.substr(0, 64));
      failure_rank_ = -1;
    } else if (key == "host") {
      failure_host_ = std::string(value.substr(0, 256));
    } else if (key == "rank") {
      int r = leading_int(value);
      failure_rank_ = r;
      if (r >= 0 && other_failed_.size() < kMaxEvents && std::find(other_failed_.begin(), other_failed_.end(), r) == other_failed_.end())
        other_failed_.push_back(r);
      if (r >= 0 && other_failures_.size() < kMaxEvents) {
        RootCause f;
        f.rank = r;
        if (size_t lr = value.find("local_rank:"); lr != std::string_view::npos) f.local_rank = leading_int(value.substr(lr + 11));
        f.index = failure_index_;
        failure_index_ = -1;
        f.time = std::move(failure_time_);
        f.host = std::move(failure_host_);
        failure_time_.clear();
        failure_host_.clear();
        other_failures_.push_back(std::move(f));
      }
    } else if (entry && key == "exitcode") {
      entry->exitcode = leading_int(value);
      entry->has_exitcode = true;
    } else if (entry && (key == "traceback" || key == "msg") && value.starts_with("Signal ")) {
      entry->signal = std::string(value.substr(0, 128));
    }
    return;
  }
  if (key == "rank") {
    current_.rank = leading_int(value);
    if (size_t lr = value.find("local_rank:"); lr != std::string_view::npos)
      current_.local_rank = leading_int(value.substr(lr + 11));
  } else if (key == "host") {
    current_.host = std::string(value.substr(0, 256));
  } else if (key == "time") {
    current_.time = std::string(value.substr(0, 64));
  } else if (key == "exitcode") {
    current_.exitcode = leading_int(value);
    current_.has_exitcode = true;
  } else if ((key == "traceback" || key == "msg") && value.starts_with("Signal ")) {
    current_.signal = std::string(value.substr(0, 128));
  }
}

// Where torchrun's root-cause section starts in `text`, and the length of its heading: since 1.10
// `Root Cause (first observed failure):`, in 1.9 a line `Root Cause:` (then `[0]:` and fields
// `time: ...`, `rank: 0 (local_rank: 0)`, `exitcode: ...`, `msg: "..."`, then `Other Failures:`).
static std::pair<size_t, size_t> root_cause_heading(std::string_view text) {
  // Each heading below starts with `Root Cause`: a line without it (nearly every line) has none.
  const size_t any = find_literal(text, "Root Cause");
  if (any == std::string_view::npos) return {std::string_view::npos, 0};
  if (size_t rc = find_literal(text, "Root Cause (first observed failure):", any); rc != std::string_view::npos) return {rc, 36};
  // Copied from a rendered page, the colon may come loose: `Root Cause (first observed failure) :`.
  if (size_t rc = find_literal(text, "Root Cause (first observed failure) :", any); rc != std::string_view::npos) return {rc, 37};
  size_t rc = find_literal(text, "Root Cause:", any);
  if (rc == std::string_view::npos) return {std::string_view::npos, 0};
  std::string_view after = trim(text.substr(rc + 11));
  if (!trim(text.substr(0, rc)).empty() && !after.starts_with("[")) return {std::string_view::npos, 0};
  if (after.empty() || after.starts_with("[")) return {rc, 11};
  return {std::string_view::npos, 0};
}

// The hex digits of `s`, lower-case, without leading zeros ("0" when none is left).
static std::string hex_digits(std::string_view s) {
  std::string hex;
  for (char c : s)
    if (std::isxdigit(static_cast<unsigned char>(c))) hex += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  size_t nz = hex.find_first_not_of('0');
  return nz == std::string::npos ? "0" : hex.substr(nz);
}

std::string nccl_bus_id(std::string_view pci) {
  // "0000:5d:00" names domain, bus and device; NCCL's id also holds the function digit.
  std::string hex = hex_digits(pci);
  return pci.find('.') == std::string_view::npos && hex != "0" ? hex + '0' : hex;
}

// The integer after `key` (" rank ", " cudaDev ") in `text`, -1 when absent.
static int int_after(std::string_view text, std::string_view key) {
  size_t at = text.find(key);
  return at == std::string_view::npos ? -1 : leading_int(text.substr(at + key.size()));
}

static std::optional<BusRank> parse_bus_rank(uint64_t line, std::string_view text) {
  size_t bus = find_literal(text, " busId ");
  if (bus == std::string_view::npos) return std::nullopt;
  size_t info = find_literal(text, " NCCL INFO ");
  if (info == std::string_view::npos || info > bus) return std::nullopt;
  BusRank b;
  b.line = line;
  std::string_view after = text.substr(info);
  b.rank = int_after(after, " rank ");
  b.nranks = int_after(after, " nranks ");
  b.cuda_dev = int_after(after, " cudaDev ");
  std::string_view id = text.substr(bus + 7);
  size_t end = 0;
  while (end < id.size() && std::isxdigit(static_cast<unsigned char>(id[end]))) ++end;
  if (b.rank < 0 || end == 0) return std::nullopt;
  b.bus = hex_digits(id.substr(0, end));
  if (size_t colon = text.find(':'); colon != std::string_view::npos && colon < info)
    b.host = std::string(trim(text.substr(0, colon)).substr(0, 256));
  return b;
}

int EventTracker::spawn_process_at(uint64_t line) const {
  // The marker heads the worker's traceback (the error re-raised in the parent follows it); the
  // `ProcessRaisedException:` line itself sits just above it.
  for (auto it = spawn_marks_.rbegin(); it != spawn_marks_.rend(); ++it)
    if (it->first <= line + 3 && line <= it->first + 400) return it->second;
  return -1;
}

void EventTracker::feed(uint64_t line, std::string_view text) {
  // torch/multiprocessing/spawn.py, ProcessContext.join (every release from 1.x).
  // A paste may end inside the marker (`-- Process 1 terminated with th`): it still names the
  // process.
  if (std::string_view t = trim(text); t.starts_with("-- Process ") && spawn_marks_.size() < kMaxEvents) {
    constexpr std::string_view kRest = " terminated with the following error:";
    std::string_view rest = t.substr(11);
    const int p = leading_int(rest);
    while (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest.front()))) rest.remove_prefix(1);
    const bool marker = rest.starts_with(kRest.substr(0, std::min(rest.size(), kRest.size()))) && rest.size() >= 11;
    if (p >= 0 && marker) spawn_marks_.emplace_back(line, p);
  }
  // The agent's `Sending process N closing signal SIGTERM` (recent torch: `the closing signal`),
  // behind a logger prefix: only the head of a line is searched, since every walked line passes
  // here. `closing signal SIGKILL` repeats the pids of workers that outlived the grace period;
  // pastes often cut the line after `closing`.
  if (size_t p = find_literal(text.substr(0, kSigtermHead), "Sending process ");
      p != std::string_view::npos && sigterm_pids_.size() < kMaxEvents) {
    std::string_view rest = text.substr(p + 16);
    size_t digits = 0;
    while (digits < rest.size() && digits < 9 && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
    std::string_view after = rest.substr(digits);
    if (after.starts_with(" the ")) after.remove_prefix(4);
    if (digits > 0 && after.starts_with(" closing") && after.find("SIGKILL") == std::string_view::npos)
      sigterm_pids_.push_back(std::stol(std::string(rest.substr(0, digits))));
  }
  // torch/distributed/elastic/agent/server/api.py, `Rendezvous complete for workers. Result:`.
  if (std::string_view t = trim(text); t.starts_with("global_ranks=[")) {
    global_ranks_.clear();
    for (size_t i = 14; i < t.size() && t[i] != ']' && global_ranks_.size() < kMaxEvents;) {
      while (i < t.size() && (t[i] == ' ' || t[i] == ',')) ++i;
      int r = leading_int(t.substr(i));
      if (r < 0) break;
      global_ranks_.push_back(r);
      while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
    }
    return;
  }
  if (bus_ranks_.size() < kMaxEvents)
    if (auto b = parse_bus_rank(line, text)) {
      bus_ranks_.push_back(std::move(*b));
      return;
    }
  // torchrun's summary table (torch/distributed/elastic/multiprocessing/errors/__init__.py).
  if (auto [rc, heading] = root_cause_heading(text); rc != std::string_view::npos) {
    table_ = Table::RootCause;
    current_ = RootCause{};
    current_.line = line;
    loose_lines_ = 0;
    // A table pasted flattened onto one line: `Root Cause (first observed failure): [0]: time :
    // 2024-08-17_13:24:04 host : server rank : 0 (local_rank: 0) exitcode : 1 (pid: 42) ...`.
    std::string_view rest = text.substr(rc + heading);
    if (size_t other = rest.find("Other Failures:"); other != std::string_view::npos) rest = rest.substr(0, other);
    std::vector<std::pair<size_t, std::string_view>> keys;
    for (std::string_view key : {"time", "host", "rank", "exitcode", "error_file", "traceback", "msg"}) {
      for (size_t at = rest.find(key); at != std::string_view::npos; at = rest.find(key, at + 1)) {
        if (at > 0 && rest[at - 1] != ' ') continue;
        size_t j = at + key.size();
        while (j < rest.size() && rest[j] == ' ') ++j;
        if (j < rest.size() && rest[j] == ':') {
          keys.emplace_back(at, key);
          break;
        }
      }
    }
    std::sort(keys.begin(), keys.end());
    for (size_t i = 0; i < keys.size(); ++i) {
      size_t colon = rest.find(':', keys[i].first + keys[i].second.size());
      size_t end = i + 1 < keys.size() ? keys[i + 1].first : rest.size();
      if (colon >= end) continue;
      table_field(keys[i].second, trim(rest.substr(colon + 1, end - colon - 1)));
    }
    if (current_.rank >= 0) {
      if (root_causes_.size() < kMaxEvents) root_causes_.push_back(current_);
      current_ = RootCause{};
      table_ = Table::None;
    }
    return;
  }
  if (table_ == Table::None && (trim(text) == "Failures:" || trim(text) == "Other Failures:")) {
    table_ = Table::Failures;
    failure_rank_ = -1;
    failure_index_ = -1;
    failures_line_ = line;
    return;
  }
  if (table_ != Table::None) {
    std::string_view t = trim(text);
    // Inside a traceback the table copied (`  traceback : Traceback ...`): its frames are indented
    // deeper than the fields and its exception line sits at the field indent, but is no field.
    if (in_table_traceback_) {
      size_t colon = t.find(':');
      bool field = colon != std::string_view::npos && is_table_key(trim(t.substr(0, colon)));
      if (!t.empty() && (text.starts_with("  ")) && !field) {
        table_tracebacks_.back().last_line = line;
        table_tracebacks_.back().last_text = std::string(t.substr(0, 256));
        return;
      }
      in_table_traceback_ = false;
    }
    if (t.starts_with("Failures:") || t.starts_with("Other Failures:")) {
      table_ = Table::Failures;
      failure_rank_ = -1;
      failure_index_ = -1;
      failures_line_ = line;
      return;
    }
    // The table copied from a rendered page loses its key column and spacing:
    // `rank2 (local rank: 2)exitcode: -9 (pid: 36071)error file: <N/A>`.
    if (table_ == Table::RootCause && t.starts_with("rank") && t.size() > 4 && std::isdigit(static_cast<unsigned char>(t[4]))) {
      current_.rank = leading_int(t.substr(4));
      for (std::string_view key : {"local rank:", "local_rank:"})
        if (size_t lr = t.find(key); lr != std::string_view::npos) current_.local_rank = leading_int(trim(t.substr(lr + key.size())));
      if (size_t ec = t.find("exitcode:"); ec != std::string_view::npos) {
        current_.exitcode = leading_int(trim(t.substr(ec + 9)));
        current_.has_exitcode = true;
      }
      return;
    }
    size_t colon = t.find(':');
    if (!t.empty() && t[0] != '[' && t[0] != '=' && t[0] != '-' && colon != std::string_view::npos && colon < 16) {
      std::string_view key = trim(t.substr(0, colon)), value = unquoted(trim(t.substr(colon + 1)));
      table_field(key, value);
      const int rank = table_ == Table::Failures ? failure_rank_ : current_.rank;
      if (key == "traceback" && value.starts_with("Traceback (most recent call last)") &&
          table_tracebacks_.size() < kMaxEvents) {
        table_tracebacks_.push_back({line, line, rank, ""});
        in_table_traceback_ = true;
      } else if ((key == "traceback" || key == "msg") && value.starts_with("Signal ") && table_tracebacks_.size() < kMaxEvents) {
        // A worker killed by a signal has no traceback: the entry's one line stands for it.
        table_tracebacks_.push_back({line, line, rank, std::string(value.substr(0, 256))});
      }
      return;
    }
    if (table_ == Table::Failures && t.size() >= 3 && t[0] == '[' && t.back() == ':' && t[t.size() - 2] == ']')
      failure_index_ = leading_int(t.substr(1));
    if (t.starts_with("[") || t.starts_with("<NO_OTHER_FAILURES>")) return;
    if (t.starts_with("====") || t.empty()) {
      if (table_ == Table::RootCause && current_.rank >= 0) {
        if (root_causes_.size() < kMaxEvents) root_causes_.push_back(current_);
        current_ = RootCause{};
        table_ = Table::None;
      }
      return;
    }
    // A copied table whose columns came apart puts keys and values on lines of their own
    // (`time`, `host`, `2023-09-14 01:45:50`, `ding-X10DRG`): a few are let through before the
    // rank shows up.
    if (table_ == Table::RootCause && current_.rank < 0 && ++loose_lines_ <= kLooseTableLines) return;
    if (table_ == Table::RootCause && current_.rank >= 0 && root_causes_.size() < kMaxEvents)
      root_causes_.push_back(current_);
    table_ = Table::None;
  }

  // The DataLoader copies its worker's traceback into the message it re-raises: the worker's
  // own exception, the one that really failed, ends it.
  const bool worker_original = text.starts_with("Original Traceback (most recent call last):");
  if (worker_original) pending_chain_ = "dataloader-worker";
  if (worker_original || text.starts_with("Traceback (most recent call last):")) {
    state_ = State::Frames;
    frames_ = 0;
    last_frame_.clear();
    stack_.clear();
    traceback_line_ = line;
    return;
  }
  if (text.starts_with("The above exception was the direct cause of the following exception")) {
    pending_chain_ = "direct-cause";
    return;
  }
  if (text.starts_with("During handling of the above exception, another exception occurred")) {
    pending_chain_ = "during-handling";
    return;
  }
  if (size_t p = find_literal(text, "terminate called after throwing an instance of '"); p != std::string_view::npos) {
    std::string_view rest = text.substr(p + 48);
    terminate_type_ = std::string(rest.substr(0, std::min(rest.find('\''), size_t{200})));
    terminate_line_ = line;
    state_ = State::AfterTerminate;
    return;
  }
  if (state_ == State::AfterTerminate) {
    std::string_view t = trim(text);
    if (t.starts_with("what():")) {
      if (exceptions_.size() < kMaxEvents) {
        ExceptionEvent ev;
        // The event spans both lines: the type is on the first, the message (which fingerprints
        // read) on the `what():` line.
        ev.traceback_line = terminate_line_;
        ev.line = line;
        ev.type = terminate_type_;
        ev.message = std::string(trim(t.substr(7)).substr(0, kMaxMessage));
        ev.from_terminate = true;
        exceptions_.push_back(std::move(ev));
      }
      state_ = State::Idle;
      return;
    }
    if (!t.empty()) state_ = State::Idle;
  }
  if (state_ == State::Frames) {
    // Any indentation: stripping `[rank1]:` also takes one of the two spaces Python printed, and
    // some collectors trim lines.
    if (auto frame = parse_frame_line(text)) {
      ++frames_;
      last_frame_ = std::string(trim(text).substr(0, 300));
      frame->log_line = line;
      if (stack_.size() == kStackHead + kStackTail) stack_.erase(stack_.begin() + kStackHead);
      stack_.push_back(std::move(*frame));
      after_frame_ = true;
      return;
    }
    const bool source_expected = std::exchange(after_frame_, false);
    if (source_expected && !stack_.empty() && !text.empty() && !split_exception_line(text, true))
      stack_.back().code = std::string(trim(text).substr(0, kMaxFrameCode));
    if (text.starts_with(" ") || text.starts_with("\t") || text.empty()) return;  // source lines, carets
    // A frame line a paste cut short (`File "/workspace/trai`): still inside the traceback.
    if (text.starts_with("File \"")) {
      last_frame_ = std::string(text.substr(0, 300));
      return;
    }
    // A collector that trims lines leaves a frame's source line unindented: right after a frame,
    // a line that is not an exception is that source line.
    if (source_expected && !split_exception_line(text, true)) return;
    state_ = State::Idle;
    exception_line(line, text);
    return;
  }
}

int missing_worker_index(std::vector<long> pids) {
  std::sort(pids.begin(), pids.end());
  pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
  if (pids.size() < 2 || pids.back() - pids.front() != static_cast<long>(pids.size())) return -1;
  for (size_t i = 1; i < pids.size(); ++i)
    if (pids[i] != pids[i - 1] + 1) return static_cast<int>(i);
  return -1;
}

std::string describe(const ExceptionEvent& ev, size_t max_message) {
  if (ev.cut_off)
    return "a traceback cut off before its exception line" +
           (ev.last_frame.empty() ? std::string() : " (last frame: " + ev.last_frame.substr(0, max_message) + ")");
  return ev.type + (ev.message.empty() ? "" : ": " + ev.message.substr(0, max_message));
}

void EventTracker::finish() {
  if (state_ == State::Frames && frames_ > 0 && !stack_.empty() && exceptions_.size() < kMaxEvents) {
    ExceptionEvent ev;
    ev.line = stack_.back().log_line;
    ev.traceback_line = traceback_line_;
    ev.chained = std::move(pending_chain_);
    ev.last_frame = std::move(last_frame_);
    ev.frames = frames_;
    ev.stack = std::move(stack_);
    ev.cut_off = true;
    exceptions_.push_back(std::move(ev));
    stack_.clear();
  }
  if (table_ == Table::RootCause && current_.rank >= 0 && root_causes_.size() < kMaxEvents) root_causes_.push_back(current_);
  table_ = Table::None;
  in_table_traceback_ = false;
  state_ = State::Idle;
  infer_cut_root_cause();
}

// torchrun numbers a summary's failures `[0]:`, `[1]:`, ... in the order of its workers' local
// ranks and moves the root cause's entry out of `Failures:` into its own section, keeping its
// number. A paste cut off before that section still shows which number is missing: when exactly
// one is, and the entries around it pin its local rank (`[1]:` is local rank 1, so `[0]:` was
// local rank 0; `[2]:` and `[4]:` are local ranks 2 and 4, so `[3]:` was 3), that entry was the
// root cause. An entry whose rank and local rank differ by a node offset keeps that offset.
void EventTracker::infer_cut_root_cause() {
  if (!root_causes_.empty() || other_failures_.empty()) return;
  std::vector<const RootCause*> listed;
  for (const auto& f : other_failures_) {
    if (f.index < 0 || f.local_rank < 0) return;
    listed.push_back(&f);
  }
  std::sort(listed.begin(), listed.end(), [](auto* a, auto* b) { return a->index < b->index; });
  int missing = -1;
  const RootCause* before = nullptr;
  const RootCause* after = nullptr;
  for (size_t i = 0; i < listed.size(); ++i) {
    const int expected = i == 0 ? 0 : listed[i - 1]->index + 1;
    if (listed[i]->index == expected) continue;
    if (missing >= 0 || listed[i]->index != expected + 1) return;  // more than one left out
    missing = expected;
    before = i ? listed[i - 1] : nullptr;
    after = listed[i];
  }
  if (missing < 0) return;  // none left out: the table may go on past the paste's end
  int local = after->local_rank - 1;
  if (local < 0 || (before && before->local_rank != local - 1)) return;
  if (before && before->rank - before->local_rank != after->rank - after->local_rank) return;
  RootCause root;
  root.line = failures_line_;
  root.rank = after->rank - 1;
  root.local_rank = local;
  root.host = before && before->host != after->host ? "" : after->host;
  root.index = missing;
  root.inferred = true;
  root_causes_.push_back(std::move(root));
}

}  // namespace denpex::logs
