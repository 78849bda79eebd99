// The adapter front door: bounds and parses the hook input once, works out
// which agent sent it (the --agent flag, or DetectAgent on its fields), and
// hands the parsed object to that agent's file. The checks every input
// gets (size, depth, UTF-8, JSON object) live here so no adapter can skip
// them. Unknown fields are normal across versions and ignored; a known
// field of the wrong type is an error, because guessing would judge the
// wrong turn.
// Tests: tests/unit/gate/hook_input_test.cc.
#include "gate/hook_input.h"

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "evidence/json_bounds.h"
#include "evidence/limits.h"
#include "evidence/utf8.h"
#include "gate/adapters.h"
#include "gate/answer_json.h"

namespace causegate::gate {

namespace adapters {

using nlohmann::json;

Status ReadString(const Json& doc, const char* field, std::string* out) {
  auto it = doc.find(field);
  if (it == doc.end() || it->is_null()) return Status::Ok();
  if (!it->is_string()) return Status::Error(std::string("hook input: \"") + field + "\" must be a string");
  *out = it->get<std::string>();
  return Status::Ok();
}

Status ReadOptionalString(const Json& doc, const char* field, std::optional<std::string>* out) {
  auto it = doc.find(field);
  if (it == doc.end() || it->is_null()) return Status::Ok();
  if (!it->is_string()) return Status::Error(std::string("hook input: \"") + field + "\" must be a string");
  *out = it->get<std::string>();
  return Status::Ok();
}

Status ReadBool(const Json& doc, const char* field, bool* out) {
  auto it = doc.find(field);
  if (it == doc.end() || it->is_null()) return Status::Ok();
  if (!it->is_boolean()) return Status::Error(std::string("hook input: \"") + field + "\" must be true or false");
  *out = it->get<bool>();
  return Status::Ok();
}

Status ReadInt(const Json& doc, const char* field, std::optional<int>* out) {
  auto it = doc.find(field);
  if (it == doc.end() || it->is_null()) return Status::Ok();
  if (!it->is_number_integer() || it->get<long long>() < 0 || it->get<long long>() > 1000000) {
    return Status::Error(std::string("hook input: \"") + field + "\" must be a whole number from 0");
  }
  *out = static_cast<int>(it->get<long long>());
  return Status::Ok();
}

const char* EitherField(const Json& doc, const char* first, const char* second) {
  return doc.contains(first) ? first : second;
}

std::string ValueText(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return "";
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string Dump(const Json& answer) {
  // Invalid UTF-8 from a transcript must not make dump() throw.
  return answer.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Both written directly when the text is valid UTF-8 (gate/answer_json.h:
// the bytes nlohmann writes, keys in its sorted order); otherwise nlohmann
// replaces what is invalid, as before.
std::string DecisionAnswer(const char* decision, const std::string& reason) {
  if (!evidence::IsValidUtf8(reason) || !evidence::IsValidUtf8(decision)) {
    json answer;
    answer["decision"] = decision;
    answer["reason"] = reason;
    return Dump(answer);
  }
  std::string out = "{\"decision\":";
  AppendJsonString(decision, &out);
  out += ",\"reason\":";
  AppendJsonString(reason, &out);
  out += '}';
  return out;
}

std::string SystemMessageAnswer(const std::string& text) {
  if (!evidence::IsValidUtf8(text)) {
    json answer;
    answer["systemMessage"] = text;
    return Dump(answer);
  }
  std::string out = "{\"systemMessage\":";
  AppendJsonString(text, &out);
  out += '}';
  return out;
}

std::string DecisionOrWarning(const rules::Outcome& outcome, const char* block_decision) {
  switch (outcome.action) {
    case rules::Action::kAllow: return "";
    case rules::Action::kBlock: return DecisionAnswer(block_decision, outcome.reason);
    case rules::Action::kAllowUnproven: return SystemMessageAnswer(outcome.system_message);
  }
  return "";
}

std::string ExpandHome(const std::string& path) {
  // Claude Code documents "~/.claude/..." in examples; real inputs are absolute.
  if (path.rfind("~/", 0) != 0) return path;
  const char* home = std::getenv("HOME");
  return home ? std::string(home) + path.substr(1) : path;
}

std::string TurnFilePath(const HookRequest& request) {
  const bool own_file = request.subagent() && !request.agent_transcript_path.empty();
  return ExpandHome(own_file ? request.agent_transcript_path : request.transcript_path);
}

Status LoadTranscriptTurn(const HookRequest& request, evidence::LastTurn* out) {
  const bool own_file = request.subagent() && !request.agent_transcript_path.empty();
  const std::string path = TurnFilePath(request);
  if (path.empty()) return Status::Error("hook input: no transcript path");
  return evidence::ReadLastTurn(path, own_file ? evidence::SessionKind::kSubagent : evidence::SessionKind::kMain,
                                out);
}

bool IsOurFeedback(std::string_view text) { return text.rfind("causegate", 0) == 0; }

}  // namespace adapters

const char* AgentName(Agent agent) {
  switch (agent) {
    case Agent::kAuto: return "auto";
    case Agent::kClaudeCode: return "claude-code";
    case Agent::kCodex: return "codex";
    case Agent::kGemini: return "gemini";
    case Agent::kCursor: return "cursor";
    case Agent::kCopilot: return "copilot";
  }
  return "unknown";
}

const char* AgentNameList() { return "auto, claude-code, codex, gemini, cursor, copilot"; }

bool ParseAgentName(std::string_view name, Agent* agent) {
  static constexpr std::pair<std::string_view, Agent> kNames[] = {
      {"auto", Agent::kAuto},       {"claude-code", Agent::kClaudeCode}, {"claude", Agent::kClaudeCode},
      {"codex", Agent::kCodex},     {"gemini", Agent::kGemini},          {"gemini-cli", Agent::kGemini},
      {"cursor", Agent::kCursor},   {"copilot", Agent::kCopilot},        {"copilot-cli", Agent::kCopilot},
  };
  for (const auto& [spelling, value] : kNames) {
    if (name == spelling) {
      *agent = value;
      return true;
    }
  }
  return false;
}

Status ParseHookInput(std::string_view text, Agent agent, HookRequest* out) {
  using nlohmann::json;
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
  r.agent = agent == Agent::kAuto ? adapters::DetectAgent(doc) : agent;
  Status s;
  switch (r.agent) {
    case Agent::kAuto:  // DetectAgent never answers kAuto
    case Agent::kClaudeCode: s = adapters::ParseClaudeCode(doc, &r); break;
    case Agent::kCodex: s = adapters::ParseCodex(doc, &r); break;
    case Agent::kGemini: s = adapters::ParseGemini(doc, &r); break;
    case Agent::kCursor: s = adapters::ParseCursor(doc, &r); break;
    case Agent::kCopilot: s = adapters::ParseCopilot(doc, &r); break;
  }
  if (!s.ok()) return s;
  *out = std::move(r);
  return Status::Ok();
}

bool IsObserveOnlyInput(std::string_view text, Agent agent) {
  HookRequest r;
  return ParseHookInput(text, agent, &r).ok() && r.kind == HookKind::kObserve;
}

std::string RenderHookOutput(const HookRequest& request, const rules::Outcome& outcome) {
  switch (request.agent) {
    case Agent::kAuto:
    case Agent::kClaudeCode: return adapters::RenderClaudeCode(request, outcome);
    case Agent::kCodex: return adapters::RenderCodex(request, outcome);
    case Agent::kGemini: return adapters::RenderGemini(request, outcome);
    case Agent::kCursor: return adapters::RenderCursor(request, outcome);
    case Agent::kCopilot: return adapters::RenderCopilot(request, outcome);
  }
  return "";
}

Status LoadTurn(const HookRequest& request, TranscriptWait wait, evidence::LastTurn* out) {
  Status s;
  switch (request.agent) {
    case Agent::kAuto:
    case Agent::kClaudeCode: s = adapters::LoadClaudeCodeTurn(request, wait, out); break;
    case Agent::kCodex: s = adapters::LoadTranscriptTurn(request, out); break;
    case Agent::kGemini: s = adapters::LoadGeminiTurn(request, out); break;
    case Agent::kCursor: s = adapters::LoadCursorTurn(request, out); break;
    case Agent::kCopilot: s = adapters::LoadCopilotTurn(request, wait, out); break;
  }
  if (!s.ok()) return s;
  // Gemini's prompt_response grows with every retry: LoadGeminiTurn took
  // the part to judge.
  if (request.agent == Agent::kGemini) return Status::Ok();
  // The transcript is written asynchronously and may lag: the agent's own
  // copy of the final message wins.
  if (request.last_assistant_message) out->turn.final_message = *request.last_assistant_message;
  return Status::Ok();
}

}  // namespace causegate::gate
