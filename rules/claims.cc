#include "rules/claims.h"

namespace causegate::rules {

SentenceClass ClassifySentence(const RuleSet& rules, std::string_view masked) {
  SentenceClass c;
  c.hits = rules.Match(Target::kSentence, masked);
  c.claim_rule = c.hits.First(RuleKind::kClaim);
  c.hedge_rule = c.hits.First(RuleKind::kHedge);
  c.failure_rule = c.hits.First(RuleKind::kFailureWord);
  for (const RuleKind kind : {RuleKind::kQuestion, RuleKind::kConditional, RuleKind::kNegation,
                              RuleKind::kUncertainty}) {
    if (c.hits.Has(kind)) {
      c.exemption_rule = c.hits.First(kind);
      break;
    }
  }
  if (c.exemption_rule < 0 && c.hits.Has(RuleKind::kRationale) && !c.names_failure()) {
    c.exemption_rule = c.hits.First(RuleKind::kRationale);
  }
  return c;
}

int DiagnosticRule(const RuleSet& rules, std::string_view prompt) {
  const Hits hits = rules.Match(Target::kPrompt, prompt);
  bool design_question = false;
  bool feature_request = false;
  for (const int r : hits.rules) {
    design_question = design_question || rules.rule(r).tag == kDesignQuestionTag;
    feature_request = feature_request || rules.rule(r).tag == kFeatureRequestTag;
  }
  for (const int r : hits.rules) {
    const Rule& rule = rules.rule(r);
    if (rule.kind != RuleKind::kDiagnosticPrompt) continue;
    if (design_question && (rule.tag == kWhyTag || rule.tag == kDesignQuestionTag)) continue;
    if (feature_request && (rule.tag == kSymptomTag || rule.tag == kFeatureRequestTag)) continue;
    return r;
  }
  return -1;
}

}  // namespace causegate::rules
