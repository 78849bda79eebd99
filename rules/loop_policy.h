// What the gate does with a verdict, given how often it already sent this
// turn back (spec/judgement.md section 4, "Loop guard"). One policy for
// every agent: each adapter only says how many blocks came before.
// Tests: tests/unit/rules/loop_policy_test.cc.
#pragma once

#include <string>

#include "rules/rule_set.h"
#include "rules/verdict.h"

namespace causegate::rules {

struct LoopPolicy {
  int max_blocks = 2;  // blocks per turn; the next unsupported stop is let through
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
};

// prior_blocks: blocks the gate already sent in this turn. last_reason: the
// reason of the newest of them ("" if none); a new reason never repeats it.
Outcome Decide(const Verdict& verdict, const RuleSet& rules, int prior_blocks,
               const std::string& last_reason, const LoopPolicy& policy);

}  // namespace causegate::rules
