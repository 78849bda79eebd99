// The verdict as JSON, the machine-readable form shared by `explain
// --format json`, the daemon's /v1/judge and `check --format json`. Schema:
// server/API.md ("Verdict object").
#pragma once

#include <string>

#include "rules/loop_policy.h"
#include "rules/rule_set.h"
#include "rules/verdict.h"

namespace causegate::rules {

// Compact JSON text of the verdict and, when given, the outcome. Besides
// the claims it carries
//   "protocol": {"steps": {"probe"|"hypothesis"|"smoke"|"control"|"assert":
//                  {"seen": bool, "tool_calls": [id, ...], "text"?, "rule"?}},
//                "calls": [{"id", "tool", "label", "step", "probe_kind"?,
//                  "rule"?, "baseline"?, "changed"?, "turns_back", "failed"}],
//                "symptoms": [{"name", "source": "claim"|"prompt"|"tool_output",
//                  "rule", "tool_call"?}],
//                "next_step": "probe"|"hypothesis+smoke"|"smoke"|"control"|"cite",
//                "earlier_turns": n, "follow_up_rule"?}
//   "guess_fix": null or {"edit_call", "edit", "edit_rule", "hedge",
//                "hedge_rule", "lang"}
// and, with an outcome, "warning" when the allowed stop carries one. With
// scored_sentences, also "sentences": SentenceScoresToJson's array for the
// sentences the scorer weighed (`explain --format json`).
std::string VerdictToJson(const Verdict& verdict, const RuleSet& rules, const Outcome* outcome,
                          int indent = -1, bool scored_sentences = false);

// How the claim scorer read each sentence that it scored (rules/claim_scorer.h):
//   [{"sentence", "offset", "unit": "paragraph"|"heading"|"list-item"|
//     "table-cell"|"html", "claim": bool, "score", "rule"?, "overruled"?,
//     "rules_only": bool (the packs' own decision, before the scorer),
//     "features": [{"name", "weight"}, ...]}]
// With all_sentences, every prose sentence, scored or not (for fitting the
// scorer: bench/quality/fit_scorer.py).
std::string SentenceScoresToJson(const Verdict& verdict, const RuleSet& rules, bool all_sentences,
                                 int indent = -1);

}  // namespace causegate::rules
