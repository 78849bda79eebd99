// The default rule packs, compiled once for all batch tests.
#pragma once

#include <catch2/catch.hpp>

#include <memory>

#include "rules/rule_set.h"

namespace causegate::batch::testing {

inline std::shared_ptr<const rules::RuleSet> Rules() {
  static const std::shared_ptr<const rules::RuleSet> rules = [] {
    std::shared_ptr<const rules::RuleSet> r;
    REQUIRE(rules::LoadRuleSet("", &r).ok());
    return r;
  }();
  return rules;
}

}  // namespace causegate::batch::testing
