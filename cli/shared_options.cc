#include "cli/shared_options.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>

namespace causegate::cli {

CLI::Validator WholeNumber(long long lo, long long hi) {
  const std::string range = hi == std::numeric_limits<int>::max() || hi == std::numeric_limits<long long>::max()
                                ? std::to_string(lo) + " or more"
                                : "from " + std::to_string(lo) + " to " + std::to_string(hi);
  CLI::Validator v(
      [lo, hi, range](std::string& input) -> std::string {
        long long n = 0;
        std::size_t used = 0;
        try {
          n = std::stoll(input, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != input.size() || n < lo || n > hi) {
          return input + " is not a whole number " + range;
        }
        return std::string();
      },
      "");
  return v;
}

CLI::Option* AddMaxBlocksOption(CLI::App* cmd, int* value, const std::string& help) {
  return cmd->add_option("--max-blocks", *value, help + " (0 to " + std::to_string(kMaxBlocksLimit) + ")")
      ->type_name("N")
      ->check(WholeNumber(0, kMaxBlocksLimit));
}

bool UseColor(const std::string& mode, int fd) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  auto set = [](const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0';
  };
  if (set("NO_COLOR")) return false;
  if (set("CLICOLOR_FORCE") && std::strcmp(std::getenv("CLICOLOR_FORCE"), "0") != 0) return true;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return isatty(fd) != 0;
}

StdinTranscript::~StdinTranscript() {
  if (!path_.empty()) ::unlink(path_.c_str());
}

Status StdinTranscript::Read() {
  std::error_code ec;
  std::string dir = std::filesystem::temp_directory_path(ec).string();
  if (ec || dir.empty()) dir = "/tmp";
  std::string name = dir + "/causegate-stdin-XXXXXX.jsonl";
  const int fd = ::mkstemps(name.data(), 6);
  if (fd < 0) return Status::Error(name + ": " + std::strerror(errno));
  path_ = name;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const Status s = Status::Error(std::string("stdin: ") + std::strerror(errno));
      ::close(fd);
      return s;
    }
    if (n == 0) break;
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(fd, buf + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) {
        const Status s = Status::Error(path_ + ": " + std::strerror(errno));
        ::close(fd);
        return s;
      }
      done += w;
    }
  }
  if (::close(fd) != 0) return Status::Error(path_ + ": " + std::strerror(errno));
  return Status::Ok();
}

}  // namespace causegate::cli
