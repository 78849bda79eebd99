// `causegate init`, as a library: for each agent, plan the edit of its
// settings file (read, merge, diff) and then apply it. Planning reads only;
// the command plans every agent before it writes anything, so one bad file
// leaves every file untouched.
// Tests: tests/unit/install/init_test.cc, tests/e2e/init_files.py.
#pragma once

#include <string>
#include <vector>

#include "evidence/status.h"
#include "install/codex_trust.h"
#include "install/registration.h"
#include "install/settings_file.h"

namespace causegate::install {

struct AgentChange {
  Agent agent = Agent::kClaudeCode;
  Edit kind = Edit::kAdd;
  Scope scope = Scope::kUser;
  std::string path;
  std::string folder;  // the agent's folder for scope (AgentFolder)
  SettingsText before;
  EditResult edit;
  std::string backup_path;  // set by ApplyChange when a backup was written
  // Codex: the trust entry in ~/.codex/config.toml (codex_trust.h); path ""
  // when there is none to plan (another agent, or HOME unset).
  TrustChange trust;
  std::string trust_backup_path;
  bool settings_changed() const {
    return edit.remove_file || edit.after != before.text || (!before.exists && !edit.after.empty());
  }
  bool changed() const { return settings_changed() || trust.changed(); }
};

// Reads the agent's settings file for scope and computes the edit.
// Errors ("PATH: what"): the file cannot be read, is not JSON, or its hooks
// section has an unexpected shape.
Status PlanChange(Agent agent, Scope scope, Edit edit, const HookCommand& command, const Places& places,
                  AgentChange* out);

// Writes the planned edit (backup first), then the trust entry. Nothing
// happens when !changed(). A project's agent folders that deleting the
// file causegate created leaves empty (.claude, .github/hooks) go too.
Status ApplyChange(AgentChange* change);

// One line for people: "claude-code: PATH: added Stop, SubagentStop (backup: ...)".
std::string DescribeChange(const AgentChange& change, bool dry_run);
// The line about Codex's trust entry ("" when there is nothing to say):
// "codex: ~/.codex/config.toml: recorded Codex's trust of the hook ...".
std::string DescribeTrust(const AgentChange& change, bool dry_run);

// The agents in use for scope: those whose folder exists (AgentFolder).
std::vector<Agent> AgentsInUse(Scope scope, const Places& places);

}  // namespace causegate::install
