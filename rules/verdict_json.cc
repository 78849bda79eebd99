#include "rules/verdict_json.h"

#include <nlohmann/json.hpp>

namespace causegate::rules {

std::string VerdictToJson(const Verdict& verdict, const RuleSet& rules, const Outcome* outcome, int indent) {
  using nlohmann::json;
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
              {"claims", std::move(claims)}};
  if (verdict.diagnostic_rule >= 0) out["diagnostic_rule"] = rules.rule(verdict.diagnostic_rule).id;
  if (outcome) {
    out["action"] = ActionName(outcome->action);
    if (!outcome->reason.empty()) out["reason"] = outcome->reason;
    if (!outcome->system_message.empty()) out["system_message"] = outcome->system_message;
    if (outcome->block_number > 0) out["block_number"] = outcome->block_number;
  }
  return out.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace causegate::rules
