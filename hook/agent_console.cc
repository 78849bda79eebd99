#include "hook/agent_console.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

#include "hook/resident_wire.h"

namespace causegate::hook {
namespace {

// The hook is the agent's child, or a shell's the agent started; a node
// wrapper may sit above the native binary. A few levels are enough.
constexpr int kMaxAncestors = 4;

struct Process {
  pid_t pid = 0;
  pid_t parent = 0;
  std::vector<std::string> args;
};

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

bool ReadProcess(pid_t pid, Process* out) {
  const std::string dir = "/proc/" + std::to_string(pid);
  const std::string stat = ReadWhole(dir + "/stat");
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses.
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return false;
  int parent = 0;
  if (std::sscanf(stat.c_str() + close + 1, " %*c %d", &parent) != 1) return false;
  out->pid = pid;
  out->parent = parent;
  out->args.clear();
  const std::string cmdline = ReadWhole(dir + "/cmdline");
  for (size_t start = 0; start < cmdline.size();) {
    const size_t end = cmdline.find('\0', start);
    out->args.push_back(cmdline.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return true;
}

std::string_view BaseName(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool HasArg(const Process& p, std::initializer_list<std::string_view> any) {
  for (const std::string& arg : p.args) {
    for (std::string_view a : any) {
      if (arg == a) return true;
    }
  }
  return false;
}

enum class AgentRun { kNone, kInteractive, kHeadless };

// The agent is named by the program or, behind node, by its script.
AgentRun AgentRunOf(const Process& p) {
  for (size_t i = 0; i < p.args.size() && i < 2; ++i) {
    const std::string_view name = BaseName(p.args[i]);
    if (name == "codex") return HasArg(p, {"exec"}) ? AgentRun::kHeadless : AgentRun::kInteractive;
    if (name == "claude") return HasArg(p, {"-p", "--print"}) ? AgentRun::kHeadless : AgentRun::kInteractive;
    if (name == "copilot") return HasArg(p, {"-p", "--prompt"}) ? AgentRun::kHeadless : AgentRun::kInteractive;
  }
  return AgentRun::kNone;
}

bool SameFile(const std::string& file_id, const std::string& path) {
  struct stat b {};
  return !file_id.empty() && stat(path.c_str(), &b) == 0 &&
         file_id == std::to_string(static_cast<unsigned long long>(b.st_dev)) + ":" +
                        std::to_string(static_cast<unsigned long long>(b.st_ino));
}

// Walks up from pid (the hook's parent) to the agent.
bool WarnFrom(pid_t pid, const std::string& stderr_id, std::string_view message) {
  Process p;
  for (int level = 0; level < kMaxAncestors && pid > 1 && ReadProcess(pid, &p); ++level, pid = p.parent) {
    const AgentRun run = AgentRunOf(p);
    if (run == AgentRun::kNone) continue;
    if (run == AgentRun::kInteractive) return false;
    const std::string target = "/proc/" + std::to_string(p.pid) + "/fd/2";
    if (SameFile(stderr_id, target)) return false;  // the agent shows our stderr already
    // Non-blocking: a full pipe nobody reads must not hold up the stop.
    const int fd = open(target.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    std::string line(message);
    line.push_back('\n');
    const bool wrote = write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
    close(fd);
    return wrote;
  }
  return false;
}

}  // namespace

bool WarnHeadlessAgentUser(std::string_view message) {
  return WarnFrom(getppid(), FileIdOf(STDERR_FILENO), message);
}

bool WarnHeadlessAgentUserAbove(pid_t client, const std::string& stderr_id, std::string_view message) {
  Process p;
  if (client <= 1 || !ReadProcess(client, &p)) return false;
  return WarnFrom(p.parent, stderr_id, message);
}

}  // namespace causegate::hook
