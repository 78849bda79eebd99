// The per-hook state Codex keeps in its config.toml: one table per hook,
// `[hooks.state."<hooks.json path>:<event>:<group>:<index>"]`, holding
// `trusted_hash = "sha256:..."` (and `enabled = false` for a hook the user
// switched off). These functions read and change only those tables and
// copy every other byte of the file through, comments included.
// Tests: tests/unit/install/hook_state_toml_test.cc.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "evidence/status.h"

namespace causegate::install {

struct HookState {
  bool found = false;        // something is written for the key
  std::string trusted_hash;  // "" when no trusted_hash string is written
  bool disabled = false;     // enabled = false
};

// The state written for key. Errors: text is not TOML as far as
// install/toml_scan.h reads it, or the key's state is an inline table.
Status ReadHookState(const std::string& text, const std::string& key, HookState* out);

struct HookStateEdit {
  std::vector<std::string> remove;                            // keys whose table goes
  std::vector<std::pair<std::string, std::string>> rename;    // old key -> new key (the hook moved)
  std::vector<std::pair<std::string, std::string>> set_hash;  // key -> "sha256:..."; a missing table is added
};

// Applies edit to text: removals first, then renames (one onto a key that
// keeps a table of its own is skipped), then hashes; a table that is added
// goes at the end, after a blank line. Removing the table appended to a
// file gives the file back as it was (if it ended in a newline). *out is
// text, byte for byte, when nothing changes.
// Errors (nothing is written then): text is not TOML as ScanToml reads it;
// a key to change is written in another form than its own [hooks.state."K"]
// table (dotted keys, an inline table, sub-tables) or twice; or a table
// must be added where `hooks` or `hooks.state` is an inline value.
Status EditHookState(const std::string& text, const HookStateEdit& edit, std::string* out);

}  // namespace causegate::install
