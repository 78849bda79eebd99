#include "rules/claims.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace causegate::rules {

namespace {

constexpr std::string_view kColon = ": ";
constexpr std::string_view kHanColon = "：";

// Where the text after the first colon starts, or npos.
std::size_t AfterFirstColon(std::string_view text) {
  const std::size_t ascii = text.find(kColon);
  const std::size_t han = text.find(kHanColon);
  if (ascii == std::string_view::npos && han == std::string_view::npos) return std::string_view::npos;
  return ascii < han ? ascii + kColon.size() : han + kHanColon.size();
}

void AddHits(const RuleSet& rules, const Hits& more, Hits* hits) {
  std::vector<int> merged;
  merged.reserve(hits->rules.size() + more.rules.size());
  std::set_union(hits->rules.begin(), hits->rules.end(), more.rules.begin(), more.rules.end(),
                 std::back_inserter(merged));
  hits->rules = std::move(merged);
  hits->first.fill(-1);
  for (const int r : hits->rules) {
    int& first = hits->first[static_cast<std::size_t>(rules.rule(r).kind)];
    if (first < 0) first = r;
  }
}

}  // namespace

Hits MatchSentence(const RuleSet& rules, std::string_view masked) {
  Hits hits = rules.Match(Target::kSentence, masked);
  const std::size_t after = AfterFirstColon(masked);
  if (after != std::string_view::npos && after < masked.size()) {
    AddHits(rules, rules.Match(Target::kSentence, masked.substr(after)), &hits);
  }
  return hits;
}

SentenceClass ClassifySentence(const RuleSet& rules, std::string_view masked) {
  SentenceClass c;
  c.hits = MatchSentence(rules, masked);
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
  // Whether rule makes the prompt a diagnosis, once it is known which of
  // the two cancelling kinds of prompt matched.
  const auto counts = [](const Rule& rule, bool design_question, bool feature_request) {
    if (rule.kind != RuleKind::kDiagnosticPrompt) return false;
    if (design_question && (rule.tag == kWhyTag || rule.tag == kDesignQuestionTag)) return false;
    return !(feature_request && (rule.tag == kSymptomTag || rule.tag == kFeatureRequestTag));
  };
  if (rules.staged_first_match()) {
    // The cancelling rules first (few and small), then the first rule that
    // counts: the rules after it, often the large malfunction lists, are
    // never compiled.
    const auto tagged = [&](std::string_view tag) {
      return rules.FirstMatch(Target::kPrompt, prompt, [&](const Rule& rule) { return rule.tag == tag; }) >= 0;
    };
    const bool design_question = tagged(kDesignQuestionTag);
    const bool feature_request = tagged(kFeatureRequestTag);
    return rules.FirstMatch(Target::kPrompt, prompt,
                            [&](const Rule& rule) { return counts(rule, design_question, feature_request); });
  }
  const Hits hits = rules.Match(Target::kPrompt, prompt);
  bool design_question = false;
  bool feature_request = false;
  for (const int r : hits.rules) {
    design_question = design_question || rules.rule(r).tag == kDesignQuestionTag;
    feature_request = feature_request || rules.rule(r).tag == kFeatureRequestTag;
  }
  for (const int r : hits.rules) {
    if (counts(rules.rule(r), design_question, feature_request)) return r;
  }
  return -1;
}

}  // namespace causegate::rules
