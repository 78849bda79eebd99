// A bound on the state folder as a whole (gate/state_dir.h). Each session
// log is capped on its own (gate/session_log.h), but nothing bounded how
// many there are: an agent id is whatever the hook input says, so events
// for ever new conversations filled the disk (100 MB of logs in 2.4 s,
// unauthenticated, through the daemon). After every write to the folder,
// the least recently written files go first until the rest fit.
//
// Counted: the session logs (STATE/sessions/<agent>/*.jsonl) and the loop
// counters (STATE/loop/*.json). Evicting a live conversation's log costs
// that conversation its next judgement (the stop fails open), which is what
// a full disk would cost every agent on the machine.
// Tests: tests/unit/gate/state_cap_test.cc; tests/e2e/serve_limits.py
// (the cap reached through the daemon).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace causegate::gate {

// All session logs and loop counters together.
inline constexpr std::uint64_t kMaxStateBytes = 128u << 20;
inline constexpr std::size_t kMaxStateFiles = 1000;

struct StateCap {
  std::uint64_t max_bytes = kMaxStateBytes;
  std::size_t max_files = kMaxStateFiles;
};

// Deletes the least recently written files of the state folder state_dir
// until the others hold at most cap.max_bytes in at most cap.max_files,
// never the file `keep` (the one just written; "" keeps none). Returns
// how many were deleted. Files that vanish or cannot be deleted meanwhile
// (another hook process evicting too) are skipped.
std::size_t EvictOldestState(const std::string& state_dir, const std::string& keep, const StateCap& cap = {});

}  // namespace causegate::gate
