#include "rules/shape_backstop.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "evidence/text_fold.h"
#include "rules/sentence_shape.h"

namespace causegate::rules {
namespace {

// Of the exemptions (kExemptions), all but a rationale qualify a clause so
// that it asserts no cause (spec section 2), whatever their weight; a
// rationale holds against a claim by its weight, as a trait does.
bool Qualifies(const ExemptionFeature& e) { return e.kind != RuleKind::kRationale; }

constexpr std::string_view kTraitPrefix = "feature:";
constexpr std::string_view kFormPrefix = "feature:form.";
// A trait the claim scorer weighs at or below this holds against a claim
// as the spec's exemptions do ("usually happens" is generic, "I'll check
// df since ..." a plan, "the new default keeps ..." the effect of the
// agent's own change): the shape model, fitted on few of them, must not
// overrule it.
constexpr double kHeldAgainst = -1.0;

constexpr std::string_view kChineseBias = "zh:bias";

// How many of the model's terms explain shows.
constexpr std::size_t kShownTerms = 6;

// The rule of hits tagged for the model's part in lang; -1 for none.
int ShapeRule(const RuleSet& rules, const Hits& hits, std::string_view lang) {
  return FeatureTagged(rules, hits, std::string(kShapeModelTagPrefix).append(lang));
}

// The clause that would carry the claim is qualified, or the claim scorer
// holds a trait of it against a claim: for a sentence the scorer weighed,
// by the features of its claim clause; for one it did not (no cue, so no
// clause was chosen), by what the whole sentence holds.
bool HeldAgainst(const RuleSet& rules, const ClaimScorer& scorer, const SentenceClass& whole, const ClaimScore& score) {
  if (score.scored) {
    return std::any_of(score.features.begin(), score.features.end(), [](const FeatureWeight& f) {
      for (const ExemptionFeature& e : kExemptions) {
        if (f.feature == e.name) return Qualifies(e) || f.weight <= kHeldAgainst;
      }
      const bool trait = f.feature.compare(0, kTraitPrefix.size(), kTraitPrefix) == 0 &&
                         f.feature.compare(0, kFormPrefix.size(), kFormPrefix) != 0 &&
                         f.feature.find('@') == std::string::npos;
      return trait && f.weight <= kHeldAgainst;
    });
  }
  for (const ExemptionFeature& e : kExemptions) {
    if (whole.hits.Has(e.kind) && (Qualifies(e) || scorer.Weight(e.name) <= kHeldAgainst)) return true;
  }
  for (const int r : whole.hits.rules) {
    const Rule& rule = rules.rule(r);
    if (IsTrait(rule) && scorer.Weight(kTraitPrefix, rule.tag) <= kHeldAgainst) return true;
  }
  return false;
}

// The model's terms of a sentence it took for a claim, largest first, for
// explain: the names are built only here, for the few sentences it adds.
std::vector<FeatureWeight> LargestTerms(const ClaimScorer& shapes, const std::vector<FeatureWeight>& scored,
                                        const std::vector<std::string_view>& context, std::string_view masked,
                                        std::string_view features, std::string_view context_prefix,
                                        std::string_view shapes_prefix) {
  std::vector<FeatureWeight> terms;
  for (const FeatureWeight& f : scored) {
    if (const double w = shapes.Weight(features, f.feature); w != 0) terms.push_back({std::string(features) + f.feature, w});
  }
  for (const std::string_view c : context) {
    if (const double w = shapes.Weight(context_prefix, c); w != 0) terms.push_back({std::string(context_prefix).append(c), w});
  }
  for (const std::string& gram : ShapeFeatures(masked)) {
    if (const double w = shapes.Weight(shapes_prefix, gram); w != 0) terms.push_back({std::string(shapes_prefix) + gram, w});
  }
  std::stable_sort(terms.begin(), terms.end(),
                   [](const FeatureWeight& a, const FeatureWeight& b) { return std::abs(a.weight) > std::abs(b.weight); });
  if (terms.size() > kShownTerms) terms.resize(kShownTerms);
  return terms;
}

}  // namespace

std::vector<std::string_view> ShapeContext(const SentenceClass& whole, const ShapeTurn& turn) {
  std::vector<std::string_view> context;
  if (turn.diagnosis && !turn.tool_ran) context.push_back("no-tool");
  if (whole.names_failure()) context.push_back("failure");
  return context;
}

void ConsiderShape(const RuleSet& rules, const ClaimScorer& scorer, const ClaimScorer& shapes, std::string_view masked,
                   const SentenceClass& whole, const SentencePlace& place, const ShapeTurn& turn, ClaimScore* score) {
  if (score->claim || !score->overruled.empty() || !turn.diagnosis) return;
  if (place.unit == UnitKind::kHeading || place.labels_cause_cells) return;
  // One file holds both languages' models: the Chinese one's features are
  // prefixed "zh:", and its intercept (moved to the shared threshold) is
  // the weight of "zh:bias".
  const bool chinese = evidence::CountHan(masked) > 0;
  const int rule = ShapeRule(rules, whole.hits, chinese ? "zh" : "en");
  if (rule < 0 || HeldAgainst(rules, scorer, whole, *score)) return;

  const std::string_view features = chinese ? "zh:p:" : "p:";
  const std::string_view context_prefix = chinese ? "zh:c:" : "c:";
  const std::string_view shapes_prefix = chinese ? "zh:s:" : "s:";
  const std::vector<std::string_view> context = ShapeContext(whole, turn);
  double total = shapes.bias() + (chinese ? shapes.Weight(kChineseBias) : 0.0);
  for (const FeatureWeight& f : score->features) total += shapes.Weight(features, f.feature);
  for (const std::string_view c : context) total += shapes.Weight(context_prefix, c);
  for (const std::uint64_t gram : ShapeHashes(masked, shapes_prefix)) total += shapes.WeightOfHash(gram);
  score->shape_weighed = true;
  score->shape_score = total;
  if (total < shapes.threshold()) return;
  score->claim = true;
  score->scored = true;
  score->by_shape = true;
  score->shape_features =
      LargestTerms(shapes, score->features, context, masked, features, context_prefix, shapes_prefix);
  // The model decided, so its rule is the one named: a config that warns
  // on it or switches it off governs every claim it adds.
  score->rule = rule;
}

}  // namespace causegate::rules
