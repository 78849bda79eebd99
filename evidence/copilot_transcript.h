// The final assistant text of a GitHub Copilot CLI session file
// (~/.copilot/session-state/<session>/events.jsonl, the transcriptPath of
// its agentStop hook): one event per line, {type, data, id, timestamp,
// parentId}. The turn's final text is data.content of the last
// "assistant.message" event with text after the last "user.message"
// (research notes on hook protocols, section 3.4; third-party readers of
// these files). Only the text is taken from this file: the tool outputs
// come from the postToolUse hook (gate/session_log.h), because the file's
// own tool events are not documented to keep them.
//
// Read backwards from the end; stops at the last user.message. Lines that
// do not parse are skipped.
// Tests: tests/unit/evidence/copilot_transcript_test.cc.
//
// For `check` and `explain` the whole file is read as turns
// (TranscriptFormat::kCopilotEvents, through transcript.h), one line at a
// time by ParseCopilotEventLine:
//   user.message               data.content: a prompt starts a turn; one that
//                              starts with "causegate" (after the
//                              <current_datetime> block Copilot may put
//                              first) is the gate's reason coming back:
//                              stop feedback
//   assistant.message          data.content: text of message data.messageId;
//                              data.toolRequests[] {toolCallId, name,
//                              arguments}: the tool calls
//   tool.execution_complete    data.toolCallId; data.result.content (else
//                              data.error.message) is the output; success
//                              false, or a non-zero shellExecution.exitCode or
//                              "<shellId: N completed with exit code M>"
//                              line (M not 0), marks it failed
// and every other event is ignored. Tools are named as Claude Code names
// them, as the session log does (gate/copilot.cc): bash -> Bash, view ->
// Read, create -> Write, edit / str_replace -> Edit, with their path as
// file_path.
#pragma once

#include <string>
#include <string_view>

#include "evidence/claude_line.h"
#include "evidence/status.h"

namespace causegate::evidence {

struct CopilotFinalMessage {
  // data.content of the turn's last assistant.message with text; "" when
  // the turn has none yet.
  std::string text;
  // True when neither that message nor a later one asks for tools: it is
  // the turn's answer. False when there is no text yet, or the text is
  // narration before a tool call (it came with toolRequests, or a later
  // message has them): Copilot writes the answer ~100 ms after its
  // agentStop hook fires, so the gate reads again (gate/transcript_wait.h).
  bool answered = false;
  // The gate's reasons that came back as user.messages between the user's
  // own prompt and the answer. The answer to the n-th block follows n of
  // them; fewer means the file still ends in an earlier attempt (Copilot
  // enqueues the reason as a prompt, and writes it late like the rest).
  int feedback_since_prompt = 0;
};

// Errors: the file cannot be opened or read, or holds no Copilot event.
Status ReadCopilotFinalMessage(const std::string& path, CopilotFinalMessage* out);

// Classifies one events.jsonl line (without its '\n'), as above. Internal
// to evidence/. Never throws; a line that is not a JSON object, is nested
// deeper than kMaxJsonDepth or longer than the line limit is kUnreadable.
LineRecord ParseCopilotEventLine(std::string_view line);

}  // namespace causegate::evidence
