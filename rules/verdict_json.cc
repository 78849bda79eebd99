#include "rules/verdict_json.h"

#include <nlohmann/json.hpp>

#include "rules/sentence_shape.h"

namespace causegate::rules {
namespace {

using nlohmann::json;

// "protocol": each step seen or not with the calls that show it, every
// call's step, the symptoms and the next step (server/API.md).
json ProtocolJson(const ProtocolSteps& p, const RuleSet& rules) {
  json steps = json::object();
  for (int i = 0; i < kProtocolStepCount; ++i) {
    const auto step = static_cast<ProtocolStep>(i);
    const StepEvidence& e = p.step(step);
    json sj = {{"seen", e.seen}, {"tool_calls", e.tool_calls}};
    if (!e.text.empty()) sj["text"] = e.text;
    if (e.rule >= 0) sj["rule"] = rules.rule(e.rule).id;
    steps[ProtocolStepName(step)] = std::move(sj);
  }
  json calls = json::array();
  for (const StepCall& c : p.calls) {
    json cj = {{"id", c.id}, {"tool", c.tool}, {"label", c.label}, {"step", CallStepName(c.step)},
               {"turns_back", c.turns_back}, {"failed", c.failed}};
    if (!c.probe_kind.empty()) cj["probe_kind"] = c.probe_kind;
    if (c.rule >= 0) cj["rule"] = rules.rule(c.rule).id;
    if (c.baseline >= 0) {
      cj["baseline"] = p.calls[static_cast<std::size_t>(c.baseline)].id;
      cj["changed"] = c.changed;
    }
    calls.push_back(std::move(cj));
  }
  json symptoms = json::array();
  for (const Symptom& s : p.symptoms) {
    json sj = {{"name", s.name}, {"source", SymptomSourceName(s.source)}, {"rule", rules.rule(s.rule).id}};
    if (!s.call_id.empty()) sj["tool_call"] = s.call_id;
    symptoms.push_back(std::move(sj));
  }
  json out = {{"steps", std::move(steps)},
              {"calls", std::move(calls)},
              {"symptoms", std::move(symptoms)},
              {"next_step", NextStepName(p.next())},
              {"earlier_turns", p.earlier_turns}};
  if (p.follow_up_rule >= 0) out["follow_up_rule"] = rules.rule(p.follow_up_rule).id;
  return out;
}

json SentenceScores(const Verdict& verdict, const RuleSet& rules, bool all_sentences) {
  json out = json::array();
  for (std::size_t i = 0; i < verdict.scores.size() && i < verdict.message.sentences.size(); ++i) {
    const ClaimScore& score = verdict.scores[i];
    if (!score.scored && !all_sentences) continue;
    const Sentence& s = verdict.message.sentences[i];
    const std::size_t unit = static_cast<std::size_t>(s.unit);
    json features = json::array();
    for (const FeatureWeight& f : score.features) features.push_back({{"name", f.feature}, {"weight", f.weight}});
    json sj = {{"sentence", s.text},
               {"offset", s.offset},
               {"unit", UnitKindName(unit < verdict.message.units.size() ? verdict.message.units[unit].kind
                                                                          : UnitKind::kParagraph)},
               {"claim", score.claim},
               {"score", score.score},
               {"features", std::move(features)}};
    if (score.rule >= 0) sj["rule"] = rules.rule(score.rule).id;
    // The decision of the packs alone, before the scorer: for measuring the
    // scorer against them.
    const SentenceClass& c = verdict.sentences[i];
    sj["rules_only"] = c.assertive() && (verdict.diagnostic_rule >= 0 || c.names_failure());
    if (!score.overruled.empty()) sj["overruled"] = score.overruled;
    if (score.shape_weighed) sj["shape_score"] = score.shape_score;
    if (score.by_shape) sj["by_shape"] = true;
    // Every shape n-gram and context feature, for fitting the shape model
    // (bench/quality/fit_shapes.py).
    if (all_sentences) {
      sj["shapes"] = ShapeFeatures(verdict.message.sentences[i].masked);
      json context = json::array();
      for (const std::string_view name : ShapeContext(c, verdict.shape_turn())) {
        context.push_back(std::string(name));
      }
      sj["context"] = std::move(context);
    }
    out.push_back(std::move(sj));
  }
  return out;
}

}  // namespace

std::string SentenceScoresToJson(const Verdict& verdict, const RuleSet& rules, bool all_sentences, int indent) {
  return SentenceScores(verdict, rules, all_sentences).dump(indent, ' ', false, json::error_handler_t::replace);
}

std::string VerdictToJson(const Verdict& verdict, const RuleSet& rules, const Outcome* outcome, int indent,
                          bool scored_sentences) {
  json claims = json::array();
  for (const Claim& claim : verdict.claims) {
    const Sentence& s = verdict.message.sentences[static_cast<std::size_t>(claim.sentence)];
    json citations = json::array();
    for (const CitationCheck& c : claim.citations) {
      const Fragment& f = verdict.message.fragments[static_cast<std::size_t>(c.fragment)];
      json cj = {{"fragment", f.text},
                 {"origin", FragmentOriginName(f.origin)},
                 {"offset", f.offset},
                 {"found_in", evidence::SourceName(c.source)}};
      if (!c.tool.empty()) {
        cj["tool_call"] = {{"id", c.call_id}, {"tool", c.tool}, {"command", c.command},
                           {"turns_back", c.turns_back}, {"line", c.line}};
        if (!c.excerpt.empty()) cj["excerpt"] = c.excerpt;
      }
      citations.push_back(std::move(cj));
    }
    claims.push_back({{"sentence", s.text},
                      {"offset", s.offset},
                      {"length", s.text.size()},
                      {"rule", rules.rule(claim.rule).id},
                      {"finding", FindingName(claim.finding)},
                      {"lang", claim.chinese ? "zh" : "en"},
                      {"citations", std::move(citations)}});
  }
  json out = {{"decision", verdict.decision == Decision::kBlock ? "block" : "allow"},
              {"diagnostic_turn", verdict.diagnostic_rule >= 0},
              {"tool_calls", verdict.tool_calls},
              {"turns_read_back", verdict.turns_read_back},
              {"message_truncated", verdict.message_truncated},
              {"fragments_past_cap", verdict.fragments_past_cap},
              {"claims", std::move(claims)}};
  if (verdict.diagnostic_rule >= 0) out["diagnostic_rule"] = rules.rule(verdict.diagnostic_rule).id;
  out["protocol"] = ProtocolJson(verdict.protocol, rules);
  if (const GuessFix& g = verdict.guess_fix; g.found) {
    out["guess_fix"] = {{"edit_call", g.edit_call},
                        {"edit", g.edit_label},
                        {"edit_rule", g.edit_rule >= 0 ? rules.rule(g.edit_rule).id : ""},
                        {"hedge", g.hedge},
                        {"hedge_rule", g.hedge_rule >= 0 ? rules.rule(g.hedge_rule).id : ""},
                        {"lang", g.chinese ? "zh" : "en"}};
  } else {
    out["guess_fix"] = nullptr;
  }
  if (outcome) {
    out["action"] = ActionName(outcome->action);
    if (!outcome->reason.empty()) out["reason"] = outcome->reason;
    if (!outcome->system_message.empty()) out["system_message"] = outcome->system_message;
    if (!outcome->warning.empty()) out["warning"] = outcome->warning;
    if (outcome->block_number > 0) out["block_number"] = outcome->block_number;
  }
  if (scored_sentences) out["sentences"] = SentenceScores(verdict, rules, /*all_sentences=*/false);
  return out.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace causegate::rules
