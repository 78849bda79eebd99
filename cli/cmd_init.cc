// `causegate init`: registers causegate as each agent's hook in one step.
// Plans every agent's edit first (install/init.h) and writes only when all
// of them can be made, so a settings file that is not valid JSON stops the
// command with exit 2 and every file untouched. Prints one line per agent
// (and, for Codex, one about the hook trust it records in config.toml);
// --dry-run prints the unified diffs instead of writing. With --scope
// project the files go at the git root and the registered command is
// `causegate` on PATH, so the settings work on every machine that clones it.
#include <limits.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "cli/commands.h"
#include "cli/shared_options.h"
#include "gate/user_config_files.h"
#include "install/init.h"
#include "install/settings_file.h"
#include "install/user_config_edit.h"
#include "install/unified_diff.h"

namespace causegate::cli {
namespace {

std::string SelfPath() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  return std::string(buf, static_cast<std::size_t>(n));
}

// A unified diff with added lines green, removed red and hunk heads cyan.
std::string Colored(const std::string& diff, bool color) {
  if (!color) return diff;
  std::string out;
  std::size_t start = 0;
  while (start < diff.size()) {
    const std::size_t end = std::min(diff.find('\n', start), diff.size());
    const std::string line = diff.substr(start, end - start);
    const char* on = line.rfind("+++", 0) == 0 || line.rfind("---", 0) == 0 ? "\033[1m"
                     : line.rfind("@@", 0) == 0                             ? "\033[36m"
                     : line.rfind("+", 0) == 0                              ? "\033[32m"
                     : line.rfind("-", 0) == 0                              ? "\033[31m"
                                                                            : "";
    out += *on != '\0' ? on + line + "\033[0m" : line;
    if (end < diff.size()) out += '\n';
    start = end + 1;
  }
  return out;
}

// The file a bare name runs, as a shell finds it on PATH ("" when none).
std::string FindOnPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t colon = std::min(dirs.find(':', start), dirs.size());
    const std::string dir = colon == start ? "." : dirs.substr(start, colon - start);
    const std::string file = dir + "/" + name;
    if (access(file.c_str(), X_OK) == 0) return file;
    start = colon + 1;
  }
  return "";
}

// `init --resident`: the user config's edit, planned by the caller.
void WriteResidentKey(const std::string& path, const install::SettingsText& before, const std::string& after,
                      bool uninstall, bool dry_run, bool color, Common* common) {
  const char* what = uninstall ? "resident gate: \"resident\" removed from" : "resident gate: on in";
  if (after == before.text && before.exists) {
    std::printf("%s %s (unchanged)\n", what, path.c_str());
    return;
  }
  if (dry_run) {
    std::fputs(Colored(install::UnifiedDiff(path, before.text, after), color).c_str(), stdout);
    return;
  }
  std::string backup;
  if (Status s = install::WriteSettings(path, after, &backup); !s.ok()) {
    std::fprintf(stderr, "causegate init: %s\n", s.message().c_str());
    common->exit_code = 2;
    return;
  }
  std::printf("%s %s%s\n", what, path.c_str(),
              uninstall ? "" : " (a daemon starts at the next stop; `causegate status` shows it)");
}

void AddInitCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("init", "Register causegate as the hook of your agents (Claude Code, Codex, Gemini "
                                         "CLI, Cursor, Copilot CLI) in their settings files");
  struct Args {
    std::string agent;
    std::string scope = "user";
    bool dry_run = false;
    bool uninstall = false;
    std::string binary;
    std::string hook_args;
    bool has_hook_args = false;
    bool resident = false;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("--agent", args->agent,
                  "claude-code, codex, gemini, cursor, copilot or all (default: every agent whose settings folder "
                  "exists; Claude Code when none does)");
  cmd->add_option("--scope", args->scope,
                  "user (your home folder) or project (the git root of the working folder, for settings kept in git)")
      ->check(CLI::IsMember({"user", "project"}));
  cmd->add_flag("--dry-run", args->dry_run, "Show the change as a unified diff; write nothing");
  cmd->add_flag("--uninstall", args->uninstall, "Remove causegate's hook entries (and nothing else)");
  cmd->add_option("--binary", args->binary,
                  "The causegate binary to register: an absolute path, or a bare name found on PATH when the agent "
                  "runs the hook (default: this binary; with --scope project, `causegate` on PATH)");
  cmd->add_option("--args", args->hook_args,
                  "Extra arguments of the registered `causegate hook`, as one shell-quoted string "
                  "(--args \"--server http://127.0.0.1:8787\"); \"\" removes them. Without it, arguments already "
                  "registered (added by hand) are kept");
  cmd->add_flag("--resident", args->resident,
                "Also switch the resident gate on in your user config (\"resident\": true: a per-user daemon keeps "
                "the rules compiled between stops) and register causegate-hook, its small client, when it is beside "
                "this binary; with --uninstall, remove that key");
  cmd->footer(
      "Exit status: 0 done (or nothing to change), 2 a settings file cannot be read or is not valid JSON (no file "
      "is changed; the error gives line and column), or a usage error.\nOnly causegate's entries are added or "
      "removed; the rest of each file stays byte for byte (comments too in Gemini CLI's settings.json, which is "
      "JSONC). A symbolic link is followed and its target edited. FILE.causegate-backup keeps the file as it was "
      "before causegate first changed it. For Codex, the hook's trust is recorded in ~/.codex/config.toml too "
      "(Codex runs only trusted hooks).");
  cmd->callback([cmd, &common, args] {
    using install::Agent;
    install::Places places = install::PlacesFromEnvironment("");
    const install::Scope scope = args->scope == "project" ? install::Scope::kProject : install::Scope::kUser;
    if (scope == install::Scope::kUser && places.home.empty()) {
      std::fprintf(stderr, "causegate init: HOME is not set; use --scope project\n");
      common.exit_code = 2;
      return;
    }
    std::vector<Agent> agents;
    if (args->agent == "all") {
      agents.assign(std::begin(install::kAllAgents), std::end(install::kAllAgents));
    } else if (!args->agent.empty()) {
      Agent agent;
      if (!install::ParseAgent(args->agent, &agent)) {
        std::fprintf(stderr, "causegate init: unknown --agent \"%s\" (claude-code, codex, gemini, cursor, copilot, all)\n",
                     args->agent.c_str());
        common.exit_code = 2;
        return;
      }
      agents.push_back(agent);
    } else {
      agents = install::AgentsInUse(scope, places);
      if (agents.empty()) agents.push_back(Agent::kClaudeCode);
    }
    install::HookCommand command;
    // A project's settings are committed: register the name on PATH, not
    // this machine's path to the binary.
    command.binary = !args->binary.empty() ? args->binary : scope == install::Scope::kProject ? "causegate" : SelfPath();
    // With the resident gate, the hook is causegate-hook when it is beside
    // this binary: a static client that asks the daemon at the cost of a
    // forward, and runs causegate itself whenever the daemon does not answer.
    if (args->resident && !args->uninstall && args->binary.empty() && scope == install::Scope::kUser) {
      const std::string client = command.binary.substr(0, command.binary.rfind('/') + 1) + "causegate-hook";
      if (access(client.c_str(), X_OK) == 0) command.binary = client;
    }
    const std::string& binary = command.binary;
    const bool bare = binary.find('/') == std::string::npos;
    if (binary.empty() || (!bare && binary.front() != '/')) {
      std::fprintf(stderr,
                   "causegate init: --binary must be an absolute path or a bare name found on PATH (got \"%s\")\n",
                   binary.c_str());
      common.exit_code = 2;
      return;
    }
    if (cmd->count("--args") > 0) command.extra_args = install::SplitShellWords(args->hook_args);
    if (scope == install::Scope::kProject) places.project = install::ProjectRoot(places.project);
    if (!args->uninstall) {
      const std::string found = bare ? FindOnPath(binary) : binary;
      if (found.empty() || access(found.c_str(), X_OK) != 0) {
        std::fprintf(stderr, "causegate init: warning: %s %s; the agent cannot run the hook until it is\n",
                     binary.c_str(), bare ? "is not on PATH here" : "is not an executable file");
      }
      if (!bare && scope == install::Scope::kProject) {
        std::fprintf(stderr,
                     "causegate init: warning: a project's settings hold %s, a path of this machine; other "
                     "machines need causegate there (without --binary, `causegate` on PATH is registered)\n",
                     binary.c_str());
      }
    }
    const install::Edit edit = args->uninstall ? install::Edit::kRemove : install::Edit::kAdd;

    const bool color = UseColor(common.color, STDOUT_FILENO);
    std::vector<install::AgentChange> changes(agents.size());
    for (std::size_t i = 0; i < agents.size(); ++i) {
      if (Status s = install::PlanChange(agents[i], scope, edit, command, places, &changes[i]); !s.ok()) {
        std::fprintf(stderr, "causegate init: %s\nNo file was changed.\n", s.message().c_str());
        common.exit_code = 2;
        return;
      }
    }
    // The user config's "resident" key, planned with the rest: a config file
    // that does not parse stops the command before anything is written.
    const std::string config_path = args->resident ? gate::UserConfigPath() : "";
    install::SettingsText config_before;
    std::string config_after;
    if (args->resident) {
      Status s = config_path.empty() ? Status::Error("neither XDG_CONFIG_HOME nor HOME is set")
                                     : install::ReadSettings(config_path, &config_before);
      if (s.ok()) {
        s = install::EditResidentKey(config_path, config_before.text, config_before.exists,
                                     args->uninstall ? install::ResidentEdit::kRemove : install::ResidentEdit::kOn,
                                     &config_after);
      }
      if (!s.ok()) {
        std::fprintf(stderr, "causegate init: %s\nNo file was changed.\n", s.message().c_str());
        common.exit_code = 2;
        return;
      }
    }
    for (install::AgentChange& change : changes) {
      if (args->dry_run) {
        const std::string after = change.edit.remove_file ? "" : change.edit.after;
        std::fputs(Colored(install::UnifiedDiff(change.path, change.before.text, after), color).c_str(), stdout);
        if (change.trust.changed()) {
          const std::string trust_after = change.trust.remove_file ? "" : change.trust.after;
          std::fputs(Colored(install::UnifiedDiff(change.trust.path, change.trust.before.text, trust_after), color)
                         .c_str(),
                     stdout);
        }
      } else if (Status s = install::ApplyChange(&change); !s.ok()) {
        std::fprintf(stderr, "causegate init: %s\n", s.message().c_str());
        common.exit_code = 2;
        return;
      }
      std::printf("%s\n", install::DescribeChange(change, args->dry_run).c_str());
      const std::string trust = install::DescribeTrust(change, args->dry_run);
      if (!trust.empty()) std::printf("%s\n", trust.c_str());
    }
    if (args->resident) {
      WriteResidentKey(config_path, config_before, config_after, args->uninstall, args->dry_run, color, &common);
    }
  });
}

const Registrar kRegister(50, AddInitCommand);

}  // namespace

}  // namespace causegate::cli
