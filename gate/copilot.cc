// GitHub Copilot CLI (gate/HOOKS.md). Copilot sends each event in one of
// two dialects, chosen by how the event is spelled in its hooks file:
// camelCase (agentStop: sessionId, transcriptPath, stopReason) or the VS
// Code compatible PascalCase (Stop: session_id, transcript_path,
// stop_reason). Both are read; the answer is the same
// {"decision":"block","reason":...}, which Copilot enqueues as the next
// prompt (it stops on its own after 8 consecutive blocks).
//
// agentStop carries no final text, and the session file's tool events are
// not documented to keep their output, so causegate is also registered on
// userPromptSubmitted and postToolUse, which write the session log
// (gate/session_log.h); the final text is the input's own
// (subagentStop: response / last_assistant_message) or the last
// assistant.message of the session file (evidence/copilot_transcript.h).
// Copilot writes that message ~100 ms after agentStop fires, so the file
// is read again until it holds the answer (gate/transcript_wait.h); when
// it never does, the stop fails open saying so, never allows on no text.
// Copilot's file tools are named as Claude Code names them (bash -> Bash,
// view -> Read, create -> Write, edit / str_replace -> Edit, with their
// inputs renamed to match) so that evidence/ recognises text the agent
// wrote itself.
// Tests: tests/unit/gate/copilot_test.cc.
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <cmath>
#include <string>

#include "evidence/copilot_transcript.h"
#include "gate/adapters.h"
#include "gate/session_log.h"
#include "gate/state_dir.h"
#include "gate/transcript_wait.h"

