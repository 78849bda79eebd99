#include "rules/claim_scorer.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "rules/embedded.h"
#include "rules/feature_hash.h"
#include "rules/shape_table.h"
#include "rules/weights_file.h"

namespace causegate::rules {
namespace {

constexpr std::string_view kWeightsFile = "claim_weights.tsv";
constexpr std::string_view kCuePrefix = "cue:";
constexpr std::string_view kDefaultCue = "cue:*";
constexpr std::string_view kCauseHeadingTag = "cause-heading";
constexpr std::string_view kCauseLabelTag = "form.cause-label";
constexpr std::string_view kReasonLabelTag = "form.reason-label";

// The trait of a plan or an offer (en.feature.plan, zh.feature.plan).
constexpr std::string_view kPlanTag = "plan";

const char* UnitFeature(UnitKind kind) {
  switch (kind) {
    case UnitKind::kHeading: return "unit:heading";
    case UnitKind::kListItem: return "unit:list-item";
    case UnitKind::kTableCell: return "unit:table-cell";
    case UnitKind::kHtml: return "unit:html";
    case UnitKind::kParagraph: return nullptr;
  }
  return nullptr;
}

constexpr std::string_view kClaimFormPrefix = "form.";
constexpr std::string_view kLabelFormSuffix = "-label";

bool IsClaimForm(const Rule& rule) {
  return rule.kind == RuleKind::kFeature && rule.tag.compare(0, kClaimFormPrefix.size(), kClaimFormPrefix) == 0;
}

// A claim form that is a label naming the cause: form.cause-label,
// form.reason-label.
bool IsCauseLabel(const Rule& rule) {
  return IsClaimForm(rule) && rule.tag.size() > kLabelFormSuffix.size() &&
         rule.tag.compare(rule.tag.size() - kLabelFormSuffix.size(), kLabelFormSuffix.size(), kLabelFormSuffix) == 0;
}

// Feature tags read by something else than the weights: a heading's cause
// word (MessagePlaces), a proposed command (the citation look-up), a
// symptom label (the decision), the shape model's reach
// (rules/shape_backstop.h).
bool IsReadElsewhere(const Rule& rule) {
  return rule.tag == kCauseHeadingTag || rule.tag == kProposedCommandTag || rule.tag == kSymptomLabelTag ||
         rule.tag.compare(0, kShapeModelTagPrefix.size(), kShapeModelTagPrefix) == 0;
}


// A clause carries a claim when a claim rule or a claim-form feature
// ("form.*": identification, a cause label, ...) matches in it; the first
// such clause is the one a hedge or negation must stand in to count.
bool CarriesClaim(const RuleSet& rules, const Hits& hits) {
  if (hits.Has(RuleKind::kClaim)) return true;
  for (const int r : hits.rules) {
    const Rule& rule = rules.rule(r);
    if (IsClaimForm(rule) || (rule.kind == RuleKind::kFeature && rule.tag == kForceClaimTag)) return true;
  }
  return false;
}

// The claim form of hits with the largest weight, the first in pack order
// among equals; -1 when none matched.
int StrongestForm(const RuleSet& rules, const Hits& hits, const ClaimScorer& scorer) {
  int best = -1;
  double best_weight = 0;
  for (const int r : hits.rules) {
    const Rule& rule = rules.rule(r);
    if (!IsClaimForm(rule)) continue;
    const double w = scorer.Weight("feature:" + rule.tag);
    if (best < 0 || w > best_weight) {
      best = r;
      best_weight = w;
    }
  }
  return best;
}

void Add(std::vector<FeatureWeight>* out, std::string name, const ClaimScorer& scorer) {
  for (const FeatureWeight& f : *out) {
    if (f.feature == name) return;
  }
  const double w = scorer.Weight(name);
  out->push_back({std::move(name), w});
}

}  // namespace

namespace {

ClaimScorer LoadEmbedded(std::string_view name) {
  ClaimScorer s;
  const EmbeddedFile* file = FindEmbedded(name);
  // The embedded weights are checked by the tests; a failure is a build bug.
  if (file == nullptr || !ClaimScorer::Parse(file->contents, "<builtin>/" + std::string(name), &s).ok()) {
    return ClaimScorer::Never();
  }
  return s;
}

}  // namespace

ClaimScorer ClaimScorer::Never() {
  ClaimScorer s;
  s.threshold_ = 1e300;  // nothing is a claim: the gate fails open
  return s;
}

bool IsTrait(const Rule& rule) {
  return rule.kind == RuleKind::kFeature && !IsClaimForm(rule) && !IsReadElsewhere(rule) &&
         rule.tag != kForceClaimTag && rule.tag != kForceExemptTag;
}

const ClaimScorer& ClaimScorer::Default() {
  static const ClaimScorer scorer = LoadEmbedded(kWeightsFile);
  return scorer;
}

const ClaimScorer& ClaimScorer::ShapeModel() {
  static const ClaimScorer scorer =
      FromTable(shape_table::kBias, shape_table::kThreshold, shape_table::kWeights, shape_table::kWeightCount);
  return scorer;
}

Status ClaimScorer::Parse(std::string_view text, const std::string& file, ClaimScorer* out) {
  WeightsFile read;
  std::string error;
  if (!ReadWeightsFile(text, file, &read, &error)) return Status::Error(error);
  ClaimScorer s;
  s.bias_ = read.bias;
  s.threshold_ = read.threshold;
  for (const auto& [name, weight] : read.weights) s.weights_.emplace(FeatureHash(name), weight);
  if (auto it = s.weights_.find(FeatureHash(kDefaultCue)); it != s.weights_.end()) s.default_cue_ = it->second;
  *out = std::move(s);
  return Status::Ok();
}

ClaimScorer ClaimScorer::FromTable(double bias, double threshold, const HashedWeight* table, std::size_t size) {
  ClaimScorer s;
  s.bias_ = bias;
  s.threshold_ = threshold;
  s.table_ = table;
  s.table_size_ = size;
  return s;
}

double ClaimScorer::Weight(std::string_view feature) const {
  bool found = false;
  const double w = WeightOfHash(FeatureHash(feature), &found);
  if (found) return w;
  // A claim rule's family the file does not know weighs as "cue:*".
  return feature.compare(0, kCuePrefix.size(), kCuePrefix) == 0 ? default_cue_ : 0.0;
}

double ClaimScorer::Weight(std::string_view prefix, std::string_view name) const {
  return WeightOfHash(FeatureHash(prefix, name));
}

double ClaimScorer::WeightOfHash(std::uint64_t hash) const {
  bool found = false;
  return WeightOfHash(hash, &found);
}

double ClaimScorer::WeightOfHash(std::uint64_t hash, bool* found) const {
  if (table_ != nullptr) {
    const HashedWeight* end = table_ + table_size_;
    const HashedWeight* it =
        std::lower_bound(table_, end, hash, [](const HashedWeight& row, std::uint64_t key) { return row.hash < key; });
    *found = it != end && it->hash == hash;
    return *found ? it->weight : 0.0;
  }
  const auto it = weights_.find(hash);
  *found = it != weights_.end();
  return *found ? it->second : 0.0;
}

std::string CueFeature(const Rule& rule) {
  if (!rule.tag.empty()) return "cue:" + rule.tag;
  const std::size_t dot = rule.id.find('.');
  return "cue:" + (dot == std::string::npos ? rule.id : rule.id.substr(dot + 1));
}

namespace {

// The rule that makes a heading, a lead-in or a row label name a cause: a
// claim rule, a cause or reason label, or a heading's cause word; -1 for
// none.
int CauseNamingRule(const RuleSet& rules, std::string_view masked) {
  const Hits hits = rules.Match(Target::kSentence, masked);
  // A hedged, questioning, conditional or uncertain lead-in ("This could
  // be caused by:", "## Possible causes", "Is it one of these?") introduces
  // hypotheses: the spec's hedge qualifies what it labels, so its items and
  // section do not answer it as causes. A negation does not: "not because
  // X, but because:" asserts what follows.
  for (const RuleKind kind : {RuleKind::kHedge, RuleKind::kQuestion, RuleKind::kConditional, RuleKind::kUncertainty}) {
    if (hits.Has(kind)) return -1;
  }
  if (hits.Has(RuleKind::kClaim)) return hits.First(RuleKind::kClaim);
  for (const int r : hits.rules) {
    const Rule& rule = rules.rule(r);
    const bool names_cause =
        rule.tag == kCauseHeadingTag || rule.tag == kCauseLabelTag || rule.tag == kReasonLabelTag;
    if (rule.kind == RuleKind::kFeature && names_cause) return r;
  }
  return -1;
}

bool EndsWithColon(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '*' || text.back() == '\n')) text.remove_suffix(1);
  return (!text.empty() && text.back() == ':') || (text.size() >= 3 && text.substr(text.size() - 3) == "：");
}

