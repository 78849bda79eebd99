#include "server/process_stats.h"

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <vector>

namespace causegate::server {
namespace {

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  *out = text.str();
  return true;
}

// The fields of /proc/self/stat after the command name, which is in
// parentheses and may hold spaces: fields[0] is field 3 (state).
std::vector<std::string> StatFields(const std::string& stat) {
  std::vector<std::string> fields;
  const std::size_t close = stat.rfind(')');
  if (close == std::string::npos) return fields;
  std::istringstream in(stat.substr(close + 1));
  for (std::string f; in >> f;) fields.push_back(f);
  return fields;
}

bool ToDouble(const std::string& text, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end == nullptr || *end != '\0') return false;
  *out = v;
  return true;
}

}  // namespace

ProcessSample ReadProcessSample(const std::string& proc_root) {
  ProcessSample out;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
  std::string text;
  if (ReadFile(proc_root + "/self/stat", &text)) {
    const std::vector<std::string> f = StatFields(text);
    // Fields 14 utime, 15 stime, 22 starttime, 23 vsize (1-based in proc(5)).
    double utime = 0, stime = 0, start = 0, vsize = 0;
    if (f.size() > 20 && ToDouble(f[11], &utime) && ToDouble(f[12], &stime) && ticks > 0) {
      out.cpu_seconds = (utime + stime) / ticks;
    }
    if (f.size() > 20 && ToDouble(f[20], &vsize)) out.virtual_bytes = vsize;
    std::string boot;
    if (f.size() > 19 && ToDouble(f[19], &start) && ticks > 0 && ReadFile(proc_root + "/stat", &boot)) {
      std::istringstream in(boot);
      for (std::string line; std::getline(in, line);) {
        double btime = 0;
        if (line.rfind("btime ", 0) == 0 && ToDouble(line.substr(6), &btime)) {
          out.start_time_seconds = btime + start / ticks;
        }
      }
    }
  }
  if (ReadFile(proc_root + "/self/statm", &text)) {
    std::istringstream in(text);
    double size = 0, resident = 0;
    if (in >> size >> resident && page > 0) out.resident_bytes = resident * page;
  }
  std::error_code ec;
  std::filesystem::directory_iterator it(proc_root + "/self/fd", ec);
  if (!ec) {
    double n = 0;
    for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      ++n;
    }
    // The iterator's own descriptor is one of them while it is open.
    if (!ec) out.open_fds = proc_root == "/proc" && n > 0 ? n - 1 : n;
  }
  struct rlimit limit {};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    out.max_fds = static_cast<double>(limit.rlim_cur);
  }
  return out;
}

}  // namespace causegate::server
