// Claude Code's Stop and SubagentStop hooks (gate/HOOKS.md): the input is
// one JSON object with transcript_path (and agent_transcript_path for a
// subagent), last_assistant_message and stop_hook_active; the answer is
// {"decision":"block","reason":...} to send the agent back,
// {"systemMessage":...} to warn the user, or nothing.
// Tests: tests/unit/gate/claude_code_test.cc.
#include <nlohmann/json.hpp>

#include "gate/adapters.h"

namespace causegate::gate::adapters {

Status ParseClaudeCode(const Json& doc, HookRequest* out) {
  for (auto [field, target] : {std::pair{"hook_event_name", &out->event}, {"session_id", &out->session_id},
                               {"cwd", &out->cwd}, {"transcript_path", &out->transcript_path},
                               {"agent_transcript_path", &out->agent_transcript_path},
                               {"agent_id", &out->agent_id}}) {
    if (Status s = ReadString(doc, field, target); !s.ok()) return s;
  }
  if (out->event.empty()) out->event = "Stop";
  if (out->event != "Stop" && out->event != "SubagentStop") {
    return Status::Error("hook input: event \"" + out->event + "\" is not Stop or SubagentStop");
  }
  out->is_subagent = out->event == "SubagentStop";
  if (Status s = ReadOptionalString(doc, "last_assistant_message", &out->last_assistant_message); !s.ok()) return s;
  return ReadBool(doc, "stop_hook_active", &out->stop_hook_active);
}

std::string RenderClaudeCode(const HookRequest& /*request*/, const rules::Outcome& outcome) {
  return DecisionOrWarning(outcome, "block");
}

}  // namespace causegate::gate::adapters
