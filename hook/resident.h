// The resident gate, the hook's side: `causegate hook` first asks the
// per-user daemon (hook/resident_daemon.h) on its Unix socket; when none
// answers it judges locally, exactly as without it, and then starts the
// daemon in the background for the next stop. On when the user config says
// `"resident": true` (or CAUSEGATE_RESIDENT=1), off by default and with
// CAUSEGATE_RESIDENT=0. Contract: gate/HOOKS.md, "The resident gate".
// Tests: tests/e2e/resident_gate.py.
#pragma once

#include <string>

#include "evidence/status.h"
#include "hook/hook_command.h"
#include "hook/resident_wire.h"

namespace causegate::hook {

// The user file's resident keys (gate/user_config.h); a file that is
// absent or broken reads as the defaults (the judging reports it).
struct ResidentSettings {
  bool resident = false;
  int idle_seconds = kDefaultResidentIdleSeconds;
};
ResidentSettings ReadResidentSettings();

// CAUSEGATE_RESIDENT: "0" or "1" as given, "" when unset or anything else.
std::string ResidentSwitch();

// One hook call's use of the daemon.
class ResidentClient {
 public:
  explicit ResidentClient(const HookCommandOptions& options) : options_(options) {}
  // Asks the daemon (unless CAUSEGATE_RESIDENT=0, --server, or no command
  // line to hand over). True when it answered: its stdout and stderr are
  // written, and the stop is done.
  bool Answered(const std::string& input);
  // After a local verdict: starts the daemon when the resident gate is on
  // and no daemon answered (none ran, or a stale one was told to exit).
  void StartIfWanted();

 private:
  const HookCommandOptions& options_;
  bool may_start_ = false;
};

// Starts `BINARY resident-daemon` detached: its own session, stdin from
// /dev/null, stdout and stderr to the log file in the socket's folder, no
// other descriptor of ours. Returns once the first child has exited.
Status StartResidentDaemon(const std::string& binary, const std::string& folder);

// This process's binary (/proc/self/exe), "" when unknown.
std::string SelfBinary();

}  // namespace causegate::hook
