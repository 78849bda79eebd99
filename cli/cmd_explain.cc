// `causegate explain TRANSCRIPT`: the dry run for a person. Shows the turn
// the way the gate sees it: each prose sentence that matters and why (claim
// rule, hedge, exemption), each citation and the tool call whose output
// holds it, each finding, the verdict and the exact reason the agent would
// get. Colour as --color says (auto: a terminal, without NO_COLOR or TERM=dumb).
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/shared_options.h"
#include "cli/text_wrap.h"
#include "cli/turn_source.h"
#include "evidence/nearest_lines.h"
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

// printf into a string: the whole view is wrapped at the end.
__attribute__((format(printf, 2, 3))) void Out(std::string* out, const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  if (n > 0) {
    const std::size_t at = out->size();
    out->resize(at + static_cast<std::size_t>(n) + 1);
    std::vsnprintf(out->data() + at, static_cast<std::size_t>(n) + 1, format, again);
    out->resize(at + static_cast<std::size_t>(n));
  }
  va_end(again);
}

// The debug-protocol steps (rules/protocol_steps.h): each call's step, the
// summary line and a guess-fix.
void PrintProtocol(const rules::Verdict& v, const rules::RuleSet& rules, const Style& c, std::string* out) {
  const rules::ProtocolSteps& p = v.protocol;
  Out(out, "\n%s", c("1", "protocol steps:").c_str());
  if (p.earlier_turns > 0) Out(out, " (follow-up: %d earlier turn(s) included)", p.earlier_turns);
  Out(out, "\n");
  for (const rules::StepCall& call : p.calls) {
    std::string step = rules::CallStepName(call.step);
    if (!call.probe_kind.empty()) step += ":" + call.probe_kind;
    if (call.rule >= 0) step += " (" + rules.rule(call.rule).id + ")";
    if (call.baseline >= 0) step += " (re-run of " + p.calls[static_cast<std::size_t>(call.baseline)].id + ": " + call.changed + ")";
    Out(out, "  - %-24s %s%s\n", rules::Shorten(call.label, 24).c_str(), c("2", step).c_str(),
                call.turns_back > 0 ? (" [" + std::to_string(call.turns_back) + " turn(s) back]").c_str() : "");
  }
  Out(out, "  %s\n", rules::StepSummaryLine(p).c_str());
  if (v.guess_fix.found) {
    Out(out, "  %s %s after \"%s\" (%s)\n", c("31", "guess-fix:").c_str(), v.guess_fix.edit_label.c_str(),
                rules::Shorten(v.guess_fix.hedge, 120).c_str(), rules.rule(v.guess_fix.hedge_rule).id.c_str());
  }
}

// Under a claim the gate did not find proven: the lines of this turn's
// tool output that share its words, the output the agent saw and did not
// quote, so a person can judge the block.
void PrintNearestLines(const std::string& claim, const evidence::Turn& turn, const Style& c, std::string* out) {
  const std::vector<evidence::NearLine> lines = evidence::NearestOutputLines(claim, turn.tool_calls);
  if (lines.empty()) {
    Out(out, "    %s\n", c("2", "no line of this turn's tool output shares its words").c_str());
    return;
  }
  Out(out, "    %s\n", c("2", "tool output it did not quote, nearest lines:").c_str());
  std::size_t call = lines.front().call + 1;  // none printed yet
  for (const evidence::NearLine& line : lines) {
    if (line.call != call) {
      call = line.call;
      const evidence::ToolCall& tool = turn.tool_calls[call];
      Out(out, "      %s %s\n", tool.name.c_str(), rules::Shorten(tool.command, 80).c_str());
    }
    Out(out, "        %lld: %s\n", static_cast<long long>(line.line), rules::Shorten(line.text, 240).c_str());
  }
}

