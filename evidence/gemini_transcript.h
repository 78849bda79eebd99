// Reading Gemini CLI chat files into turns: the evidence behind a Gemini
// AfterAgent hook, whose input carries the final text (prompt_response)
// but not the tool calls.
//
// Two formats, told apart by the first non-blank byte (research notes on
// hook protocols, section 3.3):
//   - one JSON document {sessionId, projectHash, startTime, lastUpdated,
//     messages: [...]} (older Gemini CLI), or
//   - JSONL (newer): a header line, then one message per line, with
//     {"$set": {...}} update lines; a message id that repeats replaces the
//     earlier one (last wins), keeping its first position.
// A message is {id, timestamp, type: user|gemini|info|error|warning,
// content, toolCalls: [{id, name, args, result, status, resultDisplay}]};
// content is a string or a list of parts with text. A tool's output is the
// text of result[].functionResponse.response (output, else error), else
// resultDisplay when it is text. Shell, read, write and edit tools are
// named as Claude Code names them (run_shell_command stays, known to
// evidence/ as a shell; read_file -> Read, write_file -> Write, replace ->
// Edit), so that self-made output is recognised alike.
//
// The whole file is read (Gemini rewrites it as one document), bounded by
// limits::kMaxChatFileBytes; a larger file is an error. Lines of the JSONL
// form that do not parse are skipped (a bad last line sets
// Turn::truncated), as in transcript.h.
// Tests: tests/unit/evidence/gemini_transcript_test.cc.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/status.h"
#include "evidence/transcript.h"

namespace causegate::evidence {

struct ChatReadOptions {
  // A user message for which this returns true is a hook's own reason sent
  // back as the next prompt (Gemini retries with it): it goes to
  // Turn::stop_feedback and does not start a turn. May be empty.
  std::function<bool(std::string_view)> is_feedback;
};

// What the chat file shows of the last turn's retries (gate/gemini.cc
// judges only what the agent wrote after the last block).
struct ChatRetries {
  // The model's texts (narration and answers) of the last turn written
  // before its last feedback message, oldest first; empty when the turn has
  // no feedback message.
  std::vector<std::string> before_last_feedback;
};

// The last turn of a Gemini chat file, with the earlier turns as History;
// *retries (when not null) is filled for that turn.
// Errors: the file cannot be read, is larger than the limit, is neither
// format, or holds no user message.
Status ReadGeminiLastTurn(const std::string& path, const ChatReadOptions& options, LastTurn* out,
                          ChatRetries* retries = nullptr);

// Calls visit(turn, index) for each turn of a Gemini chat file in order
// (index from 0); visit returns false to stop. Errors as ReadGeminiLastTurn.
Status ForEachGeminiTurn(const std::string& path, const ChatReadOptions& options,
                         const std::function<bool(Turn&, int index)>& visit);

}  // namespace causegate::evidence
