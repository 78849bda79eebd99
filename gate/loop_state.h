// The per-session block counter: how many times the gate already sent the
// current turn back, remembered between hook calls for the agents whose
// own signal cannot be trusted to bound the loop (Codex: no cap; Gemini:
// no cap, and stop_hook_active was always false before its PR #20439;
// Cursor's loop_count counts the whole conversation's follow-ups; Copilot:
// a cap of 8, far above ours). Claude Code needs none: its transcript's
// feedback lines count exactly.
//
// One small JSON file per agent and session, STATE/loop/<agent>-<session>.json
// (gate/state_dir.h): {"turn": key of the turn's prompt, "blocks": n,
// "updated": unix seconds}, and for Gemini "judged_bytes" and
// "judged_hash" of the prompt_response judged at the last block. It counts only for the same turn (same
// prompt) and for kLoopStateTtlSeconds; a turn that ends (allowed, or let
// through unproven) removes it. Writes go through a temporary file and
// rename, so a reader sees the old or the new counter, never half. The
// gate reads, decides and writes the counter under LockLoopState, so two
// stops of one session judged at once (by two threads, or two daemons
// sharing the folder) count one after the other; "updated" is wall-clock
// time, so replicas on two machines need their clocks in step.
// Tests: tests/unit/gate/loop_state_test.cc.
#pragma once

#include <string>
#include <string_view>

#include "evidence/status.h"
#include "evidence/turn.h"
#include "gate/hook_input.h"
#include "gate/state_lock.h"

namespace causegate::gate {

inline constexpr long long kLoopStateTtlSeconds = 2 * 3600;

// True for the agents whose prior blocks come (also) from the counter.
bool UsesLoopCounter(Agent agent);

// The key of a turn: a hash of its prompt.
std::string TurnKey(const evidence::Turn& turn);

// The counter file in state_dir; "" when state_dir is "" (no state
// folder). An empty session_id uses the working folder, as the session log
// does.
std::string LoopStatePath(const std::string& state_dir, Agent agent, std::string_view session_id,
                          std::string_view cwd);

// What the counter file holds for one turn.
struct LoopState {
  int blocks = 0;
  // The agent's text judged at the last block, as its size and HashHex
  // (Gemini: prompt_response, which grows with every retry, so the next
  // call judges only what follows it; gate/gemini.cc). 0 and "": none kept.
  std::size_t judged_bytes = 0;
  std::string judged_hash;
};

// The state kept for turn_key at path; all zero when none, for another
// turn, stale (older than the TTL, measured against now_seconds) or
// unreadable.
LoopState LoadLoopState(const std::string& path, const std::string& turn_key, long long now_seconds);
// LoadLoopState(...).blocks.
int LoadLoopBlocks(const std::string& path, const std::string& turn_key, long long now_seconds);

// Stores blocks for turn_key, with the text judged at that block when not
// empty; blocks == 0 removes the file.
Status StoreLoopBlocks(const std::string& path, const std::string& turn_key, int blocks, long long now_seconds,
                       std::string_view judged = {});

// The counter file of the request's agent and session, in its state
// folder ("" without one).
std::string LoopStatePathFor(const HookRequest& request);

// Locks the request's counter (gate/state_lock.h) for one read, decision
// and write: RunGate holds it from PriorBlocksFor to RecordDecision for the
// agents that UsesLoopCounter. Without a state folder there is no counter
// and nothing is locked (Ok). Errors as SessionStateLock::Acquire's.
Status LockLoopState(const HookRequest& request, SessionStateLock* lock);

}  // namespace causegate::gate