// A row label is short: "Cause", "Root cause", "原因".
constexpr std::size_t kMaxRowLabelBytes = 40;

}  // namespace

MessagePlaces::MessagePlaces(const RuleSet& rules, const Message& message)
    : message_(message),
      first_sentence_(message.units.size(), -1),
      last_sentence_(message.units.size(), -1),
      cause_rule_(message.units.size(), -1),
      leads_list_(message.units.size(), false),
      labels_cells_(message.units.size(), false) {
  const std::size_t units = message.units.size();
  for (const Unit& unit : message.units) {
    if (unit.kind == UnitKind::kListItem && unit.lead_in >= 0 && static_cast<std::size_t>(unit.lead_in) < units) {
      leads_list_[static_cast<std::size_t>(unit.lead_in)] = true;
    }
  }
  for (std::size_t i = 0; i < message.sentences.size(); ++i) {
    const auto u = static_cast<std::size_t>(message.sentences[i].unit);
    if (u >= units) continue;
    if (first_sentence_[u] < 0) first_sentence_[u] = static_cast<int>(i);
    last_sentence_[u] = static_cast<int>(i);
  }
  // Each unit that another unit points at, read once in its role.
  std::vector<bool> read(units, false);
  auto sentence_rule = [&](int sentence) {
    return sentence < 0 ? -1 : CauseNamingRule(rules, message.sentences[static_cast<std::size_t>(sentence)].masked);
  };
  for (std::size_t k = 0; k < units; ++k) {
    const Unit& unit = message.units[k];
    if (unit.heading >= 0 && static_cast<std::size_t>(unit.heading) < units && !read[static_cast<std::size_t>(unit.heading)]) {
      const auto h = static_cast<std::size_t>(unit.heading);
      read[h] = true;
      for (int i = first_sentence_[h]; i >= 0 && i <= last_sentence_[h] && cause_rule_[h] < 0; ++i) {
        if (message.sentences[static_cast<std::size_t>(i)].unit == unit.heading) cause_rule_[h] = sentence_rule(i);
      }
    }
    if (unit.kind == UnitKind::kListItem && unit.lead_in >= 0 && static_cast<std::size_t>(unit.lead_in) < units &&
        !read[static_cast<std::size_t>(unit.lead_in)]) {
      const auto l = static_cast<std::size_t>(unit.lead_in);
      read[l] = true;
      const int last = last_sentence_[l];
      if (last >= 0 && EndsWithColon(message.sentences[static_cast<std::size_t>(last)].masked)) {
        cause_rule_[l] = sentence_rule(last);
      }
    }
    if (unit.kind != UnitKind::kTableCell) continue;
    // A row's label and a column's header are read alike: a short cell
    // whose first sentence names a cause.
    for (const int label : {unit.row_start, unit.column_head}) {
      if (label < 0 || static_cast<std::size_t>(label) >= units) continue;
      const auto r = static_cast<std::size_t>(label);
      if (r != k) labels_cells_[r] = true;
      if (read[r]) continue;
      read[r] = true;
      const int first = first_sentence_[r];
      if (first >= 0 && message.sentences[static_cast<std::size_t>(first)].masked.size() <= kMaxRowLabelBytes) {
        cause_rule_[r] = sentence_rule(first);
      }
    }
  }
}

