// `causegate doctor`: one line per agent in use saying whether causegate
// is registered and whether the agent will really run it (install/doctor.h),
// exit 1 when a registered hook will not run. This file supplies what the
// checks need from outside the files: the environment, `claude --version`
// (run with a deadline, so a wedged CLI cannot hang doctor) and the daemon
// probe (hook/daemon_client.h, GET /healthz).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "cli/commands.h"
#include "hook/daemon_client.h"
#include "install/doctor.h"

extern char** environ;

namespace causegate::cli {
namespace {

constexpr int kVersionTimeoutMs = 5000;
constexpr int kDaemonTimeoutMs = 1000;

std::string FindOnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t colon = dirs.find(':', start);
    const std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return "";
}

// The first line program prints for --version, within the deadline.
std::optional<std::string> VersionOf(const std::string& program) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  std::string arg0 = program;
  std::string arg1 = "--version";
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (spawned != 0) {
    close(fds[0]);
    return std::nullopt;
  }
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kVersionTimeoutMs);
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fds[0], POLLIN, 0};
    if (left.count() <= 0 || poll(&p, 1, static_cast<int>(left.count())) <= 0) {
      kill(pid, SIGKILL);
      break;
    }
    char buf[512];
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0 || out.size() > 4096) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || out.empty()) return std::nullopt;
  return out.substr(0, out.find('\n'));
}

class RealEnv : public install::DoctorEnv {
 public:
  std::optional<std::string> Getenv(const std::string& name) const override {
    const char* v = std::getenv(name.c_str());
    return v != nullptr ? std::optional<std::string>(v) : std::nullopt;
  }
  std::optional<std::string> ClaudeVersion() override {
    const std::string claude = FindOnPath("claude");
    return claude.empty() ? std::nullopt : VersionOf(claude);
  }
  Status DaemonHealth(const std::string& base_url) override {
    hook::DaemonOptions options;
    options.url = base_url;
    options.timeout_ms = kDaemonTimeoutMs;
    std::string body;
    return hook::ProbeDaemon(options, &body);
  }
};

void AddDoctorCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("doctor",
                                 "Check that each agent will really run causegate: registered, trusted, "
                                 "binary present, daemon up");
  auto home = std::make_shared<std::string>();
  cmd->add_option("--home", *home, "The home folder whose agents are checked (default: $HOME)");
  cmd->footer(
      "One line per agent whose settings folder exists under the home folder, and per project settings file at the git root "
      "of the working folder that registers causegate.\nExit status: 0 every registered hook will run, 1 a registered hook "
      "will not run (the line says why and how to fix it), 2 a usage error.");
  cmd->callback([&common, home] {
    install::Places places = install::PlacesFromEnvironment(*home);
    places.project = install::ProjectRoot(places.project);
    if (places.home.empty()) {
      std::fprintf(stderr, "causegate doctor: HOME is not set; use --home DIR\n");
      common.exit_code = 2;
      return;
    }
    RealEnv env;
    const std::vector<install::DoctorLine> lines = install::RunDoctor(places, env);
    if (lines.empty()) {
      std::printf("no agent settings folder under %s (.claude, .codex, .gemini, .cursor, .copilot): nothing to check\n",
                  places.home.c_str());
    }
    for (const install::DoctorLine& line : lines) std::printf("%s\n", line.Text().c_str());
    common.exit_code = install::DoctorExitCode(lines);
  });
}

const Registrar kRegister(55, AddDoctorCommand);

}  // namespace
}  // namespace causegate::cli
