// The body of POST /v1/judge: a turn given inline by a caller that has no
// transcript file (schema: server/API.md, "POST /v1/judge"), read into the
// same evidence::Turn the transcript reader produces, with its earlier
// turns as an in-memory History.
// Tests: tests/unit/server/judge_request_test.cc.
#pragma once

#include <deque>
#include <string>
#include <string_view>

#include "evidence/status.h"
#include "evidence/turn.h"

namespace causegate::server {

struct JudgeRequest {
  evidence::Turn turn;
  std::deque<evidence::PastTurn> history;  // newest first, turns_back 1, 2, ...
  bool stop_hook_active = false;
  std::string session_id;  // for the audit log only
  std::string agent;       // for the audit log only
};

// Errors name the field: "\"tool_calls\"[2].\"output\": must be a string".
// Bounds: limits::kMaxJsonDepth, kMaxToolCallsPerTurn per turn,
// kMaxToolOutputBytes per output (longer outputs are cut, not refused).
Status ParseJudgeRequest(std::string_view body, JudgeRequest* out);

// History over turns held in memory, handed out newest first.
class InlineHistory final : public evidence::History {
 public:
  explicit InlineHistory(std::deque<evidence::PastTurn>* turns) : turns_(turns) {}
  bool LoadOlder(evidence::PastTurn* out) override;

 private:
  std::deque<evidence::PastTurn>* turns_;  // not owned; consumed
};

}  // namespace causegate::server