namespace causegate::gate::adapters {
namespace {

enum class CopilotEvent { kStop, kSubagentStop, kPrompt, kToolUse, kOther };

CopilotEvent EventOf(const std::string& event, const Json& doc) {
  if (event == "agentStop" || event == "Stop") return CopilotEvent::kStop;
  if (event == "subagentStop" || event == "SubagentStop") return CopilotEvent::kSubagentStop;
  if (event == "userPromptSubmitted" || event == "UserPromptSubmit") return CopilotEvent::kPrompt;
  if (event == "postToolUse" || event == "PostToolUse") return CopilotEvent::kToolUse;
  if (!event.empty()) return CopilotEvent::kOther;
  // camelCase payloads may come without an event name: tell them by fields.
  if (doc.contains("toolName") || doc.contains("tool_name")) return CopilotEvent::kToolUse;
  if (doc.contains("agentName") || doc.contains("agentType") || doc.contains("agentId") || doc.contains("response")) {
    return CopilotEvent::kSubagentStop;
  }
  if (doc.contains("prompt") && !doc.contains("stopReason") && !doc.contains("stop_reason")) {
    return CopilotEvent::kPrompt;
  }
  return CopilotEvent::kStop;
}

// Copilot's tool and its arguments as Claude Code would name them.
void CanonicalTool(const std::string& name, Json* args, std::string* canonical) {
  auto rename = [args](const char* from, const char* to) {
    if (args->contains(from) && !args->contains(to)) {
      (*args)[to] = (*args)[from];
      args->erase(from);
    }
  };
  if (name == "bash" || name == "shell" || name == "powershell") {
    *canonical = "Bash";
  } else if (name == "view" || name == "read") {
    *canonical = "Read";
    rename("path", "file_path");
  } else if (name == "create") {
    *canonical = "Write";
    rename("path", "file_path");
    rename("file_text", "content");
  } else if (name == "edit" || name == "str_replace") {
    *canonical = "Edit";
    rename("path", "file_path");
    rename("old_str", "old_string");
    rename("new_str", "new_string");
  } else {
    *canonical = name;
  }
}

Status ParseToolUse(const Json& doc, ObservedEvent* ev) {
  ev->kind = ObservedEvent::Kind::kToolCall;
  std::string name;
  if (Status s = ReadString(doc, EitherField(doc, "toolName", "tool_name"), &name); !s.ok()) return s;
  Json args = Json::object();
  if (auto it = doc.find(EitherField(doc, "toolArgs", "tool_input")); it != doc.end()) {
    if (it->is_object()) {
      args = *it;
    } else if (it->is_string()) {  // some versions send the arguments as JSON text
      Json parsed = Json::parse(it->get<std::string>(), nullptr, /*allow_exceptions=*/false);
      args = parsed.is_object() ? parsed : Json{{"input", it->get<std::string>()}};
    }
  }
  CanonicalTool(name, &args, &ev->tool_name);
  ev->tool_input = Dump(args);
  const auto result = doc.find(EitherField(doc, "toolResult", "tool_response"));
  if (result == doc.end() || result->is_null()) return Status::Ok();
  if (result->is_object()) {
    // {resultType: success|failure|rejected|denied, textResultForLlm}
    const auto type = result->find("resultType");
    ev->tool_error = type != result->end() && type->is_string() && *type != "success";
    const auto text = result->find("textResultForLlm");
    ev->tool_output = text != result->end() ? ValueText(*text) : ValueText(*result);
  } else {
    ev->tool_output = ValueText(*result);
  }
  return Status::Ok();
}

bool IsFile(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

Status ParseCopilot(const Json& doc, HookRequest* out) {
  if (Status s = ReadString(doc, EitherField(doc, "hookEventName", "hook_event_name"), &out->event); !s.ok()) {
    return s;
  }
  const CopilotEvent event = EventOf(out->event, doc);
  out->camel_case = doc.contains("sessionId") || doc.contains("transcriptPath") || doc.contains("toolName") ||
                    doc.contains("stopReason") || (!out->event.empty() && out->event[0] >= 'a' && out->event[0] <= 'z');
  for (auto [camel, snake, target] :
       {std::tuple{"sessionId", "session_id", &out->session_id}, {"transcriptPath", "transcript_path", &out->transcript_path},
        {"stopReason", "stop_reason", &out->stop_reason}, {"cwd", "cwd", &out->cwd}}) {
    if (Status s = ReadString(doc, EitherField(doc, camel, snake), target); !s.ok()) return s;
  }
  if (Status s = ReadBool(doc, EitherField(doc, "stopHookActive", "stop_hook_active"), &out->stop_hook_active); !s.ok()) {
    return s;
  }
  switch (event) {
    case CopilotEvent::kStop:
    case CopilotEvent::kSubagentStop: {
      if (out->event.empty()) out->event = event == CopilotEvent::kStop ? "agentStop" : "subagentStop";
      out->is_subagent = event == CopilotEvent::kSubagentStop;
      if (Status s = ReadOptionalString(doc, EitherField(doc, "response", "last_assistant_message"),
                                        &out->last_assistant_message);
          !s.ok()) {
        return s;
      }
      return Status::Ok();
    }
    case CopilotEvent::kPrompt: {
      out->kind = HookKind::kObserve;
      ObservedEvent ev;
      ev.kind = ObservedEvent::Kind::kPrompt;
      if (Status s = ReadString(doc, "prompt", &ev.text); !s.ok()) return s;
      out->observed = std::move(ev);
      return Status::Ok();
    }
    case CopilotEvent::kToolUse: {
      out->kind = HookKind::kObserve;
      ObservedEvent ev;
      if (Status s = ParseToolUse(doc, &ev); !s.ok()) return s;
      out->observed = std::move(ev);
      return Status::Ok();
    }
    case CopilotEvent::kOther: break;
  }
  return Status::Error("copilot hook input: event \"" + out->event + "\" is not one causegate handles");
}

std::string RenderCopilot(const HookRequest& request, const rules::Outcome& outcome) {
  if (request.kind == HookKind::kObserve) return "";
  // Only the VS Code compatible dialect documents systemMessage; in the
  // camelCase one the warning goes to stderr.
  if (outcome.action == rules::Action::kAllowUnproven && request.camel_case) return "";
  return DecisionOrWarning(outcome, "block");
}

Status LoadCopilotTurn(const HookRequest& request, TranscriptWait wait, evidence::LastTurn* out) {
  // postToolUse may come without a session id; its log is then keyed by cwd.
  const std::string state_dir = StateDirOr(request.state_dir);
  std::string path = SessionLogPath(state_dir, Agent::kCopilot, request.session_id, request.cwd);
  if (!request.session_id.empty() && !IsFile(path)) path = SessionLogPath(state_dir, Agent::kCopilot, "", request.cwd);
  if (path.empty()) return Status::Error("copilot: no state folder (XDG_STATE_HOME and HOME unset)");
  if (Status s = ReadSessionLog(path, out); !s.ok()) {
    return Status::Error("copilot: no session log for session \"" + request.session_id + "\" (" + s.message() +
                         "); register causegate on userPromptSubmitted and postToolUse too "
                         "(`causegate init --agent copilot` does)");
  }
  if (request.last_assistant_message) return Status::Ok();
  const std::string transcript = ExpandHome(request.transcript_path);
  if (transcript.empty()) return Status::Error("copilot hook input: no transcriptPath to read the final message from");
  // agentStop fires before Copilot writes the answer (and, in a new
  // session, before the file exists): read until the answer is there.
  // After a block the stale answer is the one blocked: the file is whole
  // only once it holds every reason this session's log saw come back.
  const int blocks_sent = static_cast<int>(out->turn.stop_feedback.size());
  evidence::CopilotFinalMessage final;
  const auto read = [&transcript, &final, blocks_sent](ReadState* state) {
    const Status s = evidence::ReadCopilotFinalMessage(transcript, &final);
    const bool lagging =
        s.ok() ? !final.answered || final.feedback_since_prompt < blocks_sent : NotWrittenYet(transcript);
    *state = lagging ? ReadState::kLagging : ReadState::kWhole;
    return s;
  };
  ReadState state = ReadState::kWhole;
  double waited_ms = 0;
  const Status s = ReadWhileLagging(Agent::kCopilot, wait, read, &state, &waited_ms);
  if (state == ReadState::kLagging) {
    // No text yet is never an allow: without the answer there is nothing
    // to judge, so the stop fails open and says so.
    const std::string found = !s.ok()             ? s.message()
                              : final.text.empty() ? std::string("no assistant text since the prompt")
                              : !final.answered    ? std::string("only narration before a tool call")
                                                   : std::string("no answer yet to the last block");
    return Status::Error("copilot: " + transcript + ": timed out after " + std::to_string(std::lround(waited_ms)) +
                         " ms waiting for the turn's final assistant.message, which Copilot writes after agentStop (" +
                         found + "; " + kTranscriptWaitEnv + " sets the wait)");
  }
  if (!s.ok()) return s;
  if (waited_ms > 0) spdlog::debug("copilot: final message written after {:.0f} ms", waited_ms);
  out->turn.final_message = std::move(final.text);
  return Status::Ok();
}

}  // namespace causegate::gate::adapters
