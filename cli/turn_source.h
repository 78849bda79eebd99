// Picking one turn out of a saved transcript for the offline commands
// (explain, eval): the last turn through the backward reader, or turn N
// with the turns before it kept as its history.
#pragma once

#include <deque>
#include <memory>
#include <string>

#include "evidence/status.h"
#include "evidence/transcript.h"
#include "evidence/turn.h"

namespace causegate::cli {

// History over turns already in memory, newest first.
class MemoryHistory final : public evidence::History {
 public:
  explicit MemoryHistory(std::deque<evidence::PastTurn> turns) : turns_(std::move(turns)) {}
  bool LoadOlder(evidence::PastTurn* out) override;

 private:
  std::deque<evidence::PastTurn> turns_;
};

struct SelectedTurn {
  evidence::Turn turn;
  std::unique_ptr<evidence::History> history;
  int index = 0;  // 1-based turn number (0 when unknown: read from the end)
  int count = 0;  // turns in the file (0 when unknown)
};

// turn_number: 1-based, or 0 for the last turn.
Status SelectTurn(const std::string& path, evidence::SessionKind kind, int turn_number, SelectedTurn* out);

}  // namespace causegate::cli
