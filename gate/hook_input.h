// Agent adapters: each coding agent's Stop-hook input, read into one
// agent-neutral HookRequest, and the answer written back in the shape that
// agent expects. The protocols are documented in gate/HOOKS.md.
// Tests: tests/unit/gate/hook_input_test.cc.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "evidence/status.h"
#include "rules/loop_policy.h"

namespace causegate::gate {

enum class Agent {
  kAuto,        // detect from the input's fields
  kClaudeCode,  // Stop / SubagentStop
};

const char* AgentName(Agent agent);
bool ParseAgentName(std::string_view name, Agent* agent);

struct HookRequest {
  Agent agent = Agent::kClaudeCode;
  std::string event;                 // "Stop", "SubagentStop"
  std::string session_id;
  std::string cwd;
  std::string transcript_path;       // the session file ("" if none)
  std::string agent_transcript_path; // SubagentStop: the subagent's own file
  std::optional<std::string> last_assistant_message;
  bool stop_hook_active = false;     // the agent is continuing after a block
  bool subagent() const { return event == "SubagentStop"; }
};

// Parses hook input. Errors (the hook then fails open): over the size or
// depth limits, not JSON, not an object, wrong field types, an event that
// is not a stop event.
Status ParseHookInput(std::string_view text, Agent agent, HookRequest* out);

// The agent's answer: a JSON object text, or "" for a silent allow.
std::string RenderHookOutput(const HookRequest& request, const rules::Outcome& outcome);

}  // namespace causegate::gate
