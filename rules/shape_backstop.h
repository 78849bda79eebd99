// A second opinion for the sentences the claim scorer let pass: the
// sentence-shape model (rules/sentence_shape.h), a logistic regression over
// the scorer's own features and the sentence's closed-class n-grams, fitted
// across writers by bench/quality/fit_shapes.py. It can only add a claim,
// never take one away, and only where the spec allows one: in a diagnosis
// turn, in a sentence its rule reaches (kShapeModelTagPrefix), not a heading or a
// label cell, with no hedge, negation, conditional, question or uncertainty
// in the clause that would carry the claim, and no trait the claim scorer
// holds against a claim. English and Chinese are two
// models in one weights file, fitted apart (a Chinese sentence's features
// are prefixed "zh:"). Mechanism statements with no
// connective ("metricsd only listens on loopback, so connections on the
// private interface find nothing bound") are where the packs' cues end;
// the measurement that chose it is in rules/QUALITY_HISTORY.md, the
// eleventh session.
// Tests: tests/unit/rules/shape_backstop_test.cc.
#pragma once

#include <string_view>
#include <vector>

#include "rules/claim_scorer.h"
#include "rules/claims.h"
#include "rules/rule_set.h"

namespace causegate::rules {

// The turn around a sentence, as the shape model reads it.
struct ShapeTurn {
  bool diagnosis = false;  // the spec's diagnosis turn (no claim outside one)
  bool tool_ran = false;   // a tool call in the judged turn
};

// The context features of a sentence ("c:" + each in the weights file):
// "no-tool" when a diagnosis turn ran no tool (an answer given from memory
// states its cause as it explains: "It's the layer order."), "failure"
// when the sentence names a failure (the claim scorer's own "failure" is
// only there for sentences it weighed). Few and general on purpose: they
// move every sentence of a turn, so they are what holds across writers.
std::vector<std::string_view> ShapeContext(const SentenceClass& whole, const ShapeTurn& turn);

// Weighs the sentence with the shape model when score is no claim and the
// rules allow one (above); on a claim sets score->claim, score->by_shape
// and score->rule to the shape-model rule.
// scorer is the claim scorer that weighed the sentence: a trait it holds
// strongly against a claim (a generic statement, a plan, the effect of the
// agent's own change, a rationale) keeps the model out too.
void ConsiderShape(const RuleSet& rules, const ClaimScorer& scorer, const ClaimScorer& shapes, std::string_view masked,
                   const SentenceClass& whole, const SentencePlace& place, const ShapeTurn& turn, ClaimScore* score);

}  // namespace causegate::rules
