// Cursor (gate/HOOKS.md). Cursor's `stop` hook gets only {status,
// loop_count} besides the common fields: no final text and no documented
// transcript. What the turn was is shown piecemeal to observe-only hooks,
// so causegate is registered on those too and keeps a session log per
// conversation (gate/session_log.h):
//
//   beforeSubmitPrompt   {prompt}                  the turn's prompt
//   beforeReadFile       {file_path, content}      a Read with its output
//   afterShellExecution  {command, output}         a Bash call with its output
//   afterMCPExecution    {tool_name, tool_input, result_json}
//   afterFileEdit        {file_path, edits}        a MultiEdit (text the agent wrote)
//   afterAgentResponse   {text}                    an assistant message
//
// The stop hook then judges the log's last turn. Its answer to send the
// agent back is {"followup_message": reason}, which Cursor submits as the
// next user message; that message reaches beforeSubmitPrompt and is logged
// as feedback, not as a new prompt. A stop whose status is not "completed"
// (aborted by the user, or an error) is not judged. loop_count counts the
// conversation's automatic follow-ups from every stop hook, so it is only
// a floor for the blocks already sent (gate/loop_state.cc).
// Tests: tests/unit/gate/cursor_test.cc.
#include <nlohmann/json.hpp>

#include "gate/adapters.h"
#include "gate/session_log.h"
#include "gate/state_dir.h"

namespace causegate::gate::adapters {
namespace {

// A tool call whose input is one field of the event, kept under the same
// key (Claude Code's: Bash command, Read file_path), and whose output is
// another field.
Status OneArgumentTool(const Json& doc, const char* name, const char* argument, const char* output,
                       ObservedEvent* ev) {
  ev->kind = ObservedEvent::Kind::kToolCall;
  ev->tool_name = name;
  std::string value;
  if (Status s = ReadString(doc, argument, &value); !s.ok()) return s;
  if (Status s = ReadString(doc, output, &ev->tool_output); !s.ok()) return s;
  ev->tool_input = Dump(Json{{argument, value}});
  return Status::Ok();
}

Status ParseObserved(const Json& doc, const std::string& event, HookRequest* out) {
  out->kind = HookKind::kObserve;
  ObservedEvent ev;
  auto text_field = [&doc](const char* field, std::string* target) { return ReadString(doc, field, target); };
  if (event == "beforeSubmitPrompt") {
    ev.kind = ObservedEvent::Kind::kPrompt;
    if (Status s = text_field("prompt", &ev.text); !s.ok()) return s;
  } else if (event == "afterAgentResponse") {
    ev.kind = ObservedEvent::Kind::kAssistantText;
    if (Status s = text_field("text", &ev.text); !s.ok()) return s;
  } else if (event == "afterShellExecution") {
    if (Status s = OneArgumentTool(doc, "Bash", "command", "output", &ev); !s.ok()) return s;
  } else if (event == "beforeReadFile") {
    if (Status s = OneArgumentTool(doc, "Read", "file_path", "content", &ev); !s.ok()) return s;
  } else if (event == "afterFileEdit") {
    ev.kind = ObservedEvent::Kind::kToolCall;
    ev.tool_name = "MultiEdit";  // same input shape: {file_path, edits: [{old_string, new_string}]}
    Json input = Json::object();
    std::string file;
    if (Status s = text_field("file_path", &file); !s.ok()) return s;
    input["file_path"] = file;
    if (auto it = doc.find("edits"); it != doc.end() && it->is_array()) input["edits"] = *it;
    ev.tool_input = Dump(input);
    ev.tool_output = "edited " + file;
  } else if (event == "afterMCPExecution") {
    ev.kind = ObservedEvent::Kind::kToolCall;
    if (Status s = text_field("tool_name", &ev.tool_name); !s.ok()) return s;
    if (ev.tool_name.empty()) ev.tool_name = "mcp";
    if (auto it = doc.find("tool_input"); it != doc.end()) ev.tool_input = ValueText(*it);
    if (auto it = doc.find("result_json"); it != doc.end()) ev.tool_output = ValueText(*it);
  } else if (event == "afterAgentThought") {
    return Status::Ok();  // thinking is never judged
  } else {
    return Status::Error("cursor hook input: event \"" + event + "\" is not one causegate handles");
  }
  out->observed = std::move(ev);
  return Status::Ok();
}

}  // namespace

Status ParseCursor(const Json& doc, HookRequest* out) {
  for (auto [field, target] : {std::pair{"hook_event_name", &out->event}, {"conversation_id", &out->session_id},
                               {"generation_id", &out->generation_id}, {"transcript_path", &out->transcript_path}}) {
    if (Status s = ReadString(doc, field, target); !s.ok()) return s;
  }
  if (auto it = doc.find("workspace_roots"); it != doc.end() && it->is_array() && !it->empty() &&
                                             it->front().is_string()) {
    out->cwd = it->front().get<std::string>();
  }
  if (out->event.empty()) out->event = "stop";
  if (out->event != "stop") return ParseObserved(doc, out->event, out);
  if (Status s = ReadString(doc, "status", &out->status); !s.ok()) return s;
  if (Status s = ReadInt(doc, "loop_count", &out->loop_count); !s.ok()) return s;
  if (!out->status.empty() && out->status != "completed") {
    out->kind = HookKind::kObserve;  // aborted or failed: nothing to judge, nothing to log
  }
  return Status::Ok();
}

std::string RenderCursor(const HookRequest& request, const rules::Outcome& outcome) {
  if (request.kind == HookKind::kObserve) {
    // The two "before" hooks expect a decision; causegate never withholds one.
    if (request.event == "beforeSubmitPrompt") return Dump(Json{{"continue", true}});
    if (request.event == "beforeReadFile") return Dump(Json{{"permission", "allow"}});
    return "";
  }
  // stop's only output field is followup_message: the user warning of an
  // unproven turn goes to stderr (Cursor's Hooks output channel).
  if (outcome.action != rules::Action::kBlock) return "";
  return Dump(Json{{"followup_message", outcome.reason}});
}

Status LoadCursorTurn(const HookRequest& request, evidence::LastTurn* out) {
  const std::string path =
      SessionLogPath(StateDirOr(request.state_dir), Agent::kCursor, request.session_id, request.cwd);
  if (path.empty()) return Status::Error("cursor: no state folder (XDG_STATE_HOME and HOME unset)");
  Status s = ReadSessionLog(path, out);
  if (!s.ok()) {
    return Status::Error(
        "cursor: no session log for conversation \"" + request.session_id + "\" (" + s.message() +
        "); register causegate on beforeSubmitPrompt, beforeReadFile, afterShellExecution, afterMCPExecution, "
        "afterFileEdit and afterAgentResponse too (`causegate init --agent cursor` does)");
  }
  return Status::Ok();
}

}  // namespace causegate::gate::adapters
