// The context of each turn (TurnContext: session, agent version, model,
// start time, folder) as ForEachTurn reads it from each agent's files, and
// the time forms IsoTime accepts.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "evidence/claude_line.h"
#include "evidence/transcript.h"
#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using nlohmann::json;

std::vector<Turn> AllTurns(const std::string& path) {
  std::vector<Turn> turns;
  const Status s = ForEachTurn(path, SessionKind::kMain, [&turns](const Turn& turn, int) {
    turns.push_back(turn);
    return true;
  });
  REQUIRE(s.ok());
  return turns;
}

std::string Line(const json& j) { return j.dump(); }

TEST_CASE("IsoTime: ISO 8601 as written, epoch milliseconds in UTC, nothing else") {
  CHECK(IsoTime("2026-02-10T21:11:56.846Z") == "2026-02-10T21:11:56.846Z");
  CHECK(IsoTime("2026-02-10 21:11:56+02:00") == "2026-02-10T21:11:56+02:00");
  CHECK(IsoTime("1765629411136") == "2025-12-13T12:36:51.136Z");
  CHECK(IsoTime("t").empty());
  CHECK(IsoTime("2026-02-10").empty());
  CHECK(IsoTime("yesterday at noon").empty());
  CHECK(IsoTime("123").empty());
}

TEST_CASE("Claude Code: session, version, folder and time from the prompt line, model from the answer") {
  testing::TempDir dir;
  auto user = [](const char* text, const char* time, const char* cwd) {
    return Line({{"type", "user"}, {"sessionId", "s-1"}, {"version", "2.1.38"}, {"cwd", cwd}, {"timestamp", time},
                 {"isSidechain", false}, {"message", {{"role", "user"}, {"content", text}}}});
  };
  auto answer = [](const char* id, const char* model, const char* text) {
    return Line({{"type", "assistant"}, {"sessionId", "s-1"}, {"timestamp", "2026-02-10T21:12:00.000Z"},
                 {"message", {{"id", id}, {"model", model}, {"role", "assistant"},
                              {"content", json::array({{{"type", "text"}, {"text", text}}})}}}});
  };
  const std::string path = dir.Write(
      "s-1.jsonl", {user("first", "2026-02-10T21:11:56.846Z", "/srv/a"), answer("m1", "claude-opus-4-6", "one"),
                    user("second", "2026-02-11T08:00:00.000Z", "/srv/b"), answer("m2", "<synthetic>", "API error"),
                    user("third", "2026-02-11T09:00:00.000Z", "/srv/b"), answer("m3", "claude-sonnet-4-5", "three")});
  const std::vector<Turn> turns = AllTurns(path);
  REQUIRE(turns.size() == 3);
  CHECK(turns[0].context.session_id == "s-1");
  CHECK(turns[0].context.agent_version == "2.1.38");
  CHECK(turns[0].context.model == "claude-opus-4-6");
  CHECK(turns[0].context.started_at == "2026-02-10T21:11:56.846Z");
  CHECK(turns[0].context.cwd == "/srv/a");
  // A turn whose only answer is Claude Code's own keeps the model named before.
  CHECK(turns[1].context.model == "claude-opus-4-6");
  CHECK(turns[1].context.cwd == "/srv/b");
  CHECK(turns[2].context.model == "claude-sonnet-4-5");
  CHECK(turns[2].context.started_at == "2026-02-11T09:00:00.000Z");
}

TEST_CASE("Codex rollout: session_meta and turn_context give the context, the prompt its time") {
  testing::TempDir dir;
  auto line = [](const char* time, const char* type, const json& payload) {
    return Line({{"timestamp", time}, {"type", type}, {"payload", payload}});
  };
  const std::string path = dir.Write(
      "rollout-x.jsonl",
      {line("2025-12-28T12:18:30.533Z", "session_meta",
            {{"id", "019b"}, {"cwd", "/Users/m/app"}, {"cli_version", "0.77.0"}, {"originator", "codex_cli_rs"}}),
       line("2025-12-28T12:21:44.491Z", "event_msg", {{"type", "user_message"}, {"message", "why?"}}),
       line("2025-12-28T12:21:44.600Z", "turn_context", {{"cwd", "/Users/m/app"}, {"model", "gpt-5.2-codex"}}),
       line("2025-12-28T12:21:50.000Z", "event_msg", {{"type", "task_complete"}, {"last_agent_message", "done"}})});
  const std::vector<Turn> turns = AllTurns(path);
  REQUIRE(turns.size() == 1);
  CHECK(turns[0].context.session_id == "019b");
  CHECK(turns[0].context.agent_version == "0.77.0");
  CHECK(turns[0].context.model == "gpt-5.2-codex");
  CHECK(turns[0].context.started_at == "2025-12-28T12:21:44.491Z");
  CHECK(turns[0].context.cwd == "/Users/m/app");
}

TEST_CASE("Gemini chat: the header's session, each message's model, the prompt's time") {
  testing::TempDir dir;
  const std::string path = dir.Write(
      "session-x.jsonl",
      {Line({{"sessionId", "g-1"}, {"projectHash", "ab"}, {"startTime", "2026-12-01T10:00:00Z"}}),
       Line({{"id", "u1"}, {"timestamp", "2026-12-01T10:00:01Z"}, {"type", "user"}, {"content", "why?"}}),
       Line({{"id", "g1"}, {"timestamp", "2026-12-01T10:00:03Z"}, {"type", "gemini"}, {"model", "gemini-2.5-pro"},
             {"content", "because"}})});
  const std::vector<Turn> turns = AllTurns(path);
  REQUIRE(turns.size() == 1);
  CHECK(turns[0].context.session_id == "g-1");
  CHECK(turns[0].context.model == "gemini-2.5-pro");
  CHECK(turns[0].context.started_at == "2026-12-01T10:00:01Z");
  CHECK(turns[0].context.cwd.empty());  // Gemini's chat files do not name it
}

TEST_CASE("Copilot events: session.start, the model change, the prompt's time") {
  testing::TempDir dir;
  auto event = [](const char* time, const char* type, const json& data) {
    return Line({{"type", type}, {"data", data}, {"id", "e"}, {"timestamp", time}, {"parentId", nullptr}});
  };
  const std::string path = dir.Write(
      "events.jsonl",
      {event("2026-12-01T10:00:00Z", "session.start",
             {{"sessionId", "c-1"}, {"copilotVersion", "1.0.102"}, {"context", {{"cwd", "/work/app"}}}}),
       event("2026-12-01T10:00:01Z", "session.model_change", {{"newModel", "claude-sonnet-4.5"}}),
       event("2026-12-01T10:00:02Z", "user.message", {{"content", "why?"}}),
       event("2026-12-01T10:00:03Z", "assistant.message", {{"messageId", "m"}, {"content", "because"}})});
  const std::vector<Turn> turns = AllTurns(path);
  REQUIRE(turns.size() == 1);
  CHECK(turns[0].context.session_id == "c-1");
  CHECK(turns[0].context.agent_version == "1.0.102");
  CHECK(turns[0].context.model == "claude-sonnet-4.5");
  CHECK(turns[0].context.started_at == "2026-12-01T10:00:02Z");
  CHECK(turns[0].context.cwd == "/work/app");
}

}  // namespace
}  // namespace causegate::evidence
