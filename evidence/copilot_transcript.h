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
#pragma once

#include <string>

#include "evidence/status.h"

namespace causegate::evidence {

// *out: the final text ("" when the turn has no assistant text yet).
// Errors: the file cannot be opened or read, or holds no Copilot event.
Status ReadCopilotFinalMessage(const std::string& path, std::string* out);

}  // namespace causegate::evidence
