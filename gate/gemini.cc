// Gemini CLI's AfterAgent hook (gate/HOOKS.md). The input carries the
// user's request (prompt), the final text (prompt_response), the chat file
// (transcript_path) and stop_hook_active; the tool calls of the turn are
// only in the chat file, read by evidence/gemini_transcript.h. Without a
// readable chat file the gate cannot tell a probed claim from a guess, so
// it fails open (allows and says why) rather than judge the text alone,
// which would call every claim "no-probe".
//
// The answer to send the agent back is {"decision":"deny","reason":...}:
// Gemini rejects the response and sends the reason as a new prompt. That
// prompt then sits in the chat file as a user message starting with
// "causegate"; the reader counts it as feedback, not as a new turn. Gemini
// has no cap on retries (and before its PR #20439 stop_hook_active was
// always false), so the per-session counter (gate/loop_state.h) bounds it.
// Tests: tests/unit/gate/gemini_test.cc.
#include <nlohmann/json.hpp>

#include "evidence/gemini_transcript.h"
#include "gate/adapters.h"

namespace causegate::gate::adapters {

Status ParseGemini(const Json& doc, HookRequest* out) {
  for (auto [field, target] : {std::pair{"hook_event_name", &out->event}, {"session_id", &out->session_id},
                               {"cwd", &out->cwd}, {"transcript_path", &out->transcript_path},
                               {"prompt", &out->prompt}}) {
    if (Status s = ReadString(doc, field, target); !s.ok()) return s;
  }
  if (out->event.empty()) out->event = "AfterAgent";
  if (out->event != "AfterAgent") {
    return Status::Error("gemini hook input: event \"" + out->event + "\" is not AfterAgent");
  }
  if (Status s = ReadOptionalString(doc, "prompt_response", &out->last_assistant_message); !s.ok()) return s;
  return ReadBool(doc, "stop_hook_active", &out->stop_hook_active);
}

std::string RenderGemini(const HookRequest& /*request*/, const rules::Outcome& outcome) {
  return DecisionOrWarning(outcome, "deny");
}

Status LoadGeminiTurn(const HookRequest& request, evidence::LastTurn* out) {
  const std::string path = ExpandHome(request.transcript_path);
  if (path.empty()) {
    return Status::Error("gemini hook input: no transcript_path; without the chat file the turn's tool calls are unknown");
  }
  evidence::ChatReadOptions options;
  options.is_feedback = IsOurFeedback;
  return evidence::ReadGeminiLastTurn(path, options, out);
}

}  // namespace causegate::gate::adapters
