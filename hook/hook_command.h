// `causegate hook`: the agent runs it at every stop with the hook input on
// stdin. It prints the agent's answer (one JSON object, or nothing) on
// stdout and always exits 0: a gate that fails must not wedge the agent.
// Everything for people goes to stderr. Contract: gate/HOOKS.md.
// Tests: tests/e2e (hook_cases, hook_bad_input).
#pragma once

#include <memory>
#include <string>

#include "gate/gate.h"
#include "hook/daemon_client.h"
#include "hook/hook_config.h"

namespace causegate::hook {

struct HookCommandOptions {
  gate::Agent agent = gate::Agent::kAuto;
  std::string rules_dir;       // extra packs: a pack file or a folder ("" = defaults only)
  gate::GateOptions gate;
  // --server: ask a running daemon first (url "" = never); when it cannot
  // answer in time, or did not judge, the hook judges locally.
  DaemonOptions daemon;
  ConfigFlags flags;  // the flags given, which win over the config files
};

// Runs one hook call on stdin/stdout. Returns the process exit code (0).
int RunHookCommand(const HookCommandOptions& options);

}  // namespace causegate::hook