SentencePlace MessagePlaces::Of(const Sentence& sentence) const {
  SentencePlace place;
  const auto u = static_cast<std::size_t>(sentence.unit);
  if (sentence.unit < 0 || u >= message_.units.size()) return place;
  const Unit& unit = message_.units[u];
  place.unit = unit.kind;
  place.first_in_unit = first_sentence_[u] >= 0 &&
                        &message_.sentences[static_cast<std::size_t>(first_sentence_[u])] == &sentence;
  place.leads_list = leads_list_[u] && last_sentence_[u] >= 0 &&
                     &message_.sentences[static_cast<std::size_t>(last_sentence_[u])] == &sentence;
  if (unit.heading >= 0 && cause_rule_[static_cast<std::size_t>(unit.heading)] >= 0) {
    place.under_cause_heading = true;
    place.first_under_cause_heading = unit.index_in_section == 0;
    place.rule = cause_rule_[static_cast<std::size_t>(unit.heading)];
  }
  if (unit.kind == UnitKind::kListItem && unit.lead_in >= 0 && cause_rule_[static_cast<std::size_t>(unit.lead_in)] >= 0) {
    place.after_cause_lead_in = true;
    place.rule = cause_rule_[static_cast<std::size_t>(unit.lead_in)];
  }
  if (unit.kind == UnitKind::kTableCell) {
    place.labels_cause_cells = labels_cells_[u] && cause_rule_[u] >= 0;
    for (const int label : {unit.row_start, unit.column_head}) {
      if (label < 0 || label == sentence.unit || cause_rule_[static_cast<std::size_t>(label)] < 0) continue;
      place.in_cause_row = true;
      place.rule = cause_rule_[static_cast<std::size_t>(label)];
      place.cell_label = message_.sentences[static_cast<std::size_t>(first_sentence_[static_cast<std::size_t>(label)])].masked;
      break;
    }
  }
  return place;
}

