// Which sentences are claims (spec/judgement.md section 2). A sentence is a
// claim when a claim rule matches it, no hedge and no exemption (question,
// conditional, negation, uncertainty) matches, and either the turn is a
// diagnosis (the prompt matches a diagnostic-prompt rule) or the sentence
// itself names a failure. A rationale rule exempts only sentences that name
// no failure: "I put X in Y because ..." is not a diagnosis, "the build
// failed because I put X in Y" is.
// Tests: tests/unit/rules/claims_test.cc.
#pragma once

#include <string_view>

#include "rules/rule_set.h"

namespace causegate::rules {

struct SentenceClass {
  Hits hits;
  int claim_rule = -1;      // first claim rule that matched
  int hedge_rule = -1;      // first hedge rule that matched
  int exemption_rule = -1;  // first question/conditional/negation/uncertainty/rationale rule that applies
  int failure_rule = -1;    // first failure-word rule

  bool causal() const { return claim_rule >= 0; }
  bool hedged() const { return hedge_rule >= 0; }
  bool names_failure() const { return failure_rule >= 0; }
  // Causal, not hedged, not exempt: assertive causal language.
  bool assertive() const { return causal() && !hedged() && exemption_rule < 0; }
};

// The rules that match a sentence or clause. The text after its first
// colon (": " or "：") is read as opening a sentence too, so that the forms
// read at a sentence's start hold after a lead-in ("jstat settles it: the
// old generation is full, and each pause is a full collection", "Right,
// that's it: it's a permissions problem"); the lead-in's own hedges and
// negations stay in the hits and keep their hold on what follows.
Hits MatchSentence(const RuleSet& rules, std::string_view masked);

// Classifies one masked sentence (rules/message.h): MatchSentence's hits.
SentenceClass ClassifySentence(const RuleSet& rules, std::string_view masked);

// The first diagnostic-prompt rule that matches the prompt, or -1. Two
// kinds of prompt cancel the rules that would otherwise make them one:
// - a "why" about how the code is built, or a question about how it works,
//   names no failure (spec section 2):
//   where a rule tagged kDesignQuestionTag matches, rules tagged kWhyTag do
//   not count, and only a symptom, a fix request or a debugging request
//   makes the turn a diagnosis ("why is the cache keyed on the user id?" is
//   none; "why is it keyed on the user id? the admin page 500s" is one);
// - a request to build something asks for no diagnosis though it names a
//   failure ("add a per-query timeout", "add retries to the flaky upload"):
//   where a rule tagged kFeatureRequestTag matches, rules tagged kSymptomTag
//   (a failure word or malfunction alone) do not count; a why, a fix or a
//   debugging request still does. Sentences that name a failure are judged
//   in any turn all the same.
inline constexpr std::string_view kWhyTag = "why";
inline constexpr std::string_view kDesignQuestionTag = "design-question";
inline constexpr std::string_view kSymptomTag = "symptom";
inline constexpr std::string_view kFeatureRequestTag = "feature-request";
int DiagnosticRule(const RuleSet& rules, std::string_view prompt);

}  // namespace causegate::rules
