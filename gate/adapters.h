// Internal to gate/: what each agent's file (claude_code.cc, codex.cc,
// gemini.cc, cursor.cc, copilot.cc) provides behind gate/hook_input.h, and
// the field readers they share. Each Parse* gets the input as a parsed JSON
// object and fills *out (agent already set); each Render* writes the
// answer; each Load*Turn reads the turn for a stop request.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

#include "gate/hook_input.h"
#include "gate/transcript_wait.h"

namespace causegate::gate {
struct LoopState;
}

namespace causegate::gate::adapters {

using Json = nlohmann::json;

// Field readers: a missing or null field leaves *out as it was; a field of
// the wrong type is an error naming the field.
Status ReadString(const Json& doc, const char* field, std::string* out);
Status ReadOptionalString(const Json& doc, const char* field, std::optional<std::string>* out);
Status ReadBool(const Json& doc, const char* field, bool* out);
Status ReadInt(const Json& doc, const char* field, std::optional<int>* out);
// The first of two spellings that is present (camelCase, snake_case).
const char* EitherField(const Json& doc, const char* first, const char* second);
// Any JSON value as text: strings as they are, everything else dumped.
std::string ValueText(const Json& value);

// One JSON object as compact text; invalid UTF-8 is replaced, never thrown.
std::string Dump(const Json& answer);
// {"decision": decision, "reason": reason}: the block answer of Claude
// Code, Codex and Copilot ("block") and Gemini ("deny").
std::string DecisionAnswer(const char* decision, const std::string& reason);
// {"systemMessage": text}: the warning the user sees on an unproven turn.
std::string SystemMessageAnswer(const std::string& text);
// The answer of the agents that take a decision and a systemMessage
// (Claude Code, Codex; Gemini with "deny"): nothing to allow, the decision
// to block, the warning when a turn is let through unproven.
std::string DecisionOrWarning(const rules::Outcome& outcome, const char* block_decision);

// The file LoadTranscriptTurn reads: transcript_path, or for a subagent
// stop agent_transcript_path; "~/" expanded.
std::string TurnFilePath(const HookRequest& request);
// The turn from a Claude Code-shaped request: transcript_path, or for a
// subagent stop agent_transcript_path (read as the subagent's own file).
// evidence::ReadLastTurn recognises the transcript's format. One read:
// Codex's rollout is whole at hook time.
Status LoadTranscriptTurn(const HookRequest& request, evidence::LastTurn* out);
// LoadTranscriptTurn, read again while Claude Code may still be writing
// the turn (ClaudeTurnLag); the final message is still the file's.
Status LoadClaudeCodeTurn(const HookRequest& request, TranscriptWait wait, evidence::LastTurn* out);
// Why a Claude Code turn read from its file is not yet the whole turn the
// hook speaks of, or nullptr: the last tool call has no result yet, or
// last_assistant_message (when given and not empty) is not yet the file's
// last assistant text (compared without white space; a final message cut
// at limits::kMaxMessageBytes as a prefix). Not asked for a SubagentStop
// read from the main file, whose last text is the parent's.
const char* ClaudeTurnLag(const HookRequest& request, const evidence::Turn& turn);
// "~/" at the start of a path expanded with $HOME.
std::string ExpandHome(const std::string& path);

Agent DetectAgent(const Json& doc);

Status ParseClaudeCode(const Json& doc, HookRequest* out);
Status ParseCodex(const Json& doc, HookRequest* out);
Status ParseGemini(const Json& doc, HookRequest* out);
Status ParseCursor(const Json& doc, HookRequest* out);
Status ParseCopilot(const Json& doc, HookRequest* out);

std::string RenderClaudeCode(const HookRequest& request, const rules::Outcome& outcome);
std::string RenderCodex(const HookRequest& request, const rules::Outcome& outcome);
std::string RenderGemini(const HookRequest& request, const rules::Outcome& outcome);
std::string RenderCursor(const HookRequest& request, const rules::Outcome& outcome);
std::string RenderCopilot(const HookRequest& request, const rules::Outcome& outcome);

// The turn of a Gemini AfterAgent call, its final message the part of
// prompt_response written since the last block (GeminiTextSinceLastBlock).
Status LoadGeminiTurn(const HookRequest& request, evidence::LastTurn* out);
// What of Gemini's cumulative prompt_response to judge: the text after the
// response judged at the last block (state's judged_bytes and judged_hash),
// else after the chat file's answers before the last retry prompt found in
// order, else all of it; all of it too when nothing new follows.
std::string GeminiTextSinceLastBlock(const std::string& response, const LoopState& state,
                                     const std::vector<std::string>& answered_before_block);
Status LoadCursorTurn(const HookRequest& request, evidence::LastTurn* out);
// Copilot's final text is read again until the answer is written
// (evidence::CopilotFinalMessage::answered); past the wait it is an error.
Status LoadCopilotTurn(const HookRequest& request, TranscriptWait wait, evidence::LastTurn* out);

// True for text the gate itself sent back to the agent (a block reason
// that came back as the next prompt). Every reason starts with "causegate".
bool IsOurFeedback(std::string_view text);

}  // namespace causegate::gate::adapters
