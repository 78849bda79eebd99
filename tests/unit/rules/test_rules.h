// Shared helpers for rules/ tests: the default rule set, compiled once.
#pragma once

#include <memory>

#include "rules/rule_set.h"

namespace causegate::rules::testing {

inline const RuleSet& DefaultRules() {
  static const std::shared_ptr<const RuleSet> set = [] {
    std::shared_ptr<const RuleSet> s;
    if (!LoadRuleSet("", &s).ok()) std::abort();
    return s;
  }();
  return *set;
}

}  // namespace causegate::rules::testing
