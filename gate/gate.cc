#include "gate/gate.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>

#include "evidence/transcript.h"
#include "gate/adapters.h"
#include "gate/loop_state.h"
#include "gate/session_log.h"

namespace causegate::gate {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The answer for a stop let through without a verdict, and why.
void AllowUnjudged(std::string_view why, GateResult* result) {
  result->not_judged = std::string(why);
  result->judged = true;
  result->output = RenderHookOutput(result->request, result->outcome);
}

}  // namespace

std::string_view NotJudgedReason(const HookRequest& request) {
  if (!request.subagent()) return "";
  const bool compaction = evidence::IsCompactionAgent(request.agent_id) ||
                          (!request.agent_transcript_path.empty() &&
                           evidence::IsCompactionTranscript(request.agent_transcript_path));
  return compaction ? kCompactionSummaryNote : "";
}

std::string_view NotJudgedReason(const evidence::Turn& turn) {
  return turn.compaction_summary ? kCompactionSummaryNote : "";
}

int PriorBlocks(const evidence::Turn& turn, bool continuing) {
  int ours = 0;
  // Feedback lines from other Stop hooks do not count against our limit.
  for (const std::string& reason : turn.stop_feedback) ours += adapters::IsOurFeedback(reason);
  // The transcript may lag behind the hook call; the agent's flag is a floor.
  if (continuing && ours == 0) ours = 1;
  return ours;
}

GateResult RunGate(std::string_view input, Agent agent, const rules::RuleSet& rules,
                   const GateOptions& options) {
  const auto start = Clock::now();
  HookRequest request;
  if (Status s = ParseHookInput(input, agent, &request); !s.ok()) {
    GateResult result;
    result.fail_open_reason = s.message();
    result.fail_open = FailOpen::kBadInput;
    return result;
  }
  const double parse_ms = MsSince(start);
  GateResult result = RunGateParsed(std::move(request), rules, options);
  result.read_ms += parse_ms;  // parsing the input counts as reading, as before
  return result;
}

GateResult RunGateParsed(HookRequest request, const rules::RuleSet& rules, const GateOptions& options) {
  GateResult result;
  const auto start = Clock::now();
  result.request = std::move(request);
  result.request.state_dir = options.state_dir;
  const HookRequest& req = result.request;
  if (req.kind == HookKind::kObserve) {
    // Cursor / Copilot observe-only events: log what they show; the stop
    // hook judges it later. Nothing is judged here.
    // A log that cannot be written costs that stop's judgement, never the
    // event's own answer (Cursor's "before" hooks wait for one).
    const Status logged = AppendToSessionLog(req);
    if (!logged.ok()) spdlog::warn("session log not written: {}", logged.message());
    result.recorded = logged.ok();
    result.judged = true;
    result.output = RenderHookOutput(req, result.outcome);
    result.read_ms = MsSince(start);
    return result;
  }
  // A compaction summary is allowed unread when the request names it, and
  // unjudged when its transcript shows it.
  if (const std::string_view why = NotJudgedReason(req); !why.empty()) {
    AllowUnjudged(why, &result);
    result.read_ms = MsSince(start);
    return result;
  }
  evidence::LastTurn last;
  if (Status s = LoadTurn(req, options.transcript_wait, &last); !s.ok()) {
    result.fail_open_reason = s.message();
    result.fail_open = FailOpen::kTranscript;
    return result;
  }
  result.turn = std::move(last.turn);
  result.read_ms = MsSince(start);
  if (const std::string_view why = NotJudgedReason(result.turn); !why.empty()) {
    AllowUnjudged(why, &result);
    return result;
  }

  TurnConfig config;
  config.loop = options.loop;
  if (options.configure) config = options.configure(req, result.turn);
  if (!config.skip_reason.empty()) {
    AllowUnjudged(config.skip_reason, &result);
    result.skipped_by_config = true;
    return result;
  }
  const rules::RuleSet& turn_rules = config.rules != nullptr ? *config.rules : rules;

  const auto judge_start = Clock::now();
  result.verdict = rules::JudgeTurn(result.turn, last.history.get(), turn_rules,
                                    options.scorer != nullptr ? *options.scorer : rules::ClaimScorer::Default(),
                                    options.shapes != nullptr ? *options.shapes : rules::ClaimScorer::ShapeModel());
  const std::vector<rules::Claim> warned = SetAsideWarnedClaims(config.config, turn_rules, &result.verdict);
  // From reading the counter to writing it back, one stop of this session
  // at a time; without the lock the stop is still judged, and may count
  // a block fewer.
  SessionStateLock lock;
  if (UsesLoopCounter(req.agent)) {
    if (Status s = LockLoopState(req, &lock); !s.ok()) spdlog::warn("loop counter not locked: {}", s.message());
  }
  result.prior_blocks = PriorBlocksFor(req, result.turn);
  const std::string last_reason = result.turn.stop_feedback.empty() ? "" : result.turn.stop_feedback.back();
  result.outcome = rules::Decide(result.verdict, turn_rules, result.prior_blocks, last_reason, config.loop);
  result.downgraded_by_config = ApplyWarnings(config.config, warned, turn_rules, &result.outcome);
  result.output = RenderHookOutput(req, result.outcome);
  RecordDecision(req, result.turn, result.verdict, result.outcome, result.prior_blocks);
  result.judged = true;
  result.judge_ms = MsSince(judge_start);
  return result;
}

}  // namespace causegate::gate
