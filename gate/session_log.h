// The session log: what the observe-only hook events of an agent show (the
// prompt, each tool call with its output, the assistant's text), kept for
// the stop hook of agents whose stop input carries no usable transcript
// (Cursor; Copilot, whose transcript keeps no tool output we can rely on).
//
// The log is written as Claude Code transcript lines, so one reader
// (evidence::ReadLastTurn) turns it into a Turn with its History, and the
// gate's own reason coming back as the next prompt is written as a
// "Stop hook feedback:" line, which that reader counts. One file per agent
// and session: STATE/sessions/<agent>/<session>.jsonl (gate/state_dir.h).
// Appends hold an exclusive flock and reads a shared one (gate/state_lock.h),
// so concurrent hook processes of one session, or daemons sharing the
// folder, neither interleave lines nor read a log while it is cut back.
// All logs and loop counters together are
// held to a total, oldest written evicted first (gate/state_cap.h).
// Tests: tests/unit/gate/session_log_test.cc.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "evidence/status.h"
#include "evidence/transcript.h"
#include "gate/hook_input.h"

namespace causegate::gate {

// A log that would grow past this is cut back to its last prompt first.
inline constexpr std::size_t kMaxSessionLogBytes = 64u << 20;
// Logs of one agent not written for this long are deleted when a new
// prompt is logged.
inline constexpr int kSessionLogMaxAgeDays = 7;

// The log's path for a session in state_dir; "" when state_dir is "" (no
// state folder). An empty session_id falls back to the working folder (key
// "cwd-<hash>").
std::string SessionLogPath(const std::string& state_dir, Agent agent, std::string_view session_id,
                           std::string_view cwd);

// Appends request.observed (when set) to the request's session log, in
// the request's state folder.
Status AppendToSessionLog(const HookRequest& request);

// Reads the last turn of the log at path (evidence::ReadLastTurn) under a
// shared lock, so that no append or cut is seen half done. Errors: the
// log missing or unreadable, the lock not had in time.
Status ReadSessionLog(const std::string& path, evidence::LastTurn* out);

// The Claude Code transcript line(s) for one observed event, each ending in
// '\n'. unique: an id for this event's message and tool call.
std::string SessionLogLines(const ObservedEvent& event, const std::string& unique);

}  // namespace causegate::gate
