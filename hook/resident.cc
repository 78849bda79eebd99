#include "hook/resident.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "gate/user_config_files.h"
#include "hook/resident_client.h"

namespace causegate::hook {

ResidentSettings ReadResidentSettings() {
  ResidentSettings settings;
  const std::string path = gate::UserConfigPath();
  if (path.empty()) return settings;
  gate::ConfigFile file;
  bool present = false;
  if (!gate::ReadConfigFile(path, &file, &present).ok() || !present) return settings;
  settings.resident = file.values.resident.value_or(false);
  settings.idle_seconds = file.values.resident_idle_seconds.value_or(kDefaultResidentIdleSeconds);
  return settings;
}

std::string ResidentSwitch() {
  const char* value = std::getenv(kResidentEnv);
  if (value == nullptr) return "";
  const std::string text = value;
  return text == "0" || text == "1" ? text : "";
}

std::string SelfBinary() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "";
}

bool ResidentClient::Answered(const std::string& input) {
  if (ResidentSwitch() == "0" || !options_.daemon.url.empty() || options_.argv.empty()) return false;
  // causegate-hook asked already (cli/hook_client_main.cc): what it got.
  if (const char* tried = std::getenv(kResidentTriedEnv); tried != nullptr) {
    const std::string reply = tried;
    ::unsetenv(kResidentTriedEnv);
    if (reply == "none" || reply == "stale") {
      may_start_ = true;
    } else if (reply.rfind("declined:", 0) == 0) {
      spdlog::debug("resident daemon: declined: {}; judging locally", reply.substr(9));
    } else {
      spdlog::warn("resident daemon: {}; judging locally", reply.substr(reply.find(':') + 1));
    }
    return false;
  }
  std::string folder;
  if (Status s = ResidentFolder(&folder); !s.ok()) {
    // Said only when the user asked for the resident gate (StartIfWanted).
    may_start_ = true;
    return false;
  }
  ResidentRequest request;
  request.fingerprint = ResidentFingerprint(options_.version, SelfBinary());
  request.resident = ResidentSwitch();
  const char* log = std::getenv("CAUSEGATE_LOG");
  request.log = log == nullptr ? "" : log;
  const char* plugin_root = std::getenv("CLAUDE_PLUGIN_ROOT");
  request.plugin_root = plugin_root == nullptr ? "" : plugin_root;
  request.stderr_id = FileIdOf(STDERR_FILENO);
  request.args = options_.argv;
  request.input = input;
  const ResidentResult result = AskResident(ResidentSocketPath(folder), request, ResidentHookBounds());
  switch (result.reply) {
    case ResidentReply::kAnswer:
      std::fwrite(result.out.data(), 1, result.out.size(), stdout);
      std::fflush(stdout);
      std::fwrite(result.err.data(), 1, result.err.size(), stderr);
      std::fflush(stderr);
      return true;
    case ResidentReply::kNoDaemon:
      may_start_ = true;
      return false;
    case ResidentReply::kStale:
      spdlog::debug("resident daemon: built or started for another binary or environment: told to exit; judging locally");
      may_start_ = true;
      return false;
    case ResidentReply::kDeclined:
      spdlog::debug("resident daemon: declined: {}; judging locally", result.why);
      return false;
    case ResidentReply::kStatus:
    case ResidentReply::kFailed:
      spdlog::warn("resident daemon: {}; judging locally", result.why);
      return false;
  }
  return false;
}

void ResidentClient::StartIfWanted() {
  if (!may_start_) return;
  const std::string on = ResidentSwitch();
  if (on == "0" || (on.empty() && !ReadResidentSettings().resident)) return;
  std::string folder;
  if (Status s = ResidentFolder(&folder); !s.ok()) {
    spdlog::warn("resident gate: {}: not started", s.message());
    return;
  }
  if (Status s = StartResidentDaemon(SelfBinary(), folder); !s.ok()) {
    spdlog::warn("resident gate: {}: not started", s.message());
  }
}

Status StartResidentDaemon(const std::string& binary, const std::string& folder) {
  if (binary.empty()) return Status::Error("cannot find this binary (/proc/self/exe)");
  const std::string log = ResidentLogPath(folder);
  // Everything the child needs is made before fork: after it, only calls
  // that are safe in a child of a process that may hold locks.
  const char* argv[] = {binary.c_str(), "resident-daemon", nullptr};
  const pid_t child = ::fork();
  if (child < 0) return Status::Error(std::string("fork: ") + std::strerror(errno));
  if (child == 0) {
    ::setsid();
    if (::fork() != 0) ::_exit(0);  // the daemon is the grandchild: no terminal, not our child
    const int null_fd = ::open("/dev/null", O_RDONLY);
    const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (null_fd < 0 || log_fd < 0) ::_exit(127);
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(log_fd, STDOUT_FILENO);
    ::dup2(log_fd, STDERR_FILENO);
    // The agent waits for our stdout and stderr to close: no copy of them,
    // nor of anything else of ours, may live on in the daemon.
    for (int fd = 3; fd < 1024; ++fd) ::close(fd);
    if (::chdir("/") != 0) ::_exit(127);
    ::execv(binary.c_str(), const_cast<char* const*>(argv));
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return Status::Ok();
}

}  // namespace causegate::hook
