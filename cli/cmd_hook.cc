#include <spdlog/spdlog.h>

#include "cli/commands.h"
#include "hook/hook_command.h"

namespace causegate::cli {

namespace {

void AddHookCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("hook", "Judge one agent stop: hook input on stdin, the agent's answer on stdout");
  auto options = std::make_shared<hook::HookCommandOptions>();
  auto agent = std::make_shared<std::string>("auto");
  cmd->add_option("--agent", *agent, "Agent whose hook protocol to speak (auto, claude-code)");
  cmd->add_option("--max-blocks", options->gate.loop.max_blocks,
                  "Blocks per turn before an unproven turn is let through with a warning")
      ->check(CLI::Range(0, 100));
  cmd->callback([&common, options, agent] {
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
