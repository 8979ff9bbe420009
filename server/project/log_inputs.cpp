#include "denpex/server/log_inputs.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace denpex::project {
namespace fs = std::filesystem;

bool collect_log_inputs(const std::string& arg, std::vector<LogInput>& out, std::string& error, bool allow_empty) {
  if (arg == "-") {
    out.push_back({"-", 0});
    return true;
  }
  std::error_code ec;
  auto st = fs::status(arg, ec);
  if (ec || !fs::exists(st)) {
    error = "cannot read '" + arg + "': no such file or directory";
    return false;
  }
  if (fs::is_directory(st)) {
    std::vector<LogInput> files;
    for (auto it = fs::recursive_directory_iterator(arg, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      std::string name = it->path().filename().string();
      if (name.starts_with(".")) continue;
      files.push_back({it->path().string(), static_cast<uint64_t>(it->file_size(ec))});
    }
    if (ec) {
      error = "cannot read directory '" + arg + "': " + ec.message();
      return false;
    }
    if (files.empty() && !allow_empty) {
      // Most likely the wrong directory: saying "no failure found" would be a false all-clear.
      error = "no log files in directory '" + arg + "'";
      return false;
    }
    std::sort(files.begin(), files.end(), [](const LogInput& a, const LogInput& b) { return a.path < b.path; });
    out.insert(out.end(), files.begin(), files.end());
    return true;
  }
  out.push_back({arg, static_cast<uint64_t>(fs::file_size(arg, ec))});
  return true;
}

std::string feed_log_file(logs::Diagnoser& diagnoser, const std::string& in, const std::string& name,
                          std::vector<char>& buf, const std::function<void(uint64_t)>& progress) {
  int fd = in == "-" ? STDIN_FILENO : ::open(in.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "cannot open '" + in + "': " + std::strerror(errno);
  uint32_t id = diagnoser.open(name);
  uint64_t done = 0;
  std::string error;
  // A regular file that fits the buffer is read whole and given at once (feed_last): diagnosed
  // where it lies, with no copy held for paste repair. Anything else streams.
  struct stat st {};
  const bool whole = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) < buf.size();
  size_t filled = 0;
  while (true) {
    char* at = buf.data() + (whole ? filled : 0);
    const size_t room = buf.size() - (whole ? filled : 0);
    if (room == 0) {  // the file grew while read: stream what is held
      diagnoser.feed(id, std::string_view(buf.data(), filled));
      filled = 0;
      continue;
    }
    ssize_t n = ::read(fd, at, room);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = "cannot read '" + in + "': " + std::strerror(errno);
      break;
    }
    if (n == 0) break;
    done += static_cast<uint64_t>(n);
    if (whole) {
      filled += static_cast<size_t>(n);
    } else {
      diagnoser.feed(id, std::string_view(buf.data(), static_cast<size_t>(n)));
    }
    if (progress) progress(done);
  }
  if (fd != STDIN_FILENO) ::close(fd);
  diagnoser.feed_last(id, std::string_view(buf.data(), filled));
  return error;
}

}  // namespace denpex::project
