// Reading an inline turn. Field types are checked, because a tool output
// sent as a number instead of a string would otherwise vanish and turn a
// supported claim into a block; unknown fields are ignored, as in hook
// input, so callers can send more than we read.
// Tests: tests/unit/server/judge_request_test.cc.
#include "server/judge_request.h"

#include <nlohmann/json.hpp>

#include "evidence/json_bounds.h"
#include "evidence/limits.h"
#include "evidence/utf8.h"

namespace causegate::server {
namespace {

using nlohmann::json;

Status OptionalString(const json& obj, const char* field, std::string* out) {
  auto it = obj.find(field);
  if (it == obj.end() || it->is_null()) return Status::Ok();
  if (!it->is_string()) return Status::Error(std::string("\"") + field + "\": must be a string");
  *out = it->get<std::string>();
  return Status::Ok();
}

Status OptionalBool(const json& obj, const char* field, bool* out) {
  auto it = obj.find(field);
  if (it == obj.end() || it->is_null()) return Status::Ok();
  if (!it->is_boolean()) return Status::Error(std::string("\"") + field + "\": must be true or false");
  *out = it->get<bool>();
  return Status::Ok();
}

// obj[field] as an array (empty when absent); error when present and not one.
Status OptionalArray(const json& obj, const char* field, const json** out) {
  static const json kEmpty = json::array();
  *out = &kEmpty;
  auto it = obj.find(field);
  if (it == obj.end() || it->is_null()) return Status::Ok();
  if (!it->is_array()) return Status::Error(std::string("\"") + field + "\": must be an array");
  *out = &*it;
  return Status::Ok();
}

Status ParseToolCall(const json& v, int turns_back, evidence::ToolCall* call) {
  if (!v.is_object()) return Status::Error("must be an object");
  for (auto [field, target] : {std::pair{"id", &call->id}, {"name", &call->name}, {"command", &call->command},
                               {"output", &call->output}}) {
    if (Status s = OptionalString(v, field, target); !s.ok()) return s;
  }
  if (call->name.empty()) return Status::Error("\"name\": missing (the tool's name, e.g. \"Bash\")");
  if (Status s = OptionalBool(v, "is_error", &call->is_error); !s.ok()) return s;
  call->has_result = v.contains("output") && !v["output"].is_null();
  if (call->output.size() > limits::kMaxToolOutputBytes) call->output.resize(limits::kMaxToolOutputBytes);
  auto input = v.find("input");
  if (input != v.end() && !input->is_null()) {
    if (!input->is_object() && !input->is_string()) return Status::Error("\"input\": must be an object or a string");
    call->input = input->is_string() ? input->get<std::string>() : input->dump(-1, ' ', false, json::error_handler_t::replace);
    if (call->command.empty() && input->is_object()) {
      auto command = input->find("command");
      if (command != input->end() && command->is_string()) call->command = command->get<std::string>();
    }
  } else {
    call->input = call->command.empty() ? "{}" : json{{"command", call->command}}.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  call->turns_back = turns_back;
  return Status::Ok();
}

Status ParseToolCalls(const json& obj, int turns_back, std::vector<evidence::ToolCall>* calls) {
  const json* list = nullptr;
  if (Status s = OptionalArray(obj, "tool_calls", &list); !s.ok()) return s;
  if (list->size() > limits::kMaxToolCallsPerTurn) {
    return Status::Error("\"tool_calls\": more than " + std::to_string(limits::kMaxToolCallsPerTurn));
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    evidence::ToolCall call;
    if (Status s = ParseToolCall((*list)[i], turns_back, &call); !s.ok()) {
      return s.Within("\"tool_calls\"[" + std::to_string(i) + "]");
    }
    calls->push_back(std::move(call));
  }
  return Status::Ok();
}

}  // namespace

Status ParseJudgeRequest(std::string_view body, JudgeRequest* out) {
  if (body.size() > limits::kMaxHookInputBytes) {
    return Status::Error("body: larger than " + std::to_string(limits::kMaxHookInputBytes) + " bytes");
  }
  if (!evidence::JsonDepthWithin(body, limits::kMaxJsonDepth)) {
    return Status::Error("body: JSON nested deeper than " + std::to_string(limits::kMaxJsonDepth));
  }
  std::string scrubbed;
  if (!evidence::IsValidUtf8(body) || body.find('\0') != std::string_view::npos) {
    scrubbed = evidence::ScrubUtf8(body);
    body = scrubbed;
  }
  const json doc = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return Status::Error("body: not valid JSON");
  if (!doc.is_object()) return Status::Error("body: not a JSON object");

  JudgeRequest r;
  auto final_message = doc.find("final_message");
  if (final_message == doc.end() || !final_message->is_string()) {
    return Status::Error("\"final_message\": missing or not a string");
  }
  r.turn.final_message = final_message->get<std::string>();
  if (r.turn.final_message.size() > limits::kMaxMessageBytes) {
    r.turn.final_message.resize(limits::kMaxMessageBytes);  // judged on a prefix, as from a transcript
  }
  for (auto [field, target] : {std::pair{"prompt", &r.turn.prompt}, {"session_id", &r.session_id},
                               {"agent", &r.agent}}) {
    if (Status s = OptionalString(doc, field, target); !s.ok()) return s;
  }
  if (Status s = OptionalBool(doc, "stop_hook_active", &r.stop_hook_active); !s.ok()) return s;
  if (Status s = ParseToolCalls(doc, 0, &r.turn.tool_calls); !s.ok()) return s;

  const json* feedback = nullptr;
  if (Status s = OptionalArray(doc, "stop_feedback", &feedback); !s.ok()) return s;
  for (const json& reason : *feedback) {
    if (!reason.is_string()) return Status::Error("\"stop_feedback\": must be an array of strings");
    r.turn.stop_feedback.push_back(reason.get<std::string>());
  }

  const json* history = nullptr;
  if (Status s = OptionalArray(doc, "history", &history); !s.ok()) return s;
  for (std::size_t i = 0; i < history->size(); ++i) {
    const json& past = (*history)[i];
    const std::string where = "\"history\"[" + std::to_string(i) + "]";
    if (!past.is_object()) return Status::Error(where + ": must be an object");
    evidence::PastTurn turn;
    turn.turns_back = static_cast<int>(i) + 1;
    if (Status s = OptionalString(past, "prompt", &turn.prompt); !s.ok()) return s.Within(where);
    if (Status s = ParseToolCalls(past, turn.turns_back, &turn.tool_calls); !s.ok()) return s.Within(where);
    r.history.push_back(std::move(turn));
  }
  *out = std::move(r);
  return Status::Ok();
}

bool InlineHistory::LoadOlder(evidence::PastTurn* out) {
  if (turns_->empty()) return false;
  *out = std::move(turns_->front());
  turns_->pop_front();
  return true;
}

}  // namespace causegate::server
