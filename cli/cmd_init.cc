// `causegate init`: registers causegate as each agent's hook in one step.
// Plans every agent's edit first (install/init.h) and writes only when all
// of them can be made, so a settings file that is not valid JSON stops the
// command with exit 2 and every file untouched. Prints one line per agent
// (and, for Codex, one about the hook trust it records in config.toml);
// --dry-run prints the unified diffs instead of writing.
#include <limits.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "cli/commands.h"
#include "install/init.h"
#include "install/unified_diff.h"

namespace causegate::cli {
namespace {

std::string SelfPath() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  return std::string(buf, static_cast<std::size_t>(n));
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
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("--agent", args->agent,
                  "claude-code, codex, gemini, cursor, copilot or all (default: every agent whose settings folder "
                  "exists; Claude Code when none does)");
  cmd->add_option("--scope", args->scope, "user (your home folder) or project (the working folder)")
      ->check(CLI::IsMember({"user", "project"}));
  cmd->add_flag("--dry-run", args->dry_run, "Show the change as a unified diff; write nothing");
  cmd->add_flag("--uninstall", args->uninstall, "Remove causegate's hook entries (and nothing else)");
  cmd->add_option("--binary", args->binary, "Absolute path of the causegate binary to register (default: this one)");
  cmd->footer(
      "Exit status: 0 done (or nothing to change), 2 a settings file cannot be read or is not valid JSON (no file "
      "is changed), or a usage error.\nEach changed file is kept as FILE.causegate-backup first. For Codex, the "
      "hook's trust is recorded in ~/.codex/config.toml too (Codex runs only trusted hooks).");
  cmd->callback([&common, args] {
    using install::Agent;
    const install::Places places = install::PlacesFromEnvironment("");
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
    std::string binary = args->binary.empty() ? SelfPath() : args->binary;
    if (binary.empty() || binary.front() != '/') {
      std::fprintf(stderr, "causegate init: --binary must be an absolute path (got \"%s\")\n", binary.c_str());
      common.exit_code = 2;
      return;
    }
    const install::Edit edit = args->uninstall ? install::Edit::kRemove : install::Edit::kAdd;

    std::vector<install::AgentChange> changes(agents.size());
    for (std::size_t i = 0; i < agents.size(); ++i) {
      if (Status s = install::PlanChange(agents[i], scope, edit, binary, places, &changes[i]); !s.ok()) {
        std::fprintf(stderr, "causegate init: %s\nNo file was changed.\n", s.message().c_str());
        common.exit_code = 2;
        return;
      }
    }
    for (install::AgentChange& change : changes) {
      if (args->dry_run) {
        const std::string after = change.edit.remove_file ? "" : change.edit.after;
        std::fputs(install::UnifiedDiff(change.path, change.before.text, after).c_str(), stdout);
        if (change.trust.changed()) {
          const std::string trust_after = change.trust.remove_file ? "" : change.trust.after;
          std::fputs(install::UnifiedDiff(change.trust.path, change.trust.before.text, trust_after).c_str(), stdout);
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
  });
}

const Registrar kRegister(50, AddInitCommand);

}  // namespace

}  // namespace causegate::cli
