// The verdict as JSON, the machine-readable form shared by `explain
// --format json`, the daemon's /v1/judge and `check --format json`. Schema:
// server/API.md ("Verdict object").
#pragma once

#include <string>

#include "rules/loop_policy.h"
#include "rules/rule_set.h"
#include "rules/verdict.h"

namespace causegate::rules {

// Compact JSON text of the verdict and, when given, the outcome.
std::string VerdictToJson(const Verdict& verdict, const RuleSet& rules, const Outcome* outcome,
                          int indent = -1);

}  // namespace causegate::rules
