// The final text of a Copilot CLI session file.
#include "evidence/copilot_transcript.h"

#include <catch2/catch.hpp>

#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using nlohmann::json;

std::string Event(const char* type, const json& data) {
  return json{{"type", type}, {"data", data}, {"id", "e"}, {"timestamp", "t"}, {"parentId", nullptr}}.dump();
}

TEST_CASE("copilot session file: the last assistant text of the last turn") {
  testing::TempDir dir;
  std::string final;
  const std::string path = dir.Write(
      "events.jsonl", {Event("session.start", {{"sessionId", "s"}}), Event("user.message", {{"content", "q1"}}),
                       Event("assistant.message", {{"messageId", "a"}, {"content", "old answer"}}),
                       Event("user.message", {{"content", "q2"}}),
                       Event("assistant.message", {{"messageId", "b"}, {"content", "The cause is X."}}),
                       Event("assistant.message", {{"messageId", "c"}, {"content", ""}, {"toolRequests", json::array()}}),
                       Event("tool.execution_complete", {{"toolCallId", "t"}, {"success", true}}), "{not json"});
  REQUIRE(ReadCopilotFinalMessage(path, &final).ok());
  CHECK(final == "The cause is X.");

  const std::string no_text = dir.Write("none.jsonl", {Event("user.message", {{"content", "q"}})});
  final = "stale";
  REQUIRE(ReadCopilotFinalMessage(no_text, &final).ok());
  CHECK(final.empty());

  CHECK_FALSE(ReadCopilotFinalMessage(dir.Write("x.jsonl", {"{}", "[1]"}), &final).ok());
  CHECK_FALSE(ReadCopilotFinalMessage(dir.File("missing.jsonl"), &final).ok());
}

}  // namespace
}  // namespace causegate::evidence
