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

Outcome Decide(const Verdict& verdict, const RuleSet& rules, int prior_blocks,
               const std::string& last_reason, const LoopPolicy& policy) {
  Outcome out;
  if (verdict.decision == Decision::kAllow) return out;
  const int n = verdict.unsupported();
  if (prior_blocks >= policy.max_blocks) {
    out.action = Action::kAllowUnproven;
    out.system_message =
        verdict.chinese()
            ? "causegate：本轮已被拦截 " + std::to_string(prior_blocks) + " 次，仍有 " + std::to_string(n) +
                  " 条因果断言没有工具输出佐证；已放行，请把其中的原因当作未经证实的假设。"
            : "causegate: this turn still has " + std::to_string(n) + " causal claim" + (n == 1 ? "" : "s") +
                  " without cited tool output after " + std::to_string(prior_blocks) + " block" +
                  (prior_blocks == 1 ? "" : "s") + "; it was let through unproven. Treat the stated cause as a hypothesis.";
    return out;
  }
  out.action = Action::kBlock;
  out.block_number = prior_blocks + 1;
  ReasonOptions options;
  options.block_number = out.block_number;
  options.max_blocks = policy.max_blocks;
  out.reason = RenderReason(verdict, rules, options);
  if (out.reason == last_reason) {
    // Only possible when the count of earlier blocks was lost; say so rather
    // than repeat the same words (agents loop on identical feedback).
    out.reason += verdict.chinese() ? "\n（同样的问题仍然存在。）" : "\n(The same problem is still there.)";
  }
  return out;
}

}  // namespace causegate::rules
