// GitHub Copilot CLI's adapter: agentStop / subagentStop in both dialects
// as GitHub's hooks reference shows them (research notes on hook
// protocols, section 3.4), the postToolUse / userPromptSubmitted events
// that fill the session log, and the final text from the session file.
#include <catch2/catch.hpp>

#include "gate/hook_input.h"
#include "unit/gate/agent_test_util.h"

namespace causegate::gate {
namespace {

using nlohmann::json;

GateResult Call(const json& input) {
  return RunGate(input.dump(), Agent::kCopilot, testing::BuiltinRules(), GateOptions());
}

// A Copilot session file whose last turn ends in `final`.
std::string EventsFile(const testing::StateScope& state, const std::string& final) {
  auto event = [](const char* type, const json& data) {
    return json{{"type", type}, {"data", data}, {"id", "e"}, {"timestamp", "2026-03-01T10:00:00.000Z"},
                {"parentId", nullptr}}
        .dump();
  };
  return state.dir().Write(
      "events.jsonl",
      {event("session.start", {{"sessionId", "01HW"}, {"version", 1}, {"producer", "copilot-agent"}}),
       event("user.message", {{"content", testing::kPrompt}, {"attachments", json::array()}}),
       event("assistant.message",
             {{"messageId", "m1"}, {"content", ""},
              {"toolRequests", {{{"toolCallId", "c1"}, {"name", "bash"}, {"arguments", {{"command", "df -h /srv"}}}}}}}),
       event("tool.execution_start", {{"toolCallId", "c1"}, {"toolName", "bash"}}),
       event("tool.execution_complete", {{"toolCallId", "c1"}, {"success", true}}),
       event("assistant.message", {{"messageId", "m2"}, {"content", final}, {"toolRequests", json::array()}})});
}

TEST_CASE("copilot: agentStop in camelCase, Stop in the VS Code dialect") {
  HookRequest r;
  REQUIRE(ParseHookInput(R"({"timestamp": 1704614750000, "cwd": "/path/to/project", "sessionId": "01HW2X3Y4Z5",
                             "transcriptPath": "/path/to/transcript.jsonl", "stopReason": "end_turn"})",
                         Agent::kAuto, &r)
              .ok());
  CHECK(r.agent == Agent::kCopilot);
  CHECK(r.camel_case);
  CHECK(r.event == "agentStop");
  CHECK(r.session_id == "01HW2X3Y4Z5");
  CHECK(r.transcript_path == "/path/to/transcript.jsonl");
  CHECK(r.stop_reason == "end_turn");

  REQUIRE(ParseHookInput(R"({"hook_event_name":"Stop","session_id":"01HW","timestamp":"2026-01-07T10:00:00Z",
                             "cwd":"/p","transcript_path":"/t.jsonl","stop_reason":"end_turn","stop_hook_active":true})",
                         Agent::kAuto, &r)
              .ok());
  CHECK(r.agent == Agent::kCopilot);
  CHECK_FALSE(r.camel_case);
  CHECK(r.stop_hook_active);

  REQUIRE(ParseHookInput(R"({"timestamp":1704614750000,"cwd":"/p","sessionId":"01HW","transcriptPath":"/t.jsonl",
                             "agentName":"explore","agentType":"explore","response":"Found the file."})",
                         Agent::kCopilot, &r)
              .ok());
  CHECK(r.subagent());
  CHECK(r.last_assistant_message == std::optional<std::string>("Found the file."));
}

TEST_CASE("copilot: answers") {
  HookRequest r;
  r.agent = Agent::kCopilot;
  testing::CheckDecisionAnswers(r, "block", /*warns_in_answer=*/true);
  r.camel_case = true;
  testing::CheckDecisionAnswers(r, "block", /*warns_in_answer=*/false);
}

TEST_CASE("copilot: tools are named as Claude Code names them") {
  const std::vector<std::tuple<json, const char*, const char*>> cases = {
      {{{"toolName", "bash"}, {"toolArgs", {{"command", "ls"}}}}, "Bash", R"({"command":"ls"})"},
      {{{"toolName", "view"}, {"toolArgs", {{"path", "/a"}}}}, "Read", R"({"file_path":"/a"})"},
      {{{"toolName", "create"}, {"toolArgs", {{"path", "/a"}, {"file_text", "x"}}}}, "Write",
       R"({"file_path":"/a","content":"x"})"},
      {{{"toolName", "edit"}, {"toolArgs", {{"path", "/a"}, {"old_str", "x"}, {"new_str", "y"}}}}, "Edit",
       R"({"file_path":"/a","old_string":"x","new_string":"y"})"},
      {{{"tool_name", "custom"}, {"tool_input", R"({"q":1})"}, {"tool_response", "ok"}, {"hook_event_name", "PostToolUse"}},
       "custom", R"({"q":1})"},
  };
  for (const auto& [input, name, args] : cases) {
    INFO(input.dump());
    HookRequest r;
    REQUIRE(ParseHookInput(input.dump(), Agent::kCopilot, &r).ok());
    REQUIRE(r.observed);
    CHECK(r.observed->tool_name == name);
    CHECK(json::parse(r.observed->tool_input) == json::parse(args));
  }
}

TEST_CASE("copilot: postToolUse output and the session file's final text are judged together") {
  testing::StateScope state;
  const json base = {{"timestamp", 1704614750000}, {"cwd", "/home/u/src"}, {"sessionId", "01HW"}};
  json prompt = base;
  prompt["prompt"] = testing::kPrompt;
  REQUIRE(Call(prompt).recorded);
  json tool = base;
  tool["toolName"] = "bash";
  tool["toolArgs"] = {{"command", "df -h /srv"}};
  tool["toolResult"] = {{"resultType", "success"}, {"textResultForLlm", testing::kDfOutput}};
  REQUIRE(Call(tool).recorded);

  json stop = base;
  stop["transcriptPath"] = EventsFile(state, testing::kClaim);
  stop["stopReason"] = "end_turn";
  GateResult r = Call(stop);
  REQUIRE(r.judged);
  CHECK(r.turn.final_message == testing::kClaim);
  CHECK(r.outcome.action == rules::Action::kBlock);
  CHECK(json::parse(r.output)["decision"] == "block");

  stop["transcriptPath"] = EventsFile(state, std::string(testing::kClaim) + " Evidence: `" + testing::kDfOutput + "`");
  r = Call(stop);
  REQUIRE(r.judged);
  CHECK(r.outcome.action == rules::Action::kAllow);
}

TEST_CASE("copilot: without the session log the gate fails open and names the fix") {
  testing::StateScope state;
  const GateResult r = Call({{"sessionId", "01HW"}, {"cwd", "/p"}, {"transcriptPath", "/t"}, {"stopReason", "end_turn"}});
  CHECK_FALSE(r.judged);
  CHECK_THAT(r.fail_open_reason, Catch::Contains("causegate init --agent copilot"));
}

}  // namespace
}  // namespace causegate::gate
