// Which agent sent a hook input, when `causegate hook` runs without
// --agent. Every agent's documented input has a field or an event name no
// other agent sends (gate/HOOKS.md, "Detection"):
//
//   Gemini CLI     hook_event_name "AfterAgent", or prompt_response
//   Cursor         conversation_id / generation_id, or one of its event names
//   Copilot CLI    camelCase fields (sessionId, transcriptPath, toolName, ...),
//                  or a "Stop" input with stop_reason (the VS Code dialect)
//   Codex CLI      turn_id (required by its Stop schema)
//   Claude Code    everything else, as before there were other agents.
//
// The order matters only for inputs that carry fields of two agents, which
// none of the documented shapes do.
// Tests: tests/unit/gate/hook_input_test.cc ("detection").
#include <nlohmann/json.hpp>

#include <string_view>

#include "gate/adapters.h"

namespace causegate::gate::adapters {
namespace {

bool IsCursorEvent(std::string_view event) {
  for (const std::string_view name :
       {"stop", "afterAgentResponse", "afterAgentThought", "beforeSubmitPrompt", "afterShellExecution",
        "afterMCPExecution", "afterFileEdit", "beforeReadFile", "beforeShellExecution", "beforeMCPExecution"}) {
    if (event == name) return true;
  }
  return false;
}

bool IsCopilotCamelEvent(std::string_view event) {
  for (const std::string_view name : {"agentStop", "subagentStop", "userPromptSubmitted", "postToolUse"}) {
    if (event == name) return true;
  }
  return false;
}

}  // namespace

Agent DetectAgent(const Json& doc) {
  std::string event;
  if (auto it = doc.find("hook_event_name"); it != doc.end() && it->is_string()) event = it->get<std::string>();
  if (auto it = doc.find("hookEventName"); event.empty() && it != doc.end() && it->is_string()) {
    event = it->get<std::string>();
  }
  if (event == "AfterAgent" || doc.contains("prompt_response")) return Agent::kGemini;
  if (doc.contains("conversation_id") || doc.contains("generation_id") || IsCursorEvent(event)) return Agent::kCursor;
  if (IsCopilotCamelEvent(event)) return Agent::kCopilot;
  for (const char* field : {"sessionId", "transcriptPath", "stopReason", "toolName", "toolResult"}) {
    if (doc.contains(field)) return Agent::kCopilot;
  }
  if (doc.contains("stop_reason")) return Agent::kCopilot;
  if (doc.contains("turn_id")) return Agent::kCodex;
  return Agent::kClaudeCode;
}

}  // namespace causegate::gate::adapters