void PrintText(const SelectedTurn& selected, const std::string& path, const rules::Verdict& v,
               const rules::RuleSet& rules, const rules::Outcome& outcome, int prior_blocks, const Style& c,
               std::string* out, std::string* verbatim) {
  Out(out, "%s %s", c("1", "transcript:").c_str(), path.c_str());
  if (selected.index > 0 && selected.count > 0) {
    Out(out, " (turn %d of %d)", selected.index, selected.count);
  } else if (selected.index > 0) {
    Out(out, " (turn %d)", selected.index);
  }
  Out(out, "\n%s %s\n", c("1", "prompt:").c_str(), Quote(selected.turn.prompt).c_str());
  Out(out, "%s %s\n", c("1", "diagnostic turn:").c_str(),
              v.diagnostic_rule >= 0 ? ("yes (" + rules.rule(v.diagnostic_rule).id + ")").c_str()
                                     : "no (only sentences that name a failure can be claims)");
  Out(out, "%s %d in this turn", c("1", "tool calls:").c_str(), v.tool_calls);
  if (v.turns_read_back > 0) Out(out, "; %d earlier turn(s) read for citations", v.turns_read_back);
  Out(out, "\n");
  for (const evidence::ToolCall& call : selected.turn.tool_calls) {
    Out(out, "  - %s %s\n", call.name.c_str(), rules::Shorten(call.command, 100).c_str());
  }
  PrintProtocol(v, rules, c, out);

  Out(out, "\n%s\n", c("1", "sentences (claim scorer, threshold " +
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
      if (score.by_shape) why += "; decided by: the sentence shape";
    }
    Out(out, "  %s %s\n", Quote(v.message.sentences[i].text).c_str(), c(score.claim ? "1" : "2", why).c_str());
    if (!score.scored) continue;
    // The decisive features: every one that moved the score, largest first.
    std::string line = "bias " + FormatWeight(rules::ClaimScorer::Default().bias());
    for (const rules::FeatureWeight& f : score.features) line += ", " + f.feature + " " + FormatWeight(f.weight);
    Out(out, "      %s\n", c("2", line).c_str());
    if (score.shape_weighed) {
      const rules::ClaimScorer& shapes = rules::ClaimScorer::ShapeModel();
      std::string terms = "sentence shape " + FormatWeight(score.shape_score) + " (threshold " +
                          FormatWeight(shapes.threshold()) + "): bias " + FormatWeight(shapes.bias());
      for (const rules::FeatureWeight& f : score.shape_features) terms += ", " + f.feature + " " + FormatWeight(f.weight);
      Out(out, "      %s\n", c("2", terms).c_str());
    }
  }

  Out(out, "\n%s %zu\n", c("1", "claims:").c_str(), v.claims.size());
  int n = 0;
  for (const rules::Claim& claim : v.claims) {
    const bool ok = claim.finding == rules::Finding::kSupported;
    Out(out, " %d. %s\n    rule %s, finding %s\n", ++n,
                Quote(v.message.sentences[static_cast<std::size_t>(claim.sentence)].text).c_str(),
                rules.rule(claim.rule).id.c_str(), c(ok ? "32" : "31", rules::FindingName(claim.finding)).c_str());
    if (claim.citations.empty()) Out(out, "    no quoted fragment of 8+ characters (or 4+ Han) placed with it\n");
    for (const rules::CitationCheck& check : claim.citations) {
      const rules::Fragment& f = v.message.fragments[static_cast<std::size_t>(check.fragment)];
      const bool nowhere = check.source == evidence::Source::kNowhere;
      Out(out, "    quote %s (%s): %s%s", Quote(f.text).c_str(), rules::FragmentOriginName(f.origin),
          nowhere ? "in no tool output" : "found in ", nowhere ? "" : evidence::SourceName(check.source));
      if (!check.tool.empty()) {
        Out(out, " of %s %s", check.tool.c_str(), Quote(rules::Shorten(check.command, 80)).c_str());
        Out(out, check.turns_back == 0 ? " (this turn" : " (%d turn(s) back", check.turns_back);
        if (check.line > 0) Out(out, ", line %lld", static_cast<long long>(check.line));
        Out(out, ")");
      }
      Out(out, "\n");
      if (!check.excerpt.empty()) Out(out, "      > %s\n", rules::Shorten(check.excerpt, 160).c_str());
    }
    if (!ok) PrintNearestLines(v.message.sentences[static_cast<std::size_t>(claim.sentence)].text, selected.turn, c, out);
  }

  const bool block = outcome.action == rules::Action::kBlock;
  Out(out, "\n%s %s", c("1", "verdict:").c_str(),
              c(block ? "1;31" : "1;32", rules::ActionName(outcome.action)).c_str());
  if (prior_blocks > 0) Out(out, " (after %d earlier block(s) in this turn)", prior_blocks);
  Out(out, "\n");
  // The texts the agent and the user get, as they get them: not wrapped.
  if (block) Out(verbatim, "\n%s\n%s\n", c("1", "reason the agent gets:").c_str(), outcome.reason.c_str());
  if (!outcome.warning.empty()) {
    Out(verbatim, "\n%s\n%s\n", c("1", "warning the user gets:").c_str(), outcome.warning.c_str());
  }
  if (!outcome.system_message.empty()) {
    Out(verbatim, "\n%s\n%s\n", c("1", "warning the user gets:").c_str(), outcome.system_message.c_str());
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
  cmd->add_option("transcript", args->path, "A Claude Code transcript or Codex rollout (.jsonl); - reads it from stdin")
      ->required();
  cmd->add_option("--turn", args->turn, "Turn number, from 1 (default: the last turn)")
      ->type_name("N")
      ->check(WholeNumber(1, std::numeric_limits<int>::max()));
  cmd->add_flag("--subagent", args->subagent,
                "The file is a subagent's own transcript (found by itself for Claude Code's agent-*.jsonl)");
  cmd->add_option("--format", args->format, "text or json")->check(CLI::IsMember({"text", "json"}));
  AddMaxBlocksOption(cmd, &args->max_blocks, "Blocks per turn before a turn is let through");
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
    // "-": the transcript on stdin, read from a temporary copy.
    StdinTranscript from_stdin;
    std::string path = args->path;
    if (path == kStdinName) {
      if (Status s = from_stdin.Read(); !s.ok()) {
        std::fprintf(stderr, "causegate: %s\n", s.message().c_str());
        common.exit_code = 2;
        return;
      }
      path = from_stdin.path();
    }
    if (evidence::IsCompactionTranscript(path)) {
      not_judged(gate::kCompactionSummaryNote);
      return;
    }
    SelectedTurn selected;
    // A subagent's own file (agent-*.jsonl) is read as one, as check does.
    evidence::TranscriptFormat format = evidence::TranscriptFormat::kUnknown;
    (void)evidence::DetectTranscriptFormat(path, &format);  // SelectTurn reports a bad file
    const auto kind = args->subagent ? evidence::SessionKind::kSubagent : evidence::SessionKindOf(path, format);
    if (Status s = SelectTurn(path, kind, args->turn, &selected); !s.ok()) {
      std::string message = s.message();
      if (path != args->path && message.rfind(path, 0) == 0) message = args->path + message.substr(path.size());
      std::fprintf(stderr, "causegate: %s\n", message.c_str());
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
      style.on = UseColor(common.color, STDOUT_FILENO);
      std::string text;
      std::string verbatim;
      PrintText(selected, args->path, v, *rules, outcome, prior, style, &text, &verbatim);
      std::fputs(WrapLines(text, OutputWidth()).c_str(), stdout);
      std::fputs(verbatim.c_str(), stdout);
    }
    common.exit_code = outcome.action == rules::Action::kBlock ? 1 : 0;
  });
}

const Registrar kRegister(30, AddExplainCommand);

}  // namespace

}  // namespace causegate::cli
