// The text an agent gets when its stop is blocked: each unsupported
// sentence with its finding and rule, what that finding means, the debug
// protocol in the claim's language (rules/protocol/*.md, compiled in), and
// the two ways out. Bounded by kMaxReasonChars, the agents' own cap.
// Tests: tests/unit/rules/reason_test.cc.
#pragma once

#include <cstddef>
#include <string>

#include "rules/rule_set.h"
#include "rules/verdict.h"

namespace causegate::rules {

inline constexpr std::size_t kMaxReasonChars = 10000;

struct ReasonOptions {
  int block_number = 1;  // this is the Nth block of the turn (1-based)
  int max_blocks = 2;    // after this many, the turn is let through
};

std::string RenderReason(const Verdict& verdict, const RuleSet& rules, const ReasonOptions& options);

// The protocol text in one language, from the compiled-in files.
std::string ProtocolText(bool chinese);

// s cut to at most max_chars code points, ending in "…" when cut.
std::string Shorten(const std::string& s, std::size_t max_chars);

}  // namespace causegate::rules
