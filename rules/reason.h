// The text an agent gets when its stop is blocked: each unsupported
// sentence with its finding and rule (and a guess-fix, when the policy
// reports one), where the turn stands in the debug protocol and the next
// step for its symptom (rules/protocol_advice.h), the report shape, and the
// two ways out, in the claim's language. The full protocol text
// (rules/protocol/*.md, compiled in) replaces the targeted paragraph when
// the agent did nothing at all, and joins it from the second block on.
// Bounded by kMaxReasonChars, the agents' own cap.
// Tests: tests/unit/rules/reason_test.cc.
#pragma once

#include <cstddef>
#include <string>

#include "rules/rule_set.h"
#include "rules/verdict.h"

namespace causegate::rules {

inline constexpr std::size_t kMaxReasonChars = 10000;

struct ReasonOptions {
  int block_number = 1;    // this is the Nth block of the turn (1-based)
  int max_blocks = 2;      // after this many, the turn is let through
  bool guess_fix = false;  // list verdict.guess_fix as a finding (when found)
  std::string debug_skill;  // path of the debug skill to point to ("" = none)
};

std::string RenderReason(const Verdict& verdict, const RuleSet& rules, const ReasonOptions& options);

// True when the reason carries the full protocol text: no tool call in the
// turn (nor in the earlier turns it follows up on), or the second block.
bool WantsFullProtocol(const Verdict& verdict, const ReasonOptions& options);

// The guess-fix in one sentence, in the verdict's language, for the user
// ("this turn edited loop.py to fix a cause it only hedged ..."), and the
// same as a stand-alone warning starting "causegate". "" when none.
std::string GuessFixNote(const Verdict& verdict);
std::string GuessFixWarning(const Verdict& verdict);

// The protocol text in one language, from the compiled-in files.
std::string ProtocolText(bool chinese);

// s cut to at most max_chars code points, ending in "…" when cut.
std::string Shorten(const std::string& s, std::size_t max_chars);

}  // namespace causegate::rules