int FeatureTagged(const RuleSet& rules, const Hits& hits, std::string_view tag) {
  for (const int r : hits.rules) {
    if (rules.rule(r).kind == RuleKind::kFeature && rules.rule(r).tag == tag) return r;
  }
  return -1;
}

namespace {

bool IsPlan(const RuleSet& rules, const Hits& hits) { return FeatureTagged(rules, hits, kPlanTag) >= 0; }

// The hits of every clause but the plans and offers after the claim clause.
Hits HitsOutsideOffers(const RuleSet& rules, const std::vector<Hits>& by_clause, int claim_clause) {
  std::vector<int> kept;
  for (std::size_t c = 0; c < by_clause.size(); ++c) {
    if (static_cast<int>(c) > claim_clause && IsPlan(rules, by_clause[c])) continue;
    kept.insert(kept.end(), by_clause[c].rules.begin(), by_clause[c].rules.end());
  }
  return rules.HitsOf(std::move(kept));
}

}  // namespace

namespace {

// Weighs the sentence with clauses[claim_clause] as the clause that
// carries the claim (-1: the sentence is one clause, or no clause carries
// one alone and the whole sentence is read). by_clause: each clause's hits
// when there is more than one.
ClaimScore WeighClause(const RuleSet& rules, const ClaimScorer& scorer, std::string_view masked,
                       const SentenceClass& whole, const SentencePlace& place, bool diagnosis,
                       const std::vector<ClauseSpan>& clauses, const std::vector<Hits>& by_clause, int claim_clause) {
  ClaimScore out;
  out.clause = {0, masked.size()};
  out.scored = true;
  // Weighed for its place alone: neither the sentence nor a clause of it
  // carries a claim form.
  if (claim_clause < 0 && !CarriesClaim(rules, whole.hits)) Add(&out.features, "place-only", scorer);

  // The claim clause's own hits; the whole sentence's when it is one clause.
  // What the other clauses hold weighs apart (the "@sentence" features),
  // except a plan or offer after the claim ("..., and maybe we could move
  // the reindex", "，或许也可以调小并发"): its hedge and its "we" are the
  // offer's, not the finding's (spec section 2).
  Hits clause_hits = whole.hits;
  Hits elsewhere_hits = whole.hits;
  if (claim_clause >= 0) {
    out.clause = clauses[static_cast<std::size_t>(claim_clause)];
    clause_hits = by_clause[static_cast<std::size_t>(claim_clause)];
    bool offer_after = false;
    for (std::size_t c = static_cast<std::size_t>(claim_clause) + 1; c < by_clause.size(); ++c) {
      offer_after = offer_after || IsPlan(rules, by_clause[c]);
    }
    if (offer_after) elsewhere_hits = HitsOutsideOffers(rules, by_clause, claim_clause);
  }

  // A lead-in before a colon ("I'm sure of it: the 502s are due to X")
  // keeps its hedges and negations for the clause it introduces (a label
  // scopes over what it labels: "Hypothesis: X"), but its traits are its
  // own: the traits are read from the part that carries the claim.
  Hits trait_hits = clause_hits;
  const std::string_view clause_text = masked.substr(out.clause.begin, out.clause.end - out.clause.begin);
  if (const std::size_t colon = clause_text.find(": "); colon != std::string_view::npos) {
    Hits after = rules.Match(Target::kSentence, clause_text.substr(colon + 2));
    Hits before = rules.Match(Target::kSentence, clause_text.substr(0, colon));
    if (CarriesClaim(rules, after) && !CarriesClaim(rules, before)) trait_hits = std::move(after);
  }

  int force_rule = -1;
  // One cue family per clause, the first in pack order (the packs list the
  // specific before the general: root cause before because before acts-on),
  // and "cues:2+" when more match: the families are overlapping views of one
  // connective ("causing" is caused-by, acts-on and lead-to at once), and
  // summing them would let a stack of them outweigh a hedge.
  int cues = 0;
  for (const int r : clause_hits.rules) {
    const Rule& rule = rules.rule(r);
    if (rule.kind != RuleKind::kClaim) continue;
    if (cues++ == 0) Add(&out.features, CueFeature(rule), scorer);
  }
  if (cues > 1) Add(&out.features, "cues:2+", scorer);
  // Claim forms and forcing tags are read from the whole claim clause: a
  // label is a form across its colon ("Culprit: the cron job"); the traits
  // from the part that carries the claim. One claim form per clause, as
  // with the cue families, and "forms:2+" when more match: "the issue is in
  // the ORM" is identification and copula-cause at once, one assertion, and
  // summing the views let three of them outweigh the hedge of "This
  // suggests the issue is in the ORM".
  // Forms are counted by tag: en and zh both tag an arrow chain
  // form.arrow-chain, and one chain matched by both is one form. The form
  // that weighs is the strongest, not the first in pack order: "问题定位到了：
  // X 没有配置" is a discovery and a defect, and the defect, listed first,
  // weighed for both.
  const int feature_rule = StrongestForm(rules, clause_hits, scorer);
  for (const int r : clause_hits.rules) {
    const Rule& rule = rules.rule(r);
    if (rule.kind != RuleKind::kFeature || IsReadElsewhere(rule) || IsTrait(rule)) continue;
    if (rule.tag == kForceClaimTag && out.overruled.empty()) {
      out.overruled = "forced claim (" + rule.id + ")";
      force_rule = r;
    }
    if (rule.tag == kForceExemptTag) out.overruled = "forced exempt (" + rule.id + ")";
    if (IsClaimForm(rule) && r != feature_rule) {
      if (rule.tag != rules.rule(feature_rule).tag) Add(&out.features, "forms:2+", scorer);
      continue;
    }
    Add(&out.features, "feature:" + rule.tag, scorer);
  }
  for (const int r : trait_hits.rules) {
    if (IsTrait(rules.rule(r))) Add(&out.features, "feature:" + rules.rule(r).tag, scorer);
  }
  // Traits of the other clauses weigh apart ("..., and I raised the TTL"
  // says less about the claim clause than "I raised it because ...").
  for (const int r : elsewhere_hits.rules) {
    const Rule& rule = rules.rule(r);
    if (!IsTrait(rule)) continue;
    const std::string name = "feature:" + rule.tag;
    bool in_clause = false;
    for (const FeatureWeight& f : out.features) in_clause = in_clause || f.feature == name;
    if (!in_clause) Add(&out.features, name + "@sentence", scorer);
  }
  for (const ExemptionFeature& e : kExemptions) {
    if (clause_hits.Has(e.kind)) {
      Add(&out.features, std::string(e.name), scorer);
    } else if (elsewhere_hits.Has(e.kind)) {
      Add(&out.features, std::string(e.name) + "@sentence", scorer);
    }
  }
  if (whole.names_failure()) Add(&out.features, "failure", scorer);
  // A list item that opens with a cause label ("- Cause: X", "- 原因：X")
  // is a label line, the spec's own form, not list prose: it weighs apart
  // from the list items that only say why (fitted on real text, where most
  // of those are changes made and steps taken).
  const bool labelled_item = place.unit == UnitKind::kListItem && feature_rule >= 0 &&
                             IsCauseLabel(rules.rule(feature_rule));
  if (labelled_item) {
    Add(&out.features, "unit:labelled-item", scorer);
  } else if (const char* unit = UnitFeature(place.unit)) {
    Add(&out.features, unit, scorer);
  }
  if (place.first_under_cause_heading) {
    Add(&out.features, "section:first-under-cause-heading", scorer);
  } else if (place.under_cause_heading) {
    Add(&out.features, "section:under-cause-heading", scorer);
  }
  if (place.after_cause_lead_in) Add(&out.features, "section:after-cause-lead-in", scorer);
  if (place.in_cause_row) Add(&out.features, "section:cause-row", scorer);
  // A colon before a list leads in to it ("It fails because:"); a colon
  // before a code block or quote opens what shows the statement. They weigh
  // apart, and a colon before a block weighs only where no causal
  // connective stands before it: "Error message when uv is missing:" leads
  // in to the block, while "... so the norm blew up:" is a claim that then
  // shows its log lines (spec section 2 knows no colon; on train, the
  // sentences before a block with a cue that were no claim carried a plan,
  // a rationale or the agent's own change, which weigh on their own).
  if (EndsWithColon(masked)) {
    if (place.leads_list) {
      Add(&out.features, "ends-with-colon", scorer);
    } else if (cues == 0) {
      Add(&out.features, "colon-before-block", scorer);
    }
  }

  out.rule = clause_hits.First(RuleKind::kClaim) >= 0 ? clause_hits.First(RuleKind::kClaim) : feature_rule;
  if (out.rule < 0) out.rule = whole.claim_rule;
  if (out.rule < 0) out.rule = place.rule;
  out.score = scorer.bias();
  for (const FeatureWeight& f : out.features) out.score += f.weight;
  std::stable_sort(out.features.begin(), out.features.end(),
                   [](const FeatureWeight& a, const FeatureWeight& b) { return std::abs(a.weight) > std::abs(b.weight); });

  if (out.overruled.rfind("forced exempt", 0) == 0) {
    out.claim = false;
  } else if (out.overruled.rfind("forced claim", 0) == 0) {
    if (out.rule < 0) out.rule = force_rule;
    out.claim = true;
  } else if (cues == 0 && FeatureTagged(rules, whole.hits, kSymptomLabelTag) >= 0) {
    out.overruled = "symptom label";
  } else if (place.unit == UnitKind::kHeading) {
    out.overruled = "heading";
  } else if (place.labels_cause_cells) {
    out.overruled = "label cell";
  } else if (!diagnosis && !whole.names_failure()) {
    out.overruled = "no diagnosis and no failure named";
  } else {
    out.claim = out.score >= scorer.threshold() && out.rule >= 0;
  }
  return out;
}

}  // namespace

