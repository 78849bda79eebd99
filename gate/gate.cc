#include "gate/gate.h"

#include <chrono>
#include <cstdlib>

#include "evidence/transcript.h"

namespace causegate::gate {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Claude Code documents "~/.claude/..." in examples; real inputs are absolute.
std::string ExpandHome(const std::string& path) {
  if (path.rfind("~/", 0) != 0) return path;
  const char* home = std::getenv("HOME");
  return home ? std::string(home) + path.substr(1) : path;
}

// Feedback lines from other Stop hooks do not count against our limit.
bool IsOurFeedback(const std::string& reason) {
  return reason.rfind("causegate", 0) == 0;
}

}  // namespace

int PriorBlocks(const evidence::Turn& turn, bool continuing) {
  int ours = 0;
  for (const std::string& reason : turn.stop_feedback) ours += IsOurFeedback(reason);
  // The transcript may lag behind the hook call; the agent's flag is a floor.
  if (continuing && ours == 0) ours = 1;
  return ours;
}

GateResult RunGate(std::string_view input, Agent agent, const rules::RuleSet& rules,
                   const GateOptions& options) {
  GateResult result;
  const auto start = Clock::now();
  if (Status s = ParseHookInput(input, agent, &result.request); !s.ok()) {
    result.fail_open_reason = s.message();
    return result;
  }
  const HookRequest& req = result.request;
  const std::string path = ExpandHome(req.subagent() && !req.agent_transcript_path.empty()
                                          ? req.agent_transcript_path
                                          : req.transcript_path);
  if (path.empty()) {
    result.fail_open_reason = "hook input: no transcript path";
    return result;
  }
  const auto kind = req.subagent() && !req.agent_transcript_path.empty() ? evidence::SessionKind::kSubagent
                                                                         : evidence::SessionKind::kMain;
  evidence::LastTurn last;
  if (Status s = evidence::ReadLastTurn(path, kind, &last); !s.ok()) {
    result.fail_open_reason = s.message();
    return result;
  }
  result.turn = std::move(last.turn);
  // The transcript is written asynchronously and may lag: the agent's own
  // copy of the final message wins.
  if (req.last_assistant_message) result.turn.final_message = *req.last_assistant_message;
  result.read_ms = MsSince(start);

  const auto judge_start = Clock::now();
  result.verdict = rules::JudgeTurn(result.turn, last.history.get(), rules);
  result.prior_blocks = PriorBlocks(result.turn, req.stop_hook_active);
  const std::string last_reason = result.turn.stop_feedback.empty() ? "" : result.turn.stop_feedback.back();
  result.outcome = rules::Decide(result.verdict, rules, result.prior_blocks, last_reason, options.loop);
  result.output = RenderHookOutput(req, result.outcome);
  result.judged = true;
  result.judge_ms = MsSince(judge_start);
  return result;
}

}  // namespace causegate::gate
