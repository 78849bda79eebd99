// Is a sentence a claim (spec/judgement.md section 2)? The rule packs no
// longer decide this alone: they supply features of the sentence's claim
// clause (which cue families matched, whether a hedge, negation, question,
// conditional, uncertainty or rationale stands in that clause or only
// elsewhere in the sentence, the `feature` rules' traits such as the agent
// as subject or a label naming the cause) and of its place in the message
// (heading, list item, table cell, first unit under a heading that names
// the cause), and a linear scorer fitted on real agent turns weighs them.
// The weights are data (rules/scorer/claim_weights.tsv, fitted by
// bench/quality/fit_scorer.py), so `explain` can show which features
// decided and a refit changes no code.
//
// Two rules of the spec stay hard, outside the weights: a sentence is a
// claim only in a diagnosis turn or when it names a failure itself, and a
// heading alone is never a claim. A user pack forces either way with a
// `feature` rule tagged "force-claim" or "force-exempt".
// Tests: tests/unit/rules/claim_scorer_test.cc.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "evidence/status.h"
#include "rules/claims.h"
#include "rules/clauses.h"
#include "rules/message.h"
#include "rules/rule_set.h"
#include "rules/shape_table.h"

namespace causegate::rules {

inline constexpr std::string_view kForceClaimTag = "force-claim";
inline constexpr std::string_view kForceExemptTag = "force-exempt";
// A `feature` tag read by the citation look-up, not by the scorer: an inline
// code span in a sentence it matches is a command proposed for the next
// probe, a plan, so found nowhere it fabricates nothing (spec section 2).
inline constexpr std::string_view kProposedCommandTag = "proposed-command";
// A `feature` tag read by the decision, not by the weights: a line (or a
// table row) labelled as the symptom ("Symptom: both pods in
// CrashLoopBackOff", "| 现象 | ... |") states what was seen, not its cause,
// so without a causal connective of its own it is no claim, whatever its
// failure words or the forms they match.
inline constexpr std::string_view kSymptomLabelTag = "symptom-label";
// `feature` tags read by the shape backstop (rules/shape_backstop.h):
// "shape-model:en" and "shape-model:zh". The sentences a rule of the tag
// matches are the ones that language's part of the sentence-shape model
// may weigh (a sentence with Han is Chinese, any other English), and the
// rule is the one a claim the model adds names, so a config can switch it
// off.
inline constexpr std::string_view kShapeModelTagPrefix = "shape-model:";

// The exemption kinds (spec section 2), by the feature name each is
// weighed under: in the claim's clause as the name, elsewhere in the
// sentence as name + "@sentence".
struct ExemptionFeature {
  RuleKind kind;
  std::string_view name;
};
inline constexpr ExemptionFeature kExemptions[] = {
    {RuleKind::kHedge, "hedge"},         {RuleKind::kQuestion, "question"},
    {RuleKind::kConditional, "conditional"}, {RuleKind::kNegation, "negation"},
    {RuleKind::kUncertainty, "uncertainty"}, {RuleKind::kRationale, "rationale"},
};

class ClaimScorer {
 public:
  // The weights compiled into the binary.
  static const ClaimScorer& Default();
  // The sentence-shape model's weights compiled into the binary
  // (rules/shape_backstop.h, rules/shape_table.h; its file has the same
  // format, with "p:" + a feature name above and "s:" + a shape n-gram,
  // rules/sentence_shape.h).
  static const ClaimScorer& ShapeModel();
  // Weights looked up in a table sorted by FeatureHash (rules/shape_table.h),
  // which must outlive the scorer.
  static ClaimScorer FromTable(double bias, double threshold, const HashedWeight* table, std::size_t size);
  // A scorer that takes nothing for a claim (what a broken embedded file
  // falls back to: the gate fails open).
  static ClaimScorer Never();

  // One "name<TAB>weight" per line; "#" starts a comment. "bias" and
  // "threshold" are required; "cue:*" is the weight of a claim rule whose
  // family has none of its own (a user pack's). Errors name the line.
  static Status Parse(std::string_view text, const std::string& file, ClaimScorer* out);

  // The feature's weight; 0 for a name the scorer does not know, except
  // claim-rule families, which fall back to "cue:*".
  double Weight(std::string_view feature) const;
  // The weight of prefix + name, without building that string.
  double Weight(std::string_view prefix, std::string_view name) const;
  // The weight of the feature whose FeatureHash is hash (rules/feature_hash.h);
  // 0 when unknown, with no "cue:*" fallback.
  double WeightOfHash(std::uint64_t hash) const;
  double bias() const { return bias_; }
  double threshold() const { return threshold_; }

 private:
  double WeightOfHash(std::uint64_t hash, bool* found) const;

