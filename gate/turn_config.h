// The user's config applied to one turn, once the turn is read: which files
// the turn may trust, the user's skip token, and the "warn" switches (a
// rule's or the whole gate's) turning what would block into a message for
// the user. Why per turn: an agent that edits a config file during a turn
// must not weaken the gate for that same turn (README.md, "Configuration").
// Tests: tests/unit/gate/turn_config_test.cc.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/turn.h"
#include "gate/hook_input.h"
#include "gate/user_config_files.h"
#include "rules/loop_policy.h"
#include "rules/rule_set.h"
#include "rules/verdict.h"

namespace causegate::gate {

// The token a user writes in their prompt to let that one turn through.
inline constexpr std::string_view kSkipToken = "#causegate-skip";

// True when a tool call of the judged turn wrote or edited the file at path:
// a Write/Edit/MultiEdit (or another agent's file-writing tool) whose
// file_path is it, or a shell command whose text names a config file at
// all (.causegate.json, causegate/config.json): a command is not parsed,
// so any mention counts.
bool TurnWritesConfig(const evidence::Turn& turn, const std::string& cwd, const std::string& path);

// True when the user's own prompt carries kSkipToken. Never for a
// subagent: its task prompt is written by the agent.
bool UserSkipsTurn(const HookRequest& request, const evidence::Turn& turn);

// What a front-end settles for one turn (GateOptions::configure).
struct TurnConfig {
  std::shared_ptr<const rules::RuleSet> rules;  // null: the front-end's own
  MergedConfig config;
  rules::LoopPolicy loop;
  std::string skip_reason;  // set: let the turn through unjudged (mode off,
                            // the skip token); the front-end logs why
};

// Takes the unsupported claims whose rule is switched to "warn" out of
// verdict (they no longer count), and returns them.
std::vector<rules::Claim> SetAsideWarnedClaims(const MergedConfig& config, const rules::RuleSet& rules,
                                               rules::Verdict* verdict);

// Mode warn and warned rules: an outcome that blocks becomes a let-through
// whose system_message tells the user what would have blocked, and an
// allow that set warned claims aside says so too. Returns true when it
// changed the outcome.
bool ApplyWarnings(const MergedConfig& config, const std::vector<rules::Claim>& warned,
                   const rules::RuleSet& rules, rules::Outcome* outcome);

}  // namespace causegate::gate
