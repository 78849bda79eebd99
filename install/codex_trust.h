// Codex runs a hook from hooks.json only once it is trusted: the TUI asks,
// `codex exec` skips an untrusted hook without a word (research on Codex
// 0.171). Trust is a table Codex keeps in ~/.codex/config.toml,
//
//   [hooks.state."<abs path of hooks.json>:stop:<group>:<index>"]
//   trusted_hash = "sha256:<hex>"
//
// whose hash is of the hook's definition; any change to the command makes
// the hook untrusted again. `causegate init` writes that table for the
// hook it registers (so the hook runs), keeps it equal to the hook when the
// binary path changes, moves other hooks' tables when removing causegate
// shifts their place, and `--uninstall` removes it. `causegate doctor`
// compares it with the hook as written.
// Tests: tests/unit/install/codex_trust_test.cc, tests/e2e/doctor_codex.py.
#pragma once

#include <cstddef>
#include <string>

#include "evidence/status.h"
#include "install/registration.h"
#include "install/settings_file.h"

namespace causegate::install {

// Codex's timeout for a command hook that names none, in seconds.
inline constexpr long long kCodexDefaultTimeout = 600;

// The hash Codex keeps for a command hook on Stop: "sha256:" and the hex of
// the compact JSON with sorted keys
//   {"event_name":"stop","hooks":[{"async":false,"command":CMD,"timeout":30,"type":"command"}]}
// (Codex-internal; equal to `codex app-server` hooks/list currentHash on
// 0.171.0).
std::string CodexHookHash(const std::string& command, long long timeout_sec, bool async);
// The same for a handler as ListHooks read it (a missing timeout is Codex's default).
std::string CodexHookHash(const HookEntry& entry);

// "<hooks_json>:stop:<group>:<index>": the key of the hook's state table.
std::string CodexTrustKey(const std::string& hooks_json, const HookEntry& entry);

// ~/.codex/config.toml for places.home.
std::string CodexConfigPath(const Places& places);

struct TrustChange {
  enum class Kind { kNone, kRecorded, kUpdated, kUpToDate, kRemoved };
  Kind kind = Kind::kNone;
  std::string path;  // config.toml
  SettingsText before;
  std::string after;
  bool remove_file = false;  // causegate created the file and nothing else is in it
  std::string key;           // the key recorded, updated or removed
  std::size_t moved = 0;     // other hooks' tables re-keyed
  bool changed() const { return remove_file || (after != before.text); }
};

// Plans config.toml's edit for the change of hooks.json at hooks_json_path
// from hooks_before to hooks_after (the texts; "" for no file): the first
// causegate Stop hook in hooks_after gets its trusted_hash, causegate's
// hooks in hooks_before that are gone lose their table, and other hooks
// whose place changed take their table with them.
// Errors: either hooks text does not read (registration.h), config.toml
// does not read as TOML or holds the key in a form that is not edited
// (hook_state_toml.h); "PATH: what".
// config_path and config: config.toml and its text as ReadSettings read it.
Status PlanCodexTrust(const std::string& hooks_json_path, const std::string& hooks_before,
                      const std::string& hooks_after, const std::string& config_path, const SettingsText& config,
                      TrustChange* out);

}  // namespace causegate::install