  std::unordered_map<std::uint64_t, double> weights_;  // by FeatureHash of the name
  double bias_ = 0;
  double threshold_ = 0;
  double default_cue_ = 0;
  const HashedWeight* table_ = nullptr;  // set: weights_ is empty, look here instead
  std::size_t table_size_ = 0;
};

struct FeatureWeight {
  std::string feature;
  double weight = 0;
};

struct ClaimScore {
  // Some claim or feature rule matched: the sentence was scored at all.
  bool scored = false;
  bool claim = false;
  double score = 0;  // bias + the weights of `features`; a claim at >= threshold
  // The rule a reason names: the first claim rule of the claim clause, or
  // the feature rule that carried the claim when no claim rule matched.
  int rule = -1;
  ClauseSpan clause;                   // the claim clause, in the masked sentence
  std::vector<FeatureWeight> features;  // every feature present, largest |weight| first
  // Set when a hard rule decided instead of the weights: "heading",
  // "no diagnosis and no failure named", "forced claim (rule id)",
  // "forced exempt (rule id)".
  std::string overruled;
  // Set when the sentence-shape model weighed the sentence
  // (rules/shape_backstop.h): its score (a claim at >= its own threshold);
  // by_shape, with its largest terms, when that made the sentence a claim.
  bool shape_weighed = false;
  bool by_shape = false;
  double shape_score = 0;
  std::vector<FeatureWeight> shape_features;
};

// Where a sentence stands, for its structure features. A unit that a
// cause-naming heading, lead-in or row label introduces can be a claim with
// no cue of its own ("## Why it broke" and then the paragraph; "It fails
// because:" and then the list; "| Cause | the cron job |", or a cell in a
// column headed "Cause").
struct SentencePlace {
  UnitKind unit = UnitKind::kParagraph;
  bool first_under_cause_heading = false;  // first unit under a heading that names a cause
  bool under_cause_heading = false;        // any unit of such a section
  bool after_cause_lead_in = false;        // a list item after "...because:" / "原因如下："
  bool in_cause_row = false;               // a table cell whose row label or column header names a cause
  bool first_in_unit = false;              // the unit's first sentence
  bool leads_list = false;                 // the last sentence of a unit a list follows ("... because:")
  // A table cell that labels other cells with a cause ("| Root cause | X |",
  // a "Cause" column's header): like a heading, no claim by itself; the
  // cells it labels are read as its line ("Root cause: X", spec section 2).
  bool labels_cause_cells = false;
  int rule = -1;  // the rule that made the heading, lead-in or label name a cause
  // For a cell in a cause row or column: the label cell's text. The cell is
  // read as that label's line ("| Cause | X |" as "Cause: X", spec section
  // 2), so it weighs as the label form, not as a place with no form.
  std::string_view cell_label;

  // The place alone introduces a cause here: the sentence is scored even
  // without a cue of its own.
  bool introduces_cause() const {
    return (first_under_cause_heading && first_in_unit) || (after_cause_lead_in && first_in_unit) || in_cause_row;
  }
};

// Where each sentence of one message stands. Read once per message: each
// unit's sentences, and for the units a heading, a lead-in or a row label
// stands for, whether that one names a cause (one RE2 pass each, however
// many sentences it introduces). Holds references: message and rules must
// outlive it.
class MessagePlaces {
 public:
  MessagePlaces(const RuleSet& rules, const Message& message);
  // sentence is one of message.sentences.
  SentencePlace Of(const Sentence& sentence) const;

 private:
  const Message& message_;
  std::vector<int> first_sentence_;  // per unit, -1 for none
  std::vector<int> last_sentence_;
  // Per unit: the rule by which it names a cause as a heading (any of its
  // sentences), a lead-in (its last sentence, ending with a colon) or a row
  // label (its first sentence, short); -1 when it does not or is none.
  std::vector<int> cause_rule_;
  std::vector<bool> leads_list_;  // per unit: a list item follows it as its lead-in
  std::vector<bool> labels_cells_;  // per unit: a row label or column head of other cells
};

// Scores one masked sentence. whole is ClassifySentence of the whole
// sentence (reused; clause passes run only where the sentence has more
// than one clause and a cue).
ClaimScore ScoreSentence(const RuleSet& rules, const ClaimScorer& scorer, std::string_view masked,
                         const SentenceClass& whole, const SentencePlace& place, bool diagnosis);

// The first `feature` rule among hits whose tag is tag, or -1: how the
// tags read outside the weights (a plan, a symptom label, a proposed
// command, the shape model's reach) are found.
int FeatureTagged(const RuleSet& rules, const Hits& hits, std::string_view tag);

// A trait of a clause: a `feature` rule that is no claim form ("form.*"),
// no forcing tag and not read elsewhere ("plan", "own-change", "generic",
// ...); weighed as "feature:" + its tag.
bool IsTrait(const Rule& rule);

// The claim-rule family a weight is kept under: the rule id without its
// pack prefix, so en.claim.because and zh.claim.because share
// "cue:claim.because" and Chinese gains from English training text; or the
// rule's tag when it has one, so a form kept in a rule of its own (its
// rarer words then decide when it is compiled) weighs as its family.
std::string CueFeature(const Rule& rule);

}  // namespace causegate::rules
