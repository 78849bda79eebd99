// Copilot CLI session files: the final text for the hook, every turn for
// check and explain.
#include "evidence/copilot_transcript.h"
#include "evidence/transcript.h"

#include <catch2/catch.hpp>

#include "unit/evidence/reread_check.h"
#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using nlohmann::json;

std::string Event(const char* type, const json& data) {
  return json{{"type", type}, {"data", data}, {"id", "e"}, {"timestamp", "t"}, {"parentId", nullptr}}.dump();
}

TEST_CASE("copilot session file: the last assistant text of the last turn") {
  testing::TempDir dir;
  CopilotFinalMessage final;
  const std::string path = dir.Write(
      "events.jsonl", {Event("session.start", {{"sessionId", "s"}}), Event("user.message", {{"content", "q1"}}),
                       Event("assistant.message", {{"messageId", "a"}, {"content", "old answer"}}),
                       Event("user.message", {{"content", "q2"}}),
                       Event("assistant.message", {{"messageId", "b"}, {"content", "The cause is X."}}),
                       Event("assistant.message", {{"messageId", "c"}, {"content", ""}, {"toolRequests", json::array()}}),
                       Event("tool.execution_complete", {{"toolCallId", "t"}, {"success", true}}), "{not json"});
  REQUIRE(ReadCopilotFinalMessage(path, &final).ok());
  CHECK(final.text == "The cause is X.");
  CHECK(final.answered);

  const std::string no_text = dir.Write("none.jsonl", {Event("user.message", {{"content", "q"}})});
  final.text = "stale";
  final.answered = true;
  REQUIRE(ReadCopilotFinalMessage(no_text, &final).ok());
  CHECK(final.text.empty());
  CHECK_FALSE(final.answered);

  CHECK_FALSE(ReadCopilotFinalMessage(dir.Write("x.jsonl", {"{}", "[1]"}), &final).ok());
  CHECK_FALSE(ReadCopilotFinalMessage(dir.File("missing.jsonl"), &final).ok());
}

TEST_CASE("copilot session file: narration before a tool call is not the answer") {
  testing::TempDir dir;
  const json call = {{{"toolCallId", "t"}, {"name", "bash"}, {"arguments", {{"command", "df"}}}}};
  const std::string prompt = Event("user.message", {{"content", "q"}});
  for (const auto& [name, lines] : std::vector<std::pair<const char*, std::vector<std::string>>>{
           {"text with toolRequests",
            {prompt, Event("assistant.message", {{"messageId", "a"}, {"content", "Let me look."}, {"toolRequests", call}})}},
           {"text, then a message with toolRequests",
            {prompt, Event("assistant.message", {{"messageId", "a"}, {"content", "Let me look."}}),
             Event("assistant.message", {{"messageId", "b"}, {"content", ""}, {"toolRequests", call}}),
             Event("tool.execution_complete", {{"toolCallId", "t"}, {"success", true}})}},
       }) {
    INFO(name);
    CopilotFinalMessage final;
    REQUIRE(ReadCopilotFinalMessage(dir.Write("events.jsonl", lines), &final).ok());
    CHECK(final.text == "Let me look.");
    CHECK_FALSE(final.answered);
  }
}

TEST_CASE("copilot session file: every turn, for check and explain") {
  testing::TempDir dir;
  const json bash = {{"toolCallId", "call_1"}, {"name", "bash"}, {"arguments", {{"command", "cat build.log"}}}, {"type", "function"}};
  const json view = {{"toolCallId", "call_2"}, {"name", "view"}, {"arguments", R"({"path":"/w/setup.cfg"})"}};
  const std::string path = dir.Write(
      "events.jsonl",
      {Event("session.start", {{"sessionId", "s"}, {"copilotVersion", "1.0.102"}}),
       Event("user.message", {{"content", "first question"}}),
       Event("assistant.message", {{"messageId", "a"}, {"content", "first answer"}}),
       Event("user.message", {{"content", "why did the build fail?"}}),
       Event("assistant.turn_start", {{"turnId", "0"}}),
       Event("assistant.message", {{"messageId", "b"}, {"content", "Reading the log."}, {"toolRequests", {bash, view}}}),
       Event("tool.execution_start", {{"toolCallId", "call_1"}, {"toolName", "bash"}}),
       Event("tool.execution_complete",
             {{"toolCallId", "call_1"}, {"success", true},
              {"result", {{"content", "ld: cannot find -lssl\n<shellId: 0 completed with exit code 1>"}}},
              {"shellExecution", {{"exitCode", 1}}}}),
       Event("tool.execution_complete", {{"toolCallId", "call_2"}, {"success", true}, {"result", {{"content", "[options]"}}}}),
       Event("assistant.message", {{"messageId", "c"}, {"content", "The build failed because libssl is missing."}}),
       Event("user.message", {{"content", "<current_datetime>2026-12-01</current_datetime>\n\ncausegate blocked this stop: ..."}}),
       Event("assistant.message", {{"messageId", "d"}, {"content", "Hypothesis: libssl is missing."}}),
       Event("session.shutdown", json::object())});
  TranscriptFormat format = TranscriptFormat::kUnknown;
  REQUIRE(DetectTranscriptFormat(path, &format).ok());
  CHECK(format == TranscriptFormat::kCopilotEvents);
  std::vector<Turn> turns;
  REQUIRE(ForEachTurn(path, SessionKind::kMain, [&turns](const Turn& t, int) {
            turns.push_back(t);
            return true;
          }).ok());
  REQUIRE(turns.size() == 2);
  CHECK(testing::CheckRereads(path, SessionKind::kMain) == 2);
  CHECK(turns[0].prompt == "first question");
  CHECK(turns[0].final_message == "first answer");
  const Turn& t = turns[1];
  CHECK(t.prompt == "why did the build fail?");
  CHECK(t.prompt_line == 4);
  REQUIRE(t.tool_calls.size() == 2);
  CHECK(t.tool_calls[0].name == "Bash");
  CHECK(t.tool_calls[0].command == "cat build.log");
  CHECK(t.tool_calls[0].output == "ld: cannot find -lssl");
  CHECK(t.tool_calls[0].is_error);
  CHECK(t.tool_calls[1].name == "Read");
  CHECK(t.tool_calls[1].command == "/w/setup.cfg");
  CHECK(json::parse(t.tool_calls[1].input).contains("file_path"));
  CHECK(t.tool_calls[1].output == "[options]");
  CHECK_FALSE(t.tool_calls[1].is_error);
  CHECK(t.stop_feedback == std::vector<std::string>{"causegate blocked this stop: ..."});
  CHECK(t.final_message == "Hypothesis: libssl is missing.");
  CHECK(t.final_line == 12);

  LastTurn last;
  REQUIRE(ReadLastTurn(path, SessionKind::kMain, &last).ok());
  CHECK(last.turn.prompt == t.prompt);
  CHECK(last.turn.tool_calls.size() == 2);
  PastTurn past;
  REQUIRE(last.history->LoadOlder(&past));
  CHECK(past.prompt == "first question");
}

}  // namespace
}  // namespace causegate::evidence
