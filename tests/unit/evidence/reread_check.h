// A check shared by the reader tests: every turn ForEachTurnAt yields is
// read again from its place (TurnRereader) into the same turn, so that
// `check`, which keeps places instead of earlier turns (batch/
// session_history.h), looks up citations in what the forward reader read.
#pragma once

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "evidence/transcript.h"

namespace causegate::evidence::testing {

inline void CheckSameCalls(const std::vector<ToolCall>& a, const std::vector<ToolCall>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("call " << i);
    CHECK(a[i].id == b[i].id);
    CHECK(a[i].name == b[i].name);
    CHECK(a[i].input == b[i].input);
    CHECK(a[i].command == b[i].command);
    CHECK(a[i].output == b[i].output);
    CHECK(a[i].is_error == b[i].is_error);
    CHECK(a[i].has_result == b[i].has_result);
    CHECK(a[i].line == b[i].line);
  }
}

// Returns the number of turns checked; a file without places (a Gemini
// chat file) has no rereader and checks none.
inline int CheckRereads(const std::string& path, SessionKind kind) {
  std::shared_ptr<const TurnRereader> rereader;
  int checked = 0;
  const Status s = ForEachTurnAt(
      path, kind,
      [&](const Turn& turn, int index, const TurnPlace& place) {
        INFO(path << ": turn " << index << " at line " << place.line);
        if (rereader == nullptr) {
          CHECK(place.end == 0);
          return true;
        }
        CHECK(place.line == turn.prompt_line);
        CHECK(place.begin < place.end);
        Turn again;
        const Status read = rereader->Read(place, &again);
        INFO(read.message());
        REQUIRE(read.ok());
        CHECK(again.prompt == turn.prompt);
        CHECK(again.prompt_line == turn.prompt_line);
        CHECK(again.final_message == turn.final_message);
        CHECK(again.final_line == turn.final_line);
        CHECK(again.stop_feedback == turn.stop_feedback);
        CHECK(again.narration == turn.narration);
        CHECK(again.subagent_folder == turn.subagent_folder);
        CheckSameCalls(again.tool_calls, turn.tool_calls);
        ++checked;
        return true;
      },
      &rereader);
  (void)s;  // the caller's own reading reports errors
  return checked;
}

}  // namespace causegate::evidence::testing
