// The resident gate's commands: `causegate status` (is a daemon running,
// its pid, uptime and verdicts served; --stop tells it to exit) and the
// hidden `causegate resident-daemon`, which `causegate hook` starts in the
// background (hook/resident.h). The daemon reads each client's command
// line with the hook's own options (cli/hook_args.h).
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/hook_args.h"
#include "gate/user_config_files.h"
#include "hook/resident.h"
#include "hook/resident_client.h"
#include "hook/resident_daemon.h"

namespace causegate::cli {
namespace {

// A request's command line parsed as `causegate [--rules P] hook ...` is.
Status ParseHookRequest(const hook::ResidentRequest& request, hook::HookCommandOptions* out) {
  CLI::App app;
  std::string rules_dir;
  app.add_option("--rules", rules_dir)->check(CLI::ExistingPath);
  app.require_subcommand(1);
  CLI::App* cmd = app.add_subcommand("hook");
  HookArgs args;
  DefineHookOptions(cmd, &args);
  if (request.args.empty()) return Status::Error("no command line");
  std::vector<const char*> argv;
  for (const std::string& arg : request.args) argv.push_back(arg.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    return Status::Error(std::string("command line: ") + e.what());
  }
  // The daemon's folder is not the client's: a relative path would name
  // another file (or none). Such a stop is the client's to judge.
  if (!rules_dir.empty() && rules_dir[0] != '/') return Status::Error("a relative --rules path");
  SettleHookOptions(*cmd, &args, rules_dir, request.plugin_root, nullptr);
  *out = *args.options;
  return Status::Ok();
}

void AddResidentDaemonCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("resident-daemon", "The resident gate's daemon (started by `causegate hook`)");
  cmd->group("");  // not in --help: people run `causegate status`
  cmd->callback([&common] {
    hook::ResidentDaemonOptions options;
    options.version = CAUSEGATE_VERSION;
    options.parse = ParseHookRequest;
    common.exit_code = hook::RunResidentDaemon(options);
  });
}

std::string Uptime(long long seconds) {
  if (seconds < 60) return std::to_string(seconds) + " s";
  if (seconds < 3600) return std::to_string(seconds / 60) + " min " + std::to_string(seconds % 60) + " s";
  return std::to_string(seconds / 3600) + " h " + std::to_string(seconds % 3600 / 60) + " min";
}

// "key=value" out of the status line.
std::string Field(const std::string& line, const std::string& key) {
  const std::size_t at = (" " + line).find(" " + key + "=");
  if (at == std::string::npos) return "";
  const std::size_t start = at + key.size() + 1;
  return line.substr(start, line.find(' ', start) - start);
}

void AddStatusCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("status", "Whether the resident gate's daemon runs: its pid, uptime, verdicts served");
  auto stop = std::make_shared<bool>(false);
  cmd->add_flag("--stop", *stop, "Tell the daemon to exit (the next stop starts it again if the gate is resident)");
  cmd->footer("Exit status: 0 a daemon runs (or was stopped), 1 none runs, 2 its folder is unsafe.");
  cmd->callback([&common, stop] {
    const hook::ResidentSettings settings = hook::ReadResidentSettings();
    const std::string env = hook::ResidentSwitch();
    std::printf("resident gate: %s (%s)\n", env == "0" ? "off" : env == "1" || settings.resident ? "on" : "off",
                !env.empty() ? (std::string(hook::kResidentEnv) + "=" + env).c_str()
                             : ("\"resident\" in " + gate::UserConfigPath()).c_str());
    std::string folder;
    if (Status s = hook::ResidentFolder(&folder); !s.ok()) {
      std::printf("daemon: none can run: %s\n", s.message().c_str());
      common.exit_code = 2;
      return;
    }
    hook::ResidentRequest request;
    request.op = *stop ? "exit" : "status";
    const std::string socket = hook::ResidentSocketPath(folder);
    const hook::ResidentResult result = hook::AskResident(socket, request, hook::ResidentBounds());
    if (*stop && result.reply == hook::ResidentReply::kDeclined) {
      std::printf("daemon: told to exit\n");
      return;
    }
    if (result.reply != hook::ResidentReply::kStatus) {
      std::printf("daemon: not running (%s)\n", result.why.c_str());
      common.exit_code = 1;
      return;
    }
    const std::string& line = result.why;
    std::printf("daemon: running, pid %s, up %s, %s verdicts served\n", Field(line, "pid").c_str(),
                Uptime(std::atoll(Field(line, "uptime_s").c_str())).c_str(), Field(line, "verdicts").c_str());
    std::printf("socket: %s\nlog: %s\nidle exit after: %d s\n", socket.c_str(), hook::ResidentLogPath(folder).c_str(),
                settings.idle_seconds);
    if (Field(line, "fingerprint") != hook::ResidentFingerprint(CAUSEGATE_VERSION, hook::SelfBinary())) {
      std::printf("stale: started from another binary or environment; the next stop replaces it\n");
    }
  });
}

const Registrar kRegisterStatus(75, AddStatusCommand);
const Registrar kRegisterDaemon(76, AddResidentDaemonCommand);

}  // namespace
}  // namespace causegate::cli
