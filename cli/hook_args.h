// `causegate hook`'s options, defined once for the command itself and for
// the resident daemon, which reads each client's command line the same way
// (cli/cmd_resident.cc), so that a stop it serves is judged with the flags
// the hook was given.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "hook/hook_command.h"

namespace causegate::cli {

struct HookArgs {
  std::shared_ptr<hook::HookCommandOptions> options = std::make_shared<hook::HookCommandOptions>();
  std::string agent = "auto";
  std::string guess_fix = "warn";
  std::string mode;  // "" unless --mode was given
  std::string token_env = "CAUSEGATE_TOKEN";
};

// Adds the hook's options to cmd, stored into *args (which must outlive it).
void DefineHookOptions(CLI::App* cmd, HookArgs* args);

// After cmd parsed: settles args->options from what was given. rules_dir:
// the top-level --rules; plugin_root: CLAUDE_PLUGIN_ROOT ("" when unset);
// token: the value of the --server-token-env variable (null when unset).
void SettleHookOptions(const CLI::App& cmd, HookArgs* args, const std::string& rules_dir,
                       const std::string& plugin_root, const char* token);

}  // namespace causegate::cli
