// The session log: observed events written as Claude Code transcript lines
// read back by the transcript reader into the turn the stop hook judges.
#include "gate/session_log.h"

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <unistd.h>

#include "evidence/transcript.h"
#include "gate/state_dir.h"
#include "unit/gate/agent_test_util.h"

namespace causegate::gate {
namespace {

HookRequest Observed(ObservedEvent::Kind kind, const std::string& text, const std::string& tool = "",
                     const std::string& output = "") {
  HookRequest r;
  r.agent = Agent::kCursor;
  r.kind = HookKind::kObserve;
  r.session_id = "conv-1";
  ObservedEvent ev;
  ev.kind = kind;
  ev.text = text;
  ev.tool_name = tool;
  ev.tool_input = tool.empty() ? "" : R"({"command":")" + text + "\"}";
  ev.tool_output = output;
  r.observed = ev;
  return r;
}

TEST_CASE("session log: events read back as one turn with feedback") {
  testing::StateScope state;
  using K = ObservedEvent::Kind;
  for (const HookRequest& r :
       {Observed(K::kPrompt, "an older prompt"), Observed(K::kToolCall, "uptime", "Bash", "load 0.1"),
        Observed(K::kAssistantText, "fine"), Observed(K::kPrompt, testing::kPrompt),
        Observed(K::kAssistantText, "Let me look."), Observed(K::kToolCall, "df -h /srv", "Bash", testing::kDfOutput),
        Observed(K::kAssistantText, testing::kClaim), Observed(K::kPrompt, "causegate blocked this stop: reason"),
        Observed(K::kAssistantText, "Hypothesis: the disk may be full.")}) {
    REQUIRE(AppendToSessionLog(r).ok());
  }
  evidence::LastTurn last;
  REQUIRE(evidence::ReadLastTurn(SessionLogPath(StateDir(), Agent::kCursor, "conv-1", ""), evidence::SessionKind::kMain, &last)
              .ok());
  const evidence::Turn& t = last.turn;
  CHECK(t.prompt == testing::kPrompt);
  REQUIRE(t.tool_calls.size() == 1);
  CHECK(t.tool_calls[0].name == "Bash");
  CHECK(t.tool_calls[0].command == "df -h /srv");
  CHECK(t.tool_calls[0].output == testing::kDfOutput);
  CHECK(t.tool_calls[0].has_result);
  CHECK(t.final_message == "Hypothesis: the disk may be full.");
  CHECK(t.stop_feedback == std::vector<std::string>{"causegate blocked this stop: reason"});
  evidence::PastTurn older;
  REQUIRE(last.history->LoadOlder(&older));
  CHECK(older.prompt == "an older prompt");
  REQUIRE(older.tool_calls.size() == 1);
  CHECK(older.tool_calls[0].output == "load 0.1");
}

TEST_CASE("session log: keyed by session, or by working folder without one") {
  testing::StateScope state;
  const std::string by_session = SessionLogPath(StateDir(), Agent::kCopilot, "01HW", "/w");
  CHECK(by_session == state.dir().path() + "/causegate/sessions/copilot/01HW.jsonl");
  const std::string by_cwd = SessionLogPath(StateDir(), Agent::kCopilot, "", "/w");
  CHECK(by_cwd.find("/sessions/copilot/cwd-") != std::string::npos);
  CHECK(by_cwd != SessionLogPath(StateDir(), Agent::kCopilot, "", "/other"));
}

TEST_CASE("session log: a log at its size limit is cut back to its last prompt") {
  testing::StateScope state;
  using K = ObservedEvent::Kind;
  REQUIRE(AppendToSessionLog(Observed(K::kPrompt, "first")).ok());
  const std::string path = SessionLogPath(StateDir(), Agent::kCursor, "conv-1", "");
  {
    // Grow the log to the limit cheaply: a sparse tail of blank bytes.
    const int fd = open(path.c_str(), O_WRONLY);
    REQUIRE(fd >= 0);
    REQUIRE(ftruncate(fd, static_cast<off_t>(kMaxSessionLogBytes - 10)) == 0);
    close(fd);
  }
  REQUIRE(AppendToSessionLog(Observed(K::kPrompt, "second")).ok());
  REQUIRE(AppendToSessionLog(Observed(K::kAssistantText, "answer")).ok());
  evidence::LastTurn last;
  REQUIRE(evidence::ReadLastTurn(path, evidence::SessionKind::kMain, &last).ok());
  CHECK(last.turn.prompt == "second");
  CHECK(last.turn.final_message == "answer");
  evidence::PastTurn older;
  CHECK_FALSE(last.history->LoadOlder(&older));  // "first" was cut away
}

}  // namespace
}  // namespace causegate::gate
