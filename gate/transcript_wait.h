// Waiting for a transcript the agent is still writing. Claude Code flushes
// its session file every 100 ms and nothing flushes before the Stop hooks
// run, so at hook time the turn's last tool result, its final text or the
// feedback line of an earlier block may be missing; Copilot CLI writes the
// turn's final assistant.message about 100 ms after agentStop fires
// (gate/HOOKS.md, "Transcript timing"). Judged at once, a correct quote of
// tool output is "fabricated" and a Copilot claim is never seen.
//
// So a stop whose first read looks incomplete (each adapter says what that
// means for its agent) reads the file again every kTranscriptPoll until it
// is whole or the agent's bound has passed. A read that is whole the first
// time returns at once: no clock read, no sleep, no second read, no
// environment look-up.
//
// In the daemon the wait runs on the worker serving that request; the
// worker pool starts another worker for a connection that finds none idle
// (up to threads + max_queued_connections, server/http_server.cc), so a
// waiting stop delays only its own answer and holds one worker for at most
// the bound.
// Tests: tests/unit/gate/transcript_wait_test.cc.
#pragma once

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "evidence/status.h"

namespace causegate::gate {

enum class Agent;

// Whether a stop may wait for its transcript (GateOptions). The live
// front-ends (`causegate hook`, the daemon) wait; `eval` judges saved files
// that will never grow, so it does not.
enum class TranscriptWait {
  kWhileLagging,  // re-read an incomplete turn up to the agent's bound
  kNever,         // judge the first read, whole or not
};

// The longest a stop waits, per agent; both far inside the agents' 30 s
// hook timeout. Claude Code's lag is one flush interval (100 ms) plus the
// writer's own delay; Copilot's final text came 98-113 ms after agentStop.
inline constexpr std::chrono::milliseconds kClaudeCodeTranscriptWait{500};
inline constexpr std::chrono::milliseconds kCopilotTranscriptWait{2000};
// Time between two reads: a read costs what the last turn costs, so this
// is about the latency added once the file is whole, not about load.
inline constexpr std::chrono::milliseconds kTranscriptPoll{15};
// CAUSEGATE_TRANSCRIPT_WAIT_MS, when set to a whole number of milliseconds
// from 0 to kMaxTranscriptWait, replaces both bounds (0: never wait);
// other values are ignored with a warning. Tests shorten or lengthen the
// wait with it, users on slow disks may too (gate/HOOKS.md).
inline constexpr const char* kTranscriptWaitEnv = "CAUSEGATE_TRANSCRIPT_WAIT_MS";
inline constexpr std::chrono::milliseconds kMaxTranscriptWait{20000};

// The bound for the agent: CAUSEGATE_TRANSCRIPT_WAIT_MS if valid, else its
// constant above; 0 for agents whose files are whole at hook time (Codex,
// Gemini, Cursor: Cursor's log is written by causegate itself).
std::chrono::milliseconds TranscriptWaitBound(Agent agent);

// A transcript the agent has not created yet, or created and not yet
// written to: worth waiting for, unlike one that is unreadable.
bool NotWrittenYet(const std::string& path);

enum class ReadState {
  kWhole,    // judge what was read (or report its error)
  kLagging,  // the agent may still be writing the turn: read again
};

// Calls read(&state) once. While it answers kLagging and the bound for the
// agent (0 with TranscriptWait::kNever) has not passed since the first
// call, sleeps kTranscriptPoll and calls it again. Returns the last call's
// Status and leaves its state in *state: kLagging when the bound passed
// with the turn still incomplete. *waited_ms: time since the first call
// (0 when the first read was whole).
// read: Status(ReadState*), called on this thread only.
template <typename Read>
Status ReadWhileLagging(Agent agent, TranscriptWait wait, Read&& read, ReadState* state, double* waited_ms);

// ---- implementation ----

template <typename Read>
Status ReadWhileLagging(Agent agent, TranscriptWait wait, Read&& read, ReadState* state, double* waited_ms) {
  using Clock = std::chrono::steady_clock;
  *waited_ms = 0;
  Status s = read(state);
  if (*state == ReadState::kWhole || wait == TranscriptWait::kNever) return s;
  const auto start = Clock::now();
  const auto deadline = start + TranscriptWaitBound(agent);
  while (*state == ReadState::kLagging) {
    const auto now = Clock::now();
    if (now >= deadline) break;
    std::this_thread::sleep_for(std::min<Clock::duration>(kTranscriptPoll, deadline - now));
    s = read(state);
  }
  *waited_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  return s;
}

}  // namespace causegate::gate
