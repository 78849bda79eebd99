// Where causegate keeps what it must remember between two hook calls of
// one session: the per-session block counter (gate/loop_state.h) and the
// session logs of agents whose stop hook sees no transcript
// (gate/session_log.h). $XDG_STATE_HOME/causegate, else
// ~/.local/state/causegate, unless the front-end names another
// (GateOptions::state_dir: `causegate serve --state-dir`); created with
// mode 0700 on first use. Everything in it is read at the call that needs
// it and never kept in memory, so processes sharing the folder (replicas
// of the daemon) see each other's writes; gate/state_lock.h keeps those
// writes whole. Held to a total size and file count, oldest written
// evicted first (gate/state_cap.h).
// Tests: tests/unit/gate/loop_state_test.cc, session_log_test.cc.
#pragma once

#include <string>
#include <string_view>

#include "evidence/status.h"

namespace causegate::gate {

// The state folder, or "" when neither XDG_STATE_HOME nor HOME is set.
std::string StateDir();

// configured when it is not empty, else StateDir(): the folder of a
// request whose front-end may have named one (HookRequest::state_dir).
std::string StateDirOr(std::string_view configured);

// A file name for an outside id (a session id): the id itself when it is
// 1..96 characters of [A-Za-z0-9._-] and does not start with '.', else
// "h" + 16 hex digits of its FNV-1a hash. Never a path.
std::string SafeFileName(std::string_view id);

// FNV-1a 64-bit hash of text as 16 hex digits.
std::string HashHex(std::string_view text);

// Creates path and its parents (mode 0700). Ok when it exists.
Status EnsureDir(const std::string& path);

}  // namespace causegate::gate
