// `causegate hook`: the agent runs it at every stop with the hook input on
// stdin. It prints the agent's answer (one JSON object, or nothing) on
// stdout and always exits 0: a gate that fails must not wedge the agent.
// Everything for people goes to stderr. Contract: gate/HOOKS.md.
// Tests: tests/e2e (hook_cases, hook_bad_input).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gate/gate.h"
#include "hook/daemon_client.h"
#include "hook/hook_config.h"
#include "hook/rule_cache.h"

namespace causegate::hook {

struct HookCommandOptions {
  gate::Agent agent = gate::Agent::kAuto;
  std::string rules_dir;       // extra packs: a pack file or a folder ("" = defaults only)
  gate::GateOptions gate;
  // --server: ask a running daemon first (url "" = never); when it cannot
  // answer in time, or did not judge, the hook judges locally.
  DaemonOptions daemon;
  ConfigFlags flags;  // the flags given, which win over the config files
  // The resident gate (hook/resident.h): the command line to hand the
  // daemon (argv[0] first) and this binary's version. Empty argv: never
  // ask a resident daemon.
  std::vector<std::string> argv;
  std::string version;
  // The daemon's compiled rule sets, kept between stops; null: compile for
  // this one stop (the hook process).
  RuleCache* cache = nullptr;
};

// Runs one hook call on stdin/stdout. Returns the process exit code (0).
int RunHookCommand(const HookCommandOptions& options);

// One stop judged as `causegate hook` judges it, without stdin or stdout:
// what to print on stdout (exactly, newline included; "" for nothing), and
// the let-through warning for a headless agent's user ("" for none).
// Logs go through spdlog, as the hook's do. Thread-safe when options.cache
// is (the daemon's).
struct HookAnswer {
  std::string out;
  std::string headless_warning;
};
HookAnswer JudgeHookInput(const HookCommandOptions& options, const std::string& input);

}  // namespace causegate::hook
