// `causegate explain TRANSCRIPT`: the dry run for a person. Shows the turn
// the way the gate sees it: each prose sentence that matters and why (claim
// rule, hedge, exemption), each citation and the tool call whose output
// holds it, each finding, the verdict and the exact reason the agent would
// get. Colour only on a terminal and without NO_COLOR.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/turn_source.h"
#include "gate/gate.h"
#include "rules/reason.h"
#include "rules/verdict_json.h"

namespace causegate::cli {
namespace {

struct Style {
  bool on = false;
  std::string operator()(const char* code, const std::string& text) const {
    return on ? std::string("\033[") + code + "m" + text + "\033[0m" : text;
  }
};

std::string Quote(const std::string& s) { return "\"" + rules::Shorten(s, 200) + "\""; }

std::string FormatWeight(double w) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.2f", w);
  return buf;
}

// The debug-protocol steps (rules/protocol_steps.h): each call's step, the
// summary line and a guess-fix.
void PrintProtocol(const rules::Verdict& v, const rules::RuleSet& rules, const Style& c) {
  const rules::ProtocolSteps& p = v.protocol;
  std::printf("\n%s", c("1", "protocol steps:").c_str());
  if (p.earlier_turns > 0) std::printf(" (follow-up: %d earlier turn(s) included)", p.earlier_turns);
  std::printf("\n");
  for (const rules::StepCall& call : p.calls) {
    std::string step = rules::CallStepName(call.step);
    if (!call.probe_kind.empty()) step += ":" + call.probe_kind;
    if (call.rule >= 0) step += " (" + rules.rule(call.rule).id + ")";
    if (call.baseline >= 0) step += " (re-run of " + p.calls[static_cast<std::size_t>(call.baseline)].id + ": " + call.changed + ")";
    std::printf("  - %-24s %s%s\n", rules::Shorten(call.label, 24).c_str(), c("2", step).c_str(),
                call.turns_back > 0 ? (" [" + std::to_string(call.turns_back) + " turn(s) back]").c_str() : "");
  }
  std::printf("  %s\n", rules::StepSummaryLine(p).c_str());
  if (v.guess_fix.found) {
    std::printf("  %s %s after \"%s\" (%s)\n", c("31", "guess-fix:").c_str(), v.guess_fix.edit_label.c_str(),
                rules::Shorten(v.guess_fix.hedge, 120).c_str(), rules.rule(v.guess_fix.hedge_rule).id.c_str());
  }
}

void PrintText(const SelectedTurn& selected, const std::string& path, const rules::Verdict& v,
               const rules::RuleSet& rules, const rules::Outcome& outcome, int prior_blocks, const Style& c) {
  std::printf("%s %s", c("1", "transcript:").c_str(), path.c_str());
  if (selected.index > 0) std::printf(" (turn %d)", selected.index);
  std::printf("\n%s %s\n", c("1", "prompt:").c_str(), Quote(selected.turn.prompt).c_str());
  std::printf("%s %s\n", c("1", "diagnostic turn:").c_str(),
              v.diagnostic_rule >= 0 ? ("yes (" + rules.rule(v.diagnostic_rule).id + ")").c_str()
                                     : "no (only sentences that name a failure can be claims)");
  std::printf("%s %d in this turn", c("1", "tool calls:").c_str(), v.tool_calls);
  if (v.turns_read_back > 0) std::printf("; %d earlier turn(s) read for citations", v.turns_read_back);
  std::printf("\n");
  for (const evidence::ToolCall& call : selected.turn.tool_calls) {
    std::printf("  - %s %s\n", call.name.c_str(), rules::Shorten(call.command, 100).c_str());
  }
  PrintProtocol(v, rules, c);

  std::printf("\n%s\n", c("1", "sentences (claim scorer, threshold " +
                                   FormatWeight(rules::ClaimScorer::Default().threshold()) + "):").c_str());
  for (std::size_t i = 0; i < v.message.sentences.size() && i < v.scores.size(); ++i) {
    const rules::ClaimScore& score = v.scores[i];
    const rules::SentenceClass& sc = v.sentences[i];
    if (!score.scored && sc.hedge_rule < 0 && sc.exemption_rule < 0) continue;
    std::string why;
    if (!score.scored) {
      why = "no claim: no cue";
      if (sc.hedged()) why += "; hedged (" + rules.rule(sc.hedge_rule).id + ")";
      if (sc.exemption_rule >= 0) why += "; " + std::string(rules::RuleKindName(rules.rule(sc.exemption_rule).kind)) +
                                         " (" + rules.rule(sc.exemption_rule).id + ")";
    } else {
      why = std::string(score.claim ? "claim" : "no claim") + ", score " + FormatWeight(score.score);
      if (score.rule >= 0) why += " (" + rules.rule(score.rule).id + ")";
      if (!score.overruled.empty()) why += "; decided by: " + score.overruled;
    }
    std::printf("  %s %s\n", Quote(v.message.sentences[i].text).c_str(), c(score.claim ? "1" : "2", why).c_str());
    if (!score.scored) continue;
    // The decisive features: every one that moved the score, largest first.
    std::string line = "bias " + FormatWeight(rules::ClaimScorer::Default().bias());
    for (const rules::FeatureWeight& f : score.features) line += ", " + f.feature + " " + FormatWeight(f.weight);
    std::printf("      %s\n", c("2", line).c_str());
  }

  std::printf("\n%s %zu\n", c("1", "claims:").c_str(), v.claims.size());
  int n = 0;
  for (const rules::Claim& claim : v.claims) {
    const bool ok = claim.finding == rules::Finding::kSupported;
    std::printf(" %d. %s\n    rule %s, finding %s\n", ++n,
                Quote(v.message.sentences[static_cast<std::size_t>(claim.sentence)].text).c_str(),
                rules.rule(claim.rule).id.c_str(), c(ok ? "32" : "31", rules::FindingName(claim.finding)).c_str());
    if (claim.citations.empty()) std::printf("    no quoted fragment of 8+ characters (or 4+ Han) placed with it\n");
    for (const rules::CitationCheck& check : claim.citations) {
      const rules::Fragment& f = v.message.fragments[static_cast<std::size_t>(check.fragment)];
      std::printf("    quote %s (%s): found in %s", Quote(f.text).c_str(), rules::FragmentOriginName(f.origin),
                  evidence::SourceName(check.source));
      if (!check.tool.empty()) {
        std::printf(" of %s %s", check.tool.c_str(), Quote(rules::Shorten(check.command, 80)).c_str());
        std::printf(check.turns_back == 0 ? " (this turn" : " (%d turn(s) back", check.turns_back);
        if (check.line > 0) std::printf(", line %lld", static_cast<long long>(check.line));
        std::printf(")");
      }
      std::printf("\n");
      if (!check.excerpt.empty()) std::printf("      > %s\n", rules::Shorten(check.excerpt, 160).c_str());
    }
  }

  const bool block = outcome.action == rules::Action::kBlock;
  std::printf("\n%s %s", c("1", "verdict:").c_str(),
              c(block ? "1;31" : "1;32", rules::ActionName(outcome.action)).c_str());
  if (prior_blocks > 0) std::printf(" (after %d earlier block(s) in this turn)", prior_blocks);
  std::printf("\n");
  if (block) std::printf("\n%s\n%s\n", c("1", "reason the agent gets:").c_str(), outcome.reason.c_str());
  if (!outcome.warning.empty()) std::printf("\n%s\n%s\n", c("1", "warning the user gets:").c_str(), outcome.warning.c_str());
  if (!outcome.system_message.empty()) {
    std::printf("\n%s\n%s\n", c("1", "warning the user gets:").c_str(), outcome.system_message.c_str());
  }
}

void AddExplainCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("explain", "Show how the gate judges one turn of a saved transcript");
  struct Args {
    std::string path;
    int turn = 0;
    bool subagent = false;
    std::string format = "text";
    int max_blocks = 2;
  };
  auto args = std::make_shared<Args>();
  cmd->add_option("transcript", args->path, "Claude Code transcript (.jsonl)")->required();
  cmd->add_option("--turn", args->turn, "Turn number, from 1 (default: the last turn)")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--subagent", args->subagent, "The file is a subagent's own transcript");
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("--max-blocks", args->max_blocks, "Blocks per turn before a turn is let through");
  cmd->callback([&common, args] {
    std::shared_ptr<const rules::RuleSet> rules;
    if (Status s = rules::LoadRuleSet(common.rules_dir, &rules); !s.ok()) {
      std::fprintf(stderr, "causegate: %s\n", s.message().c_str());
      common.exit_code = 2;
      return;
    }
    // A compaction summary is no agent's answer (spec section 3): say so
    // instead of judging it, as the hook and check do.
    auto not_judged = [&args](std::string_view reason) {
      if (args->format == "json") {
        std::printf("%s\n", nlohmann::json({{"decision", "allow"}, {"not_judged", std::string(reason)}}).dump(2).c_str());
      } else {
        std::printf("verdict: allow (not judged: %.*s)\n", static_cast<int>(reason.size()), reason.data());
      }
    };
    if (evidence::IsCompactionTranscript(args->path)) {
      not_judged(gate::kCompactionSummaryNote);
      return;
    }
    SelectedTurn selected;
    const auto kind = args->subagent ? evidence::SessionKind::kSubagent : evidence::SessionKind::kMain;
    if (Status s = SelectTurn(args->path, kind, args->turn, &selected); !s.ok()) {
      std::fprintf(stderr, "causegate: %s\n", s.message().c_str());
      common.exit_code = 2;
      return;
    }
    if (const std::string_view reason = gate::NotJudgedReason(selected.turn); !reason.empty()) {
      not_judged(reason);
      return;
    }
    const rules::Verdict v = rules::JudgeTurn(selected.turn, selected.history.get(), *rules);
    const int prior = gate::PriorBlocks(selected.turn, /*continuing=*/false);
    rules::LoopPolicy policy;
    policy.max_blocks = args->max_blocks;
    const std::string last = selected.turn.stop_feedback.empty() ? "" : selected.turn.stop_feedback.back();
    const rules::Outcome outcome = rules::Decide(v, *rules, prior, last, policy);
    if (args->format == "json") {
      // The verdict object of server/API.md, plus how the scorer read each
      // scored sentence (rules/verdict_json.h).
      std::printf("%s\n", rules::VerdictToJson(v, *rules, &outcome, 2, /*scored_sentences=*/true).c_str());
    } else {
      Style style;
      style.on = isatty(STDOUT_FILENO) && !std::getenv("NO_COLOR");
      PrintText(selected, args->path, v, *rules, outcome, prior, style);
    }
    common.exit_code = outcome.action == rules::Action::kBlock ? 1 : 0;
  });
}

const Registrar kRegister(30, AddExplainCommand);

}  // namespace

}  // namespace causegate::cli
