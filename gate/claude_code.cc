// Claude Code's Stop and SubagentStop hooks (gate/HOOKS.md): the input is
// one JSON object with transcript_path (and agent_transcript_path for a
// subagent), last_assistant_message and stop_hook_active; the answer is
// {"decision":"block","reason":...} to send the agent back,
// {"systemMessage":...} to warn the user, or nothing.
//
// Claude Code flushes the session file every 100 ms and not before its
// Stop hooks, so the hook can find the turn's last tool_result, its final
// text or an earlier block's feedback line not yet written, and would
// call a correct quote of tool output fabricated. A turn whose last tool
// call has no result, or whose last text is not yet last_assistant_message
// (which is always current), is read again for up to
// kClaudeCodeTranscriptWait (gate/transcript_wait.h); past that it is
// judged as read, with a warning. A turn quicker than one flush may find
// no file at all, or no prompt in it yet: read again the same way, and
// past the bound the stop fails open (there is no turn to judge).
// Tests: tests/unit/gate/claude_code_test.cc, transcript_wait_test.cc.
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cmath>
#include <string>
#include <string_view>

#include "evidence/limits.h"
#include "evidence/transcript.h"
#include "evidence/utf8.h"
#include "gate/adapters.h"

namespace causegate::gate::adapters {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// True when message and the file's text are the same once white space is
// skipped (Claude Code and the reader may join a message's text blocks
// differently). A file text cut at kMaxMessageBytes need only be a prefix.
bool SameText(std::string_view file_text, std::string_view message) {
  // Utf8Prefix cuts at most 3 bytes short of the limit.
  const bool cut = file_text.size() + 4 > limits::kMaxMessageBytes;
  std::size_t i = 0, j = 0;
  while (true) {
    while (i < file_text.size() && IsSpace(file_text[i])) ++i;
    while (j < message.size() && IsSpace(message[j])) ++j;
    if (i == file_text.size()) return j == message.size() || cut;
    if (j == message.size() || file_text[i] != message[j]) return false;
    ++i;
    ++j;
  }
}

// Why a failed read may be a file Claude Code has not written yet, or
// nullptr: a quick turn can end before the first flush (every 100 ms), so
// the Stop hook may find no file, an empty one, or one holding only the
// queue bookkeeping that precedes the prompt.
const char* UnwrittenTurn(const HookRequest& request, const Status& read) {
  if (evidence::IsNoPromptError(read)) return "the transcript holds no prompt yet";
  const std::string path = TurnFilePath(request);
  if (!path.empty() && NotWrittenYet(path)) return "the transcript is not written yet";
  return nullptr;
}

}  // namespace

const char* ClaudeTurnLag(const HookRequest& request, const evidence::Turn& turn) {
  // A SubagentStop without its own file is judged on the main file, whose
  // last text and pending Agent call are the parent's: nothing to wait for.
  if (request.subagent() && request.agent_transcript_path.empty()) return nullptr;
  if (!turn.tool_calls.empty() && !turn.tool_calls.back().has_result) return "the last tool call has no result yet";
  if (request.last_assistant_message && !request.last_assistant_message->empty() &&
      !SameText(turn.final_message, *request.last_assistant_message)) {
    return "last_assistant_message is not yet the file's last text";
  }
  return nullptr;
}

Status LoadClaudeCodeTurn(const HookRequest& request, TranscriptWait wait, evidence::LastTurn* out) {
  const char* lag = nullptr;
  const auto read = [&request, out, &lag](ReadState* state) {
    const Status s = LoadTranscriptTurn(request, out);
    lag = s.ok() ? ClaudeTurnLag(request, out->turn) : UnwrittenTurn(request, s);
    *state = lag != nullptr ? ReadState::kLagging : ReadState::kWhole;
    return s;
  };
  ReadState state = ReadState::kWhole;
  double waited_ms = 0;
  const Status s = ReadWhileLagging(Agent::kClaudeCode, wait, read, &state, &waited_ms);
  if (state == ReadState::kLagging && !s.ok() && waited_ms > 0) {
    return s.Within("claude-code: no turn to judge after waiting " + std::to_string(std::lround(waited_ms)) +
                    " ms (" + kTranscriptWaitEnv + " sets the wait)");
  }
  if (state == ReadState::kLagging) {
    // Judging what is there is what causegate did before it waited; an
    // orphaned tool call (an interrupted tool) ends here too.
    spdlog::warn("claude-code: transcript still incomplete after {:.0f} ms ({}); judged as read", waited_ms, lag);
  } else if (waited_ms > 0) {
    spdlog::debug("claude-code: transcript complete after {:.0f} ms", waited_ms);
  }
  return s;
}

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
