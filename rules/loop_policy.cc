#include "rules/loop_policy.h"

#include "rules/reason.h"

namespace causegate::rules {

const char* ActionName(Action action) {
  switch (action) {
    case Action::kAllow: return "allow";
    case Action::kBlock: return "block";
    case Action::kAllowUnproven: return "allow-unproven";
  }
  return "unknown";
}

const char* GuessFixModeName(GuessFixMode mode) {
  switch (mode) {
    case GuessFixMode::kWarn: return "warn";
    case GuessFixMode::kBlock: return "block";
    case GuessFixMode::kOff: return "off";
  }
  return "unknown";
}

bool ParseGuessFixMode(std::string_view name, GuessFixMode* mode) {
  for (const GuessFixMode m : {GuessFixMode::kWarn, GuessFixMode::kBlock, GuessFixMode::kOff}) {
    if (name == GuessFixModeName(m)) {
      *mode = m;
      return true;
    }
  }
  return false;
}

Outcome Decide(const Verdict& verdict, const RuleSet& rules, int prior_blocks,
               const std::string& last_reason, const LoopPolicy& policy) {
  Outcome out;
  const bool guess_fix = verdict.guess_fix.found && policy.guess_fix != GuessFixMode::kOff;
  const bool guess_fix_blocks = guess_fix && policy.guess_fix == GuessFixMode::kBlock;
  if (verdict.decision == Decision::kAllow && !guess_fix_blocks) {
    if (guess_fix) out.warning = GuessFixWarning(verdict);
    return out;
  }
  const int n = verdict.unsupported();
  if (prior_blocks >= policy.max_blocks) {
    out.action = Action::kAllowUnproven;
    if (n == 0) {  // only the guess-fix was blocked
      out.system_message = GuessFixWarning(verdict);
      return out;
    }
    out.system_message =
        verdict.chinese()
            ? "causegate：本轮已被拦截 " + std::to_string(prior_blocks) + " 次，仍有 " + std::to_string(n) +
                  " 条因果断言没有工具输出佐证；已放行，请把其中的原因当作未经证实的假设。"
            : "causegate: this turn still has " + std::to_string(n) + " causal claim" + (n == 1 ? "" : "s") +
                  " without cited tool output after " + std::to_string(prior_blocks) + " block" +
                  (prior_blocks == 1 ? "" : "s") + "; it was let through unproven. Treat the stated cause as a hypothesis.";
    if (guess_fix) out.system_message += (verdict.chinese() ? "" : " ") + GuessFixNote(verdict);
    return out;
  }
  out.action = Action::kBlock;
  out.block_number = prior_blocks + 1;
  ReasonOptions options;
  options.block_number = out.block_number;
  options.max_blocks = policy.max_blocks;
  options.guess_fix = guess_fix;
  options.debug_skill = policy.debug_skill;
  out.reason = RenderReason(verdict, rules, options);
  if (out.reason == last_reason) {
    // Only possible when the count of earlier blocks was lost; say so rather
    // than repeat the same words (agents loop on identical feedback).
    out.reason += verdict.chinese() ? "\n（同样的问题仍然存在。）" : "\n(The same problem is still there.)";
  }
  return out;
}

}  // namespace causegate::rules
