// The unit the gate judges: one turn of an agent session, as plain data.
// Produced by the transcript readers (transcript.h), by the hook adapters
// from their input, or given inline over HTTP; consumed by rules/. Nothing
// here knows about rules.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace causegate::evidence {

struct ToolCall {
  std::string id;            // tool_use id ("toolu_..."), or "" when unknown
  std::string name;          // "Bash", "Read", "Grep", "Write", ...
  std::string input;         // the input object as compact JSON text
  std::string command;       // Bash/shell command or the main argument
                             // (file_path, pattern, url), for people and for
                             // classifying the call; "" when there is none
  std::string output;        // the result text (text blocks joined by '\n')
  bool is_error = false;
  bool has_result = false;   // false when no tool_result was found
  int turns_back = 0;        // 0: the judged turn; 1: the turn before; ...
  std::int64_t line = 0;     // 1-based transcript line of the tool_use, 0 if none
};

// Where and by whom a turn was run, as the transcript names it; a field is
// "" when the transcript does not say. Set by ForEachTurn (and, from the
// turn's own lines, by ReadLastTurn); reports group turns by it.
struct TurnContext {
  std::string session_id;     // the agent's own session id
  std::string agent_version;  // Claude Code "version", Codex "cli_version",
                              // Copilot "copilotVersion"
  std::string model;          // the last model named in the turn, else the
                              // last one named before it
  std::string started_at;     // the prompt's time, ISO 8601 (as written, or
                              // from epoch milliseconds in UTC)
  std::string cwd;            // the working folder of the session
};

struct Turn {
  // The last real user prompt (for a subagent: its task prompt).
  std::string prompt;
  std::int64_t prompt_line = 0;
  // The text judged: last_assistant_message or the text blocks of the last
  // assistant message with text (thinking blocks excluded).
  std::string final_message;
  std::int64_t final_line = 0;
  // Tool calls made after the prompt, in order.
  std::vector<ToolCall> tool_calls;
  // Reasons of the "Stop hook feedback" lines after the prompt, oldest first:
  // how many times the gate already sent this turn back, and what it said.
  std::vector<std::string> stop_feedback;
  // Narration between tool calls (not judged; used to track protocol steps).
  std::vector<std::string> narration;
  // True when the transcript ended in a line that did not parse (crash or
  // a write in progress); the turn is still judged on what was read.
  bool truncated = false;
  // True when the turn is one of Claude Code's compaction summaries, a
  // subagent named acompact-* (IsCompactionAgent in transcript.h): no
  // agent's answer, so not judged (spec section 3).
  bool compaction_summary = false;
  // Claude Code: the folder holding the session's subagent transcripts
  // (SubagentFolderOf in model_output.h), set by the transcript readers; ""
  // for other agents and for turns given inline. What a subagent quoted in
  // its answer is checked against its own file there (evidence_index.h).
  std::string subagent_folder;
  TurnContext context;
};

// An earlier turn, loaded only when a citation is not found in the judged turn.
struct PastTurn {
  std::string prompt;
  std::vector<ToolCall> tool_calls;  // turns_back >= 1
  int turns_back = 1;
};

// The session before the judged turn, read on demand, newest turn first.
// Implementations: the transcript readers (reading further back in the
// file) and an empty history for turns given inline.
class History {
 public:
  virtual ~History() = default;
  // Fills *out with the next older turn. Returns false at the start of the
  // session or when reading failed (the reason is logged, not fatal).
  virtual bool LoadOlder(PastTurn* out) = 0;
};

class NoHistory final : public History {
 public:
  bool LoadOlder(PastTurn*) override { return false; }
};

}  // namespace causegate::evidence
