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
//
// On a retry, prompt_response is every answer since the prompt joined by
// "\n" (Gemini CLI 0.61 keeps appending and never resets it on a block), so
// the rejected claim would be judged again and neither way out could work.
// Only what the agent wrote after the last block is judged: the text
// after the prompt_response judged at that block, whose size and hash the
// counter keeps; without it (no state folder), the text after the answers
// the chat file shows before its last retry prompt, found in order. When
// neither can be found, or nothing new follows, the whole text is judged.
// Tests: tests/unit/gate/gemini_test.cc.
#include <nlohmann/json.hpp>

#include <ctime>
#include <string_view>

#include "evidence/gemini_transcript.h"
#include "gate/adapters.h"
#include "gate/loop_state.h"
#include "gate/state_dir.h"

namespace causegate::gate::adapters {
namespace {

bool IsBlank(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }

// The text after `cut` bytes of response, without the "\n" Gemini joins
// answers with; nullopt when nothing but white space follows.
std::optional<std::string> After(std::string_view response, std::size_t cut) {
  std::string_view rest = response.substr(cut);
  while (!rest.empty() && (rest.front() == '\n' || rest.front() == '\r')) rest.remove_prefix(1);
  if (IsBlank(rest)) return std::nullopt;
  return std::string(rest);
}

// Where the texts before the last block end in response, each looked for
// after the one before it (narration that Gemini did not add to the
// response is passed over); nullopt when the last, the rejected answer,
// is not found.
std::optional<std::size_t> EndOfAnswers(std::string_view response, const std::vector<std::string>& answers) {
  std::size_t at = 0;
  bool last_found = false;
  for (const std::string& answer : answers) {
    const std::size_t found = response.find(answer, at);
    last_found = found != std::string_view::npos;
    if (last_found) at = found + answer.size();
  }
  if (!last_found) return std::nullopt;
  return at;
}

}  // namespace

std::string GeminiTextSinceLastBlock(const std::string& response, const LoopState& state,
                                     const std::vector<std::string>& answered_before_block) {
  if (state.judged_bytes > 0 && state.judged_bytes < response.size() &&
      HashHex(std::string_view(response).substr(0, state.judged_bytes)) == state.judged_hash) {
    if (std::optional<std::string> rest = After(response, state.judged_bytes)) return *rest;
    return response;
  }
  if (!answered_before_block.empty()) {
    if (const std::optional<std::size_t> end = EndOfAnswers(response, answered_before_block)) {
      if (std::optional<std::string> rest = After(response, *end)) return *rest;
    }
  }
  return response;
}

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
  evidence::ChatRetries retries;
  if (Status s = evidence::ReadGeminiLastTurn(path, options, out, &retries); !s.ok()) return s;
  if (!request.last_assistant_message) return Status::Ok();
  const LoopState state = LoadLoopState(LoopStatePathFor(request), TurnKey(out->turn), std::time(nullptr));
  out->turn.final_message =
      GeminiTextSinceLastBlock(*request.last_assistant_message, state, retries.before_last_feedback);
  return Status::Ok();
}

}  // namespace causegate::gate::adapters
