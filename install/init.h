// `causegate init`, as a library: for each agent, plan the edit of its
// settings file (read, merge, diff) and then apply it. Planning reads only;
// the command plans every agent before it writes anything, so one bad file
// leaves every file untouched.
// Tests: tests/unit/install/init_test.cc, tests/e2e/init_files.py.
#pragma once

#include <string>
#include <vector>

#include "evidence/status.h"
#include "install/registration.h"
#include "install/settings_file.h"

namespace causegate::install {

struct AgentChange {
  Agent agent = Agent::kClaudeCode;
  Edit kind = Edit::kAdd;
  std::string path;
  SettingsText before;
  EditResult edit;
  std::string backup_path;  // set by ApplyChange when a backup was written
  bool changed() const {
    return edit.remove_file || edit.after != before.text || (!before.exists && !edit.after.empty());
  }
};

// Reads the agent's settings file for scope and computes the edit.
// Errors ("PATH: what"): the file cannot be read, is not JSON, or its hooks
// section has an unexpected shape.
Status PlanChange(Agent agent, Scope scope, Edit edit, const std::string& binary, const Places& places,
                  AgentChange* out);

// Writes the planned edit (backup first). Nothing happens when !changed().
Status ApplyChange(AgentChange* change);

// One line for people: "claude-code: PATH: added Stop, SubagentStop (backup: ...)".
std::string DescribeChange(const AgentChange& change, bool dry_run);

// The agents in use for scope: those whose folder exists (AgentFolder).
std::vector<Agent> AgentsInUse(Scope scope, const Places& places);

}  // namespace causegate::install
