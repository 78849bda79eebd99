// The hook's side of the user's config files (gate/user_config_files.h):
// which files apply to the hook input's cwd, reported problems, and the
// per-turn settlement RunGate asks for (GateOptions::configure): files the
// turn's own tool calls wrote are left out for that turn, the flags given on
// the command line win, the user's skip token and mode "off" let the turn
// through. Tests: tests/e2e/config_files.py.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "gate/gate.h"
#include "gate/user_config.h"
#include "hook/rule_cache.h"

namespace causegate::hook {

// Flags of `causegate hook` that a config key also sets; set only when
// given on the command line, so that they win over the files.
struct ConfigFlags {
  std::optional<int> max_blocks;
  std::optional<rules::GuessFixMode> guess_fix;
  std::optional<gate::GateMode> mode;
  bool any() const { return max_blocks || guess_fix || mode; }
};

struct HookConfig {
  gate::LoadedConfig loaded;
  // What RunGate calls once the turn is read.
  std::function<gate::TurnConfig(const gate::HookRequest&, const evidence::Turn&)> configure;
};

// Loads the config files for the cwd of the hook input (errors logged and
// those files left out). base: the loop policy from the flags. cache (may
// be null) keeps the rule sets the turns' configs compile; it must outlive
// the configure call.
HookConfig LoadHookConfig(const std::string& cwd, const std::string& rules_path, const ConfigFlags& flags,
                          const rules::LoopPolicy& base, RuleCache* cache = nullptr);

}  // namespace causegate::hook
