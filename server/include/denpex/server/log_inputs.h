#pragma once
// Reading logs from disk into the diagnoser, as `diagnose` and `triage` both do: which files a
// path stands for, and streaming one file in bounded pieces (never the whole file in memory).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "denpex/logs/diagnoser.h"

namespace denpex::project {

struct LogInput {
  std::string path;  // "-" for stdin
  uint64_t size = 0;
};

// The files `path` stands for: itself, or every regular file under a directory (recursively,
// hidden files skipped, sorted). False with `error` set when it does not exist or cannot be
// listed; a directory without files is an error too (most likely the wrong directory), unless
// `allow_empty`.
bool collect_log_inputs(const std::string& path, std::vector<LogInput>& out, std::string& error,
                        bool allow_empty = false);

// Streams `in` (a path, or "-" for stdin) into `diagnoser` as input `name` through `buf`, calling
// `progress` with the bytes read so far. Returns an error message, empty on success.
std::string feed_log_file(logs::Diagnoser& diagnoser, const std::string& in, const std::string& name,
                          std::vector<char>& buf, const std::function<void(uint64_t)>& progress = {});

}  // namespace denpex::project