ClaimScore ScoreSentence(const RuleSet& rules, const ClaimScorer& scorer, std::string_view masked,
                         const SentenceClass& whole, const SentencePlace& place, bool diagnosis) {
  if (!place.cell_label.empty()) {
    // The cell with its label, as the label's line; where that line carries
    // no claim form ("| Why | ... |" is a place, not a label form) the cell
    // is weighed in its place, below.
    std::string line;
    line.reserve(place.cell_label.size() + 2 + masked.size());
    line.append(place.cell_label).append(": ").append(masked);
    SentencePlace as_line = place;
    as_line.cell_label = {};
    as_line.in_cause_row = false;
    const SentenceClass line_class = ClassifySentence(rules, line);
    if (CarriesClaim(rules, line_class.hits)) {
      ClaimScore out = ScoreSentence(rules, scorer, line, line_class, as_line, diagnosis);
      out.clause = {0, masked.size()};
      return out;
    }
  }
  // Each clause that carries a claim alone is weighed as the claim clause,
  // and the sentence is what its strongest clause is: "X appends into the
  // same object — that's why the second page has the first page's links"
  // claims in its last clause, whatever an earlier one holds (spec section
  // 2: the clause decides). A clause is read on its own even where the
  // whole sentence carries no claim: the forms that open a sentence ("the
  // crash loop is X") open a later clause too ("..., and the crash loop is X").
  const std::vector<ClauseSpan> clauses = SplitClauses(masked);
  std::vector<Hits> by_clause;
  std::vector<int> candidates;
  if (clauses.size() > 1) {
    for (const ClauseSpan& span : clauses) {
      by_clause.push_back(MatchSentence(rules, masked.substr(span.begin, span.end - span.begin)));
      if (CarriesClaim(rules, by_clause.back())) candidates.push_back(static_cast<int>(by_clause.size()) - 1);
    }
  }
  if (candidates.empty() && !CarriesClaim(rules, whole.hits) && !place.introduces_cause()) {
    ClaimScore out;
    out.clause = {0, masked.size()};
    return out;
  }
  if (candidates.empty()) return WeighClause(rules, scorer, masked, whole, place, diagnosis, clauses, by_clause, -1);
  ClaimScore best;
  for (const int c : candidates) {
    ClaimScore scored = WeighClause(rules, scorer, masked, whole, place, diagnosis, clauses, by_clause, c);
    const bool better = !best.scored || (scored.claim && !best.claim) || (scored.claim == best.claim && scored.score > best.score);
    if (better) best = std::move(scored);
  }
  return best;
}

}  // namespace causegate::rules
