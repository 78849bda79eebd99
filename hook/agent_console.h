// The let-through warning where a headless agent's user reads it.
//
// When a turn is let through unproven, the hook answers with a
// systemMessage, which the interactive agents show. Run headless they show
// nothing of it: `codex exec` prints no hook message at all (neither the
// answer nor the hook's stderr), `claude -p` in text or json output drops
// it, `copilot -p` drops the hook's stderr. A user of those would believe
// the turn was checked and passed. So the hook finds the agent among its
// own ancestors and, when it runs headless, writes the warning on the
// agent's stderr (/proc/PID/fd/2) as well: the terminal or CI log the user
// reads. Nothing is written to an interactive agent (its screen is a TUI
// the agent draws itself) or where our stderr already is the agent's.
// Tests: tests/e2e/hook_agent_console.py and tests/agents.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

namespace causegate::hook {

// Writes `message` and a newline on the stderr of the nearest agent
// process (Codex, Claude Code, Copilot CLI) above this one when that agent
// runs headless. Returns true when it wrote. Never blocks.
bool WarnHeadlessAgentUser(std::string_view message);

// The same for the resident daemon on behalf of its client: the agent is
// looked for above process `client`, and "our stderr" is the client's,
// stderr_id its "DEV:INO" (hook/resident_wire.h; "" when unknown).
bool WarnHeadlessAgentUserAbove(pid_t client, const std::string& stderr_id, std::string_view message);

}  // namespace causegate::hook
