// What the gate does with a verdict, given how often it already sent this
// turn back (spec/judgement.md section 4, "Loop guard"). One policy for
// every agent: each adapter only says how many blocks came before.
// Tests: tests/unit/rules/loop_policy_test.cc.
#pragma once

#include <string>
#include <string_view>

#include "rules/rule_set.h"
#include "rules/verdict.h"

namespace causegate::rules {

// What a guess-fix finding (rules/guess_fix.h) costs the agent.
enum class GuessFixMode {
  kWarn,   // allow, with Outcome::warning for the user (the default)
  kBlock,  // send the agent back, like an unsupported claim
  kOff,    // ignore it
};

const char* GuessFixModeName(GuessFixMode mode);  // "warn", "block", "off"
bool ParseGuessFixMode(std::string_view name, GuessFixMode* mode);

struct LoopPolicy {
  int max_blocks = 2;  // blocks per turn; the next unsupported stop is let through
  GuessFixMode guess_fix = GuessFixMode::kWarn;
  // The debug skill the block reason sends the agent to (the plugin's
  // skills/debug/SKILL.md); "" when the hook runs outside the plugin.
  std::string debug_skill;
};

enum class Action {
  kAllow,          // nothing unsupported
  kBlock,          // send the agent back with reason
  kAllowUnproven,  // unsupported, but the block limit is reached: warn the user
};

const char* ActionName(Action action);

struct Outcome {
  Action action = Action::kAllow;
  std::string reason;          // for kBlock: what the agent reads
  std::string system_message;  // for kAllowUnproven: what the user reads
  int block_number = 0;        // for kBlock: 1-based count within the turn
  // For kAllow: a warning for the user beside an allowed stop (a guess-fix
  // in warn mode); answers that can carry one show it as systemMessage.
  std::string warning;
};

// prior_blocks: blocks the gate already sent in this turn. last_reason: the
// reason of the newest of them ("" if none); a new reason never repeats it.
// A guess-fix in block mode counts like an unsupported claim (and against
// the same limit); in warn mode an allowed stop carries Outcome::warning,
// and a block or an unproven stop mentions it in its own text.
Outcome Decide(const Verdict& verdict, const RuleSet& rules, int prior_blocks,
               const std::string& last_reason, const LoopPolicy& policy);

}  // namespace causegate::rules
