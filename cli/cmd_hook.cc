#include <spdlog/spdlog.h>

#include <cstdlib>

#include "cli/commands.h"
#include "cli/shared_options.h"
#include "cli/hook_args.h"
#include "hook/hook_command.h"

namespace causegate::cli {

void DefineHookOptions(CLI::App* cmd, HookArgs* args) {
  hook::HookCommandOptions& options = *args->options;
  cmd->add_option("--agent", args->agent,
                  std::string("Agent whose hook protocol to speak: ") + gate::AgentNameList() +
                      " (default auto: detected from the input's fields)");
  AddMaxBlocksOption(cmd, &options.gate.loop.max_blocks,
                     "Blocks per turn before an unproven turn is let through with a warning");
  cmd->add_option("--mode", args->mode,
                  "block (the default), warn (a systemMessage and an audit line instead of a block) or off; wins "
                  "over the config files' \"mode\"")
      ->check(CLI::IsMember({"block", "warn", "off"}));
  cmd->add_option("--guess-fix", args->guess_fix,
                  "An edit that fixes a merely hedged cause before any probe: warn (systemMessage), block, or off")
      ->check(CLI::IsMember({"warn", "block", "off"}));
  cmd->add_option("--server", options.daemon.url,
                  "Ask the daemon at URL first (http://127.0.0.1:8787); judge locally if it cannot answer");
  cmd->add_option("--server-timeout-ms", options.daemon.timeout_ms,
                  "How long to wait for the daemon before judging locally (1 to 60000, default 300)")
      ->type_name("MS")
      ->check(WholeNumber(1, 60000));
  cmd->add_option("--server-token-env", args->token_env,
                  "Environment variable holding the daemon's bearer token (default CAUSEGATE_TOKEN)");
}

void SettleHookOptions(const CLI::App& cmd, HookArgs* args, const std::string& rules_dir,
                       const std::string& plugin_root, const char* token) {
  hook::HookCommandOptions& options = *args->options;
  rules::ParseGuessFixMode(args->guess_fix, &options.gate.loop.guess_fix);
  // Flags given win over the config files' keys; defaults do not.
  if (cmd.count("--max-blocks") > 0) options.flags.max_blocks = options.gate.loop.max_blocks;
  if (cmd.count("--guess-fix") > 0) options.flags.guess_fix = options.gate.loop.guess_fix;
  if (gate::GateMode mode; cmd.count("--mode") > 0 && gate::ParseGateMode(args->mode, &mode)) {
    options.flags.mode = mode;
  }
  if (token != nullptr) options.daemon.token = token;
  // Claude Code sets CLAUDE_PLUGIN_ROOT for a plugin's hooks: run from the
  // plugin, the reason can send the agent to the plugin's debug skill.
  if (!plugin_root.empty()) options.gate.loop.debug_skill = plugin_root + "/skills/debug/SKILL.md";
  if (!gate::ParseAgentName(args->agent, &options.agent)) {
    spdlog::warn("unknown --agent \"{}\"; using auto-detection", args->agent);
    options.agent = gate::Agent::kAuto;
  }
  options.rules_dir = rules_dir;
}

namespace {

void AddHookCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("hook", "Judge one agent stop: hook input on stdin, the agent's answer on stdout");
  auto args = std::make_shared<HookArgs>();
  DefineHookOptions(cmd, args.get());
  cmd->callback([cmd, &common, args] {
    const char* plugin_root = std::getenv("CLAUDE_PLUGIN_ROOT");
    SettleHookOptions(*cmd, args.get(), common.rules_dir, plugin_root == nullptr ? "" : plugin_root,
                      std::getenv(args->token_env.c_str()));
    args->options->argv = common.argv;
    args->options->version = CAUSEGATE_VERSION;
    common.exit_code = hook::RunHookCommand(*args->options);
  });
}

const Registrar kRegister(10, AddHookCommand);

}  // namespace

}  // namespace causegate::cli
