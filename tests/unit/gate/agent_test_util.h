// Helpers for the agent adapter tests: the built-in rule set, a private
// state folder (XDG_STATE_HOME) per test so session logs and loop counters
// never leak between tests, and the outcomes every adapter renders.
#pragma once

#include <stdlib.h>

#include <cstdlib>
#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "gate/gate.h"
#include "unit/evidence/test_util.h"

namespace causegate::gate::testing {

inline const rules::RuleSet& BuiltinRules() {
  static const std::shared_ptr<const rules::RuleSet> set = [] {
    std::shared_ptr<const rules::RuleSet> s;
    if (!rules::LoadRuleSet("", &s).ok()) std::abort();
    return s;
  }();
  return *set;
}

// Points XDG_STATE_HOME at a fresh folder for the scope's lifetime.
class StateScope {
 public:
  StateScope() {
    const char* old = std::getenv("XDG_STATE_HOME");
    if (old != nullptr) old_ = old;
    had_old_ = old != nullptr;
    setenv("XDG_STATE_HOME", dir_.path().c_str(), 1);
  }
  ~StateScope() {
    if (had_old_) {
      setenv("XDG_STATE_HOME", old_.c_str(), 1);
    } else {
      unsetenv("XDG_STATE_HOME");
    }
  }
  StateScope(const StateScope&) = delete;
  StateScope& operator=(const StateScope&) = delete;
  const evidence::testing::TempDir& dir() const { return dir_; }

 private:
  evidence::testing::TempDir dir_;
  std::string old_;
  bool had_old_ = false;
};

inline rules::Outcome BlockOutcome() {
  rules::Outcome o;
  o.action = rules::Action::kBlock;
  o.reason = "causegate blocked this stop: test reason";
  o.block_number = 1;
  return o;
}

inline rules::Outcome UnprovenOutcome() {
  rules::Outcome o;
  o.action = rules::Action::kAllowUnproven;
  o.system_message = "causegate: let through unproven";
  return o;
}

// The answers of an agent that takes {"decision", "reason"} to send the
// agent back and {"systemMessage"} (when warns_in_answer) for an unproven
// turn; nothing to allow.
inline void CheckDecisionAnswers(const HookRequest& request, const char* block_decision, bool warns_in_answer) {
  using nlohmann::json;
  CHECK(RenderHookOutput(request, rules::Outcome()).empty());
  CHECK(json::parse(RenderHookOutput(request, BlockOutcome())) ==
        json{{"decision", block_decision}, {"reason", BlockOutcome().reason}});
  const std::string warn = RenderHookOutput(request, UnprovenOutcome());
  if (warns_in_answer) {
    CHECK(json::parse(warn) == json{{"systemMessage", UnprovenOutcome().system_message}});
  } else {
    CHECK(warn.empty());
  }
}

// A claim no tool output supports, and the tool output that would.
inline constexpr const char* kClaim = "The export failed because the disk is full.";
inline constexpr const char* kDfOutput = "/dev/nvme1n1p1  500G  500G     0 100% /srv";
inline constexpr const char* kPrompt = "why did the nightly export fail?";

}  // namespace causegate::gate::testing
