// A History that first hands out turns already read (by protocol tracking,
// rules/protocol_steps.h LoadDiagnosisTurns) and then goes on reading the
// real one, so the evidence index sees the session exactly as if it had
// read those turns itself. Not thread-safe; one per judged turn.
// Tests: tests/unit/rules/protocol_steps_test.cc.
#pragma once

#include <deque>
#include <vector>

#include "evidence/turn.h"

namespace causegate::rules {

class PrefetchedHistory final : public evidence::History {
 public:
  // turns: newest first, as read from rest; rest may be null.
  PrefetchedHistory(std::vector<evidence::PastTurn> turns, evidence::History* rest)
      : turns_(std::make_move_iterator(turns.begin()), std::make_move_iterator(turns.end())), rest_(rest) {}

  bool LoadOlder(evidence::PastTurn* out) override {
    if (!turns_.empty()) {
      *out = std::move(turns_.front());
      turns_.pop_front();
      return true;
    }
    return rest_ != nullptr && rest_->LoadOlder(out);
  }

 private:
  std::deque<evidence::PastTurn> turns_;
  evidence::History* rest_;
};

}  // namespace causegate::rules
