// Claude Code's Stop and SubagentStop hooks (gate/HOOKS.md): the input is
// one JSON object; the answer is {"decision":"block","reason":...} to send
// the agent back, {"systemMessage":...} to warn the user, or nothing.
// Unknown fields are normal across versions and ignored; a known field of
// the wrong type is an error, because guessing would judge the wrong turn.
#include "gate/hook_input.h"

#include <nlohmann/json.hpp>

#include "evidence/json_bounds.h"
#include "evidence/limits.h"
#include "evidence/utf8.h"

namespace causegate::gate {
namespace {

using nlohmann::json;

Status OptionalString(const json& doc, const char* field, std::string* out) {
  auto it = doc.find(field);
  if (it == doc.end() || it->is_null()) return Status::Ok();
  if (!it->is_string()) return Status::Error(std::string("hook input: \"") + field + "\" must be a string");
  *out = it->get<std::string>();
  return Status::Ok();
}

}  // namespace

const char* AgentName(Agent agent) {
  switch (agent) {
    case Agent::kAuto: return "auto";
    case Agent::kClaudeCode: return "claude-code";
  }
  return "unknown";
}

bool ParseAgentName(std::string_view name, Agent* agent) {
  if (name == "auto") {
    *agent = Agent::kAuto;
  } else if (name == "claude-code" || name == "claude") {
    *agent = Agent::kClaudeCode;
  } else {
    return false;
  }
  return true;
}

Status ParseHookInput(std::string_view text, Agent agent, HookRequest* out) {
  if (text.size() > limits::kMaxHookInputBytes) {
    return Status::Error("hook input: larger than " + std::to_string(limits::kMaxHookInputBytes) + " bytes");
  }
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return Status::Error("hook input: empty");
  if (!evidence::JsonDepthWithin(text, limits::kMaxJsonDepth)) {
    return Status::Error("hook input: JSON nested deeper than " + std::to_string(limits::kMaxJsonDepth));
  }
  // One bad byte must not switch the gate off: scrub instead of refusing.
  std::string scrubbed;
  if (!evidence::IsValidUtf8(text) || text.find('\0') != std::string_view::npos) {
    scrubbed = evidence::ScrubUtf8(text);
    text = scrubbed;
  }
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::Error("hook input: not valid JSON");
  if (!doc.is_object()) return Status::Error("hook input: not a JSON object");

  HookRequest r;
  r.agent = agent == Agent::kAuto ? Agent::kClaudeCode : agent;
  for (auto [field, target] : {std::pair{"hook_event_name", &r.event}, {"session_id", &r.session_id},
                               {"cwd", &r.cwd}, {"transcript_path", &r.transcript_path},
                               {"agent_transcript_path", &r.agent_transcript_path}}) {
    if (Status s = OptionalString(doc, field, target); !s.ok()) return s;
  }
  if (r.event.empty()) r.event = "Stop";
  if (r.event != "Stop" && r.event != "SubagentStop") {
    return Status::Error("hook input: event \"" + r.event + "\" is not Stop or SubagentStop");
  }
  if (auto it = doc.find("last_assistant_message"); it != doc.end() && !it->is_null()) {
    if (!it->is_string()) return Status::Error("hook input: \"last_assistant_message\" must be a string");
    r.last_assistant_message = it->get<std::string>();
  }
  if (auto it = doc.find("stop_hook_active"); it != doc.end() && !it->is_null()) {
    if (!it->is_boolean()) return Status::Error("hook input: \"stop_hook_active\" must be true or false");
    r.stop_hook_active = it->get<bool>();
  }
  *out = std::move(r);
  return Status::Ok();
}

std::string RenderHookOutput(const HookRequest& /*request*/, const rules::Outcome& outcome) {
  json answer;
  switch (outcome.action) {
    case rules::Action::kAllow:
      return "";
    case rules::Action::kBlock:
      answer["decision"] = "block";
      answer["reason"] = outcome.reason;
      break;
    case rules::Action::kAllowUnproven:
      answer["systemMessage"] = outcome.system_message;
      break;
  }
  // Invalid UTF-8 from a transcript must not make dump() throw.
  return answer.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace causegate::gate
