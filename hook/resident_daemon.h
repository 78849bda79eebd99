// The resident gate's daemon (`causegate resident-daemon`, started by the
// hook: hook/resident.h): one per user, on a Unix socket in a 0700 folder
// (hook/resident_wire.h), holding the compiled rule sets between stops. It
// judges each stop exactly as `causegate hook` would (JudgeHookInput, the
// hook's own command line and config files, its stderr lines captured and
// sent back), so a stop costs the judging and not the compiling.
//
// It serves only peers of its own uid (SO_PEERCRED), one thread per
// connection and at most kMaxConnections at once, and exits: after
// resident_idle_seconds without a request (default 30 min), when a client's
// fingerprint differs (another binary or environment: the client judges
// locally and starts a new daemon), when the user config no longer says
// "resident": true, and on SIGTERM. A second daemon started at the same
// time finds the lock held and exits. Contract: gate/HOOKS.md.
// Tests: tests/e2e/resident_gate.py.
#pragma once

#include <functional>
#include <string>

#include "evidence/status.h"
#include "hook/hook_command.h"
#include "hook/resident_wire.h"

namespace causegate::hook {

struct ResidentDaemonOptions {
  std::string version;
  // Reads a request's command line (argv[0] first) and environment into the
  // hook's options, as `causegate hook` reads its own; an error declines
  // the request (the client judges locally).
  std::function<Status(const ResidentRequest&, HookCommandOptions*)> parse;
};

// Runs the daemon until it exits; returns the process exit code (0, or 1
// when the socket cannot be set up).
int RunResidentDaemon(const ResidentDaemonOptions& options);

}  // namespace causegate::hook
