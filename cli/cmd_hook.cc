#include <spdlog/spdlog.h>

#include <cstdlib>

#include "cli/commands.h"
#include "cli/shared_options.h"
#include "hook/hook_command.h"

namespace causegate::cli {

namespace {

void AddHookCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("hook", "Judge one agent stop: hook input on stdin, the agent's answer on stdout");
  auto options = std::make_shared<hook::HookCommandOptions>();
  auto agent = std::make_shared<std::string>("auto");
  cmd->add_option("--agent", *agent,
                  std::string("Agent whose hook protocol to speak: ") + gate::AgentNameList() +
                      " (default auto: detected from the input's fields)");
  AddMaxBlocksOption(cmd, &options->gate.loop.max_blocks,
                     "Blocks per turn before an unproven turn is let through with a warning");
  auto guess_fix = std::make_shared<std::string>("warn");
  cmd->add_option("--guess-fix", *guess_fix,
                  "An edit that fixes a merely hedged cause before any probe: warn (systemMessage), block, or off")
      ->check(CLI::IsMember({"warn", "block", "off"}));
  cmd->add_option("--server", options->daemon.url,
                  "Ask the daemon at URL first (http://127.0.0.1:8787); judge locally if it cannot answer");
  cmd->add_option("--server-timeout-ms", options->daemon.timeout_ms,
                  "How long to wait for the daemon before judging locally (1 to 60000, default 300)")
      ->type_name("MS")
      ->check(WholeNumber(1, 60000));
  auto token_env = std::make_shared<std::string>("CAUSEGATE_TOKEN");
  cmd->add_option("--server-token-env", *token_env,
                  "Environment variable holding the daemon's bearer token (default CAUSEGATE_TOKEN)");
  cmd->callback([cmd, &common, options, agent, token_env, guess_fix] {
    rules::ParseGuessFixMode(*guess_fix, &options->gate.loop.guess_fix);
    // Flags given win over the config files' keys; defaults do not.
    if (cmd->count("--max-blocks") > 0) options->flags.max_blocks = options->gate.loop.max_blocks;
    if (cmd->count("--guess-fix") > 0) options->flags.guess_fix = options->gate.loop.guess_fix;
    if (const char* token = std::getenv(token_env->c_str()); token != nullptr) options->daemon.token = token;
    // Claude Code sets CLAUDE_PLUGIN_ROOT for a plugin's hooks: run from the
    // plugin, the reason can send the agent to the plugin's debug skill.
    if (const char* root = std::getenv("CLAUDE_PLUGIN_ROOT"); root != nullptr && *root != '\0') {
      options->gate.loop.debug_skill = std::string(root) + "/skills/debug/SKILL.md";
    }
    if (!gate::ParseAgentName(*agent, &options->agent)) {
      spdlog::warn("unknown --agent \"{}\"; using auto-detection", *agent);
      options->agent = gate::Agent::kAuto;
    }
    options->rules_dir = common.rules_dir;
    common.exit_code = hook::RunHookCommand(*options);
  });
}

const Registrar kRegister(10, AddHookCommand);

}  // namespace

}  // namespace causegate::cli
