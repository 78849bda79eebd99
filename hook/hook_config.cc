#include "hook/hook_config.h"

#include <spdlog/spdlog.h>

#include <memory>
#include <vector>

#include "gate/configured_rules.h"

namespace causegate::hook {
namespace {

constexpr const char* kCommandLine = "command line";

void ApplyFlags(const ConfigFlags& flags, gate::MergedConfig* config) {
  if (flags.max_blocks) {
    config->max_blocks.value = *flags.max_blocks;
    config->max_blocks.source = kCommandLine;
  }
  if (flags.guess_fix) {
    config->guess_fix.value = *flags.guess_fix;
    config->guess_fix.source = kCommandLine;
  }
}

// Rules and packs change the rule set; the other keys only the policy.
bool ChangesRules(const gate::MergedConfig& config) { return !config.rules.empty() || !config.packs.value.empty(); }

gate::TurnConfig Settle(const gate::LoadedConfig& loaded, const std::string& rules_path, const ConfigFlags& flags,
                        const rules::LoopPolicy& base, const gate::HookRequest& request, const evidence::Turn& turn) {
  gate::TurnConfig settled;
  if (gate::UserSkipsTurn(request, turn)) {
    spdlog::warn("turn let through unjudged: the user's prompt has {}", gate::kSkipToken);
    settled.skip_reason = std::string("the user's prompt has ") + std::string(gate::kSkipToken);
    return settled;
  }
  std::vector<gate::ConfigFile> trusted;
  for (const gate::ConfigFile& file : loaded.files) {
    if (gate::TurnWritesConfig(turn, request.cwd, file.path)) {
      spdlog::warn("config {} ignored for this turn: a tool call of the turn wrote to it", file.path);
      continue;
    }
    trusted.push_back(file);
  }
  settled.config = gate::MergeConfig(trusted);
  ApplyFlags(flags, &settled.config);
  settled.loop = base;
  settled.loop.max_blocks = settled.config.max_blocks.value;
  settled.loop.guess_fix = settled.config.guess_fix.value;
  if (settled.config.mode.value == gate::GateMode::kOff) {
    spdlog::debug("allowed without judging: mode \"off\" ({})", settled.config.mode.source);
    settled.skip_reason = "mode \"off\" (" + settled.config.mode.source + ")";
    return settled;
  }
  if (ChangesRules(settled.config) || !loaded.files.empty()) {
    // The front-end compiled no rules when files were found: they decide them.
    rules::CompileOptions options;
    options.lazy = rules_path.empty() && settled.config.packs.value.empty();
    std::vector<std::string> warnings;
    std::shared_ptr<const rules::RuleSet> compiled;
    Status s = gate::LoadConfiguredRules(settled.config, rules_path, options, &compiled, &warnings);
    for (const std::string& warning : warnings) spdlog::warn("config: {}", warning);
    if (!s.ok()) {
      // A pack of the config that does not load: its error, and the gate on
      // the defaults rather than off.
      spdlog::error("config: rule packs: {}; judging with the default packs", s.message());
      gate::MergedConfig defaults_only = settled.config;
      defaults_only.packs.value.clear();
      warnings.clear();
      s = gate::LoadConfiguredRules(defaults_only, "", options, &compiled, &warnings);
    }
    if (s.ok()) settled.rules = compiled;
  }
  return settled;
}

}  // namespace

HookConfig LoadHookConfig(const std::string& cwd, const std::string& rules_path, const ConfigFlags& flags,
                          const rules::LoopPolicy& base) {
  HookConfig config;
  config.loaded = gate::LoadUserConfig(cwd);
  for (const std::string& error : config.loaded.errors) {
    spdlog::error("config ignored: {} (the defaults and the other config file stay in force)", error);
  }
  const gate::LoadedConfig loaded = config.loaded;
  config.configure = [loaded, rules_path, flags, base](const gate::HookRequest& request, const evidence::Turn& turn) {
    return Settle(loaded, rules_path, flags, base, request, turn);
  };
  return config;
}

}  // namespace causegate::hook
