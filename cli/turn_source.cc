#include "cli/turn_source.h"

namespace causegate::cli {

bool MemoryHistory::LoadOlder(evidence::PastTurn* out) {
  if (turns_.empty()) return false;
  *out = std::move(turns_.front());
  turns_.pop_front();
  return true;
}

Status SelectTurn(const std::string& path, evidence::SessionKind kind, int turn_number, SelectedTurn* out) {
  if (turn_number <= 0) {
    evidence::LastTurn last;
    if (Status s = evidence::ReadLastTurn(path, kind, &last); !s.ok()) return s;
    out->turn = std::move(last.turn);
    out->history = std::move(last.history);
    return Status::Ok();
  }
  std::deque<evidence::PastTurn> before;  // newest first
  bool found = false;
  int count = 0;
  Status s = evidence::ForEachTurn(path, kind, [&](const evidence::Turn& turn, int index) {
    count = index + 1;
    if (index + 1 == turn_number) {
      out->turn = turn;
      found = true;
      return false;
    }
    evidence::PastTurn past;
    past.prompt = turn.prompt;
    past.tool_calls = turn.tool_calls;
    before.push_front(std::move(past));
    return true;
  });
  if (!s.ok()) return s;
  if (!found) {
    return Status::Error(path + ": no turn " + std::to_string(turn_number) + " (the file has " +
                         std::to_string(count) + ")");
  }
  int back = 1;
  for (evidence::PastTurn& past : before) {
    past.turns_back = back;
    for (evidence::ToolCall& call : past.tool_calls) call.turns_back = back;
    ++back;
  }
  out->history = std::make_unique<MemoryHistory>(std::move(before));
  out->index = turn_number;
  return Status::Ok();
}

}  // namespace causegate::cli
