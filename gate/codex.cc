// OpenAI Codex CLI's Stop and SubagentStop hooks (gate/HOOKS.md). The input
// follows Claude Code's field names (its schema requires session_id,
// turn_id, transcript_path, which may be null, stop_hook_active and
// last_assistant_message, which may be null); the transcript is the
// rollout JSONL, which evidence::ReadLastTurn recognises by its lines. The
// answer is {"decision":"block","reason":...}: Codex then continues with
// the reason as the next prompt. Codex has no cap of its own on repeated
// blocks, so the per-session counter (gate/loop_state.h) bounds the loop.
// Tests: tests/unit/gate/codex_test.cc.
#include <nlohmann/json.hpp>

#include "gate/adapters.h"

namespace causegate::gate::adapters {

Status ParseCodex(const Json& doc, HookRequest* out) {
  // Codex's Stop input uses Claude Code's field names, plus turn_id.
  if (Status s = ReadString(doc, "turn_id", &out->turn_id); !s.ok()) return s;
  if (Status s = ParseClaudeCode(doc, out); !s.ok()) return s;
  if (out->transcript_path.empty() && out->agent_transcript_path.empty()) {
    // transcript_path is null when Codex runs without a rollout file: the
    // tool calls of the turn cannot be known, so a verdict would be a guess.
    return Status::Error("codex hook input: transcript_path is null; the turn's tool calls cannot be read");
  }
  return Status::Ok();
}

std::string RenderCodex(const HookRequest& /*request*/, const rules::Outcome& outcome) {
  // Codex's output schema: decision, reason, systemMessage, continue,
  // stopReason, suppressOutput; nothing else is allowed.
  return DecisionOrWarning(outcome, "block");
}

}  // namespace causegate::gate::adapters
