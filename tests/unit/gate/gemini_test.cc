// Gemini CLI's adapter: the AfterAgent input (research notes on hook
// protocols, section 3.3), the "deny" answer, the chat file as the source
// of the turn's tool calls, and the loop bounded by the counter and by the
// retry prompts the chat file keeps.
#include <catch2/catch.hpp>

#include "gate/hook_input.h"
#include "unit/gate/agent_test_util.h"

namespace causegate::gate {
namespace {

using nlohmann::json;

json ChatFile(const std::vector<json>& extra_messages) {
  json messages = json::array({
      {{"id", "u1"}, {"timestamp", "2026-03-01T10:00:00Z"}, {"type", "user"}, {"content", testing::kPrompt}},
      {{"id", "g1"},
       {"timestamp", "2026-03-01T10:00:05Z"},
       {"type", "gemini"},
       {"content", "Let me check the disk."},
       {"toolCalls",
        {{{"id", "run_shell_command-1"},
          {"name", "run_shell_command"},
          {"args", {{"command", "df -h /srv"}}},
          {"result",
           {{{"functionResponse",
              {{"id", "run_shell_command-1"}, {"name", "run_shell_command"},
               {"response", {{"output", testing::kDfOutput}}}}}}}},
          {"status", "success"},
          {"timestamp", "2026-03-01T10:00:06Z"}}}}},
      {{"id", "g2"}, {"timestamp", "2026-03-01T10:00:09Z"}, {"type", "gemini"}, {"content", testing::kClaim}},
  });
  for (const json& m : extra_messages) messages.push_back(m);
  return json{{"sessionId", "s1"}, {"projectHash", "ab12"}, {"startTime", "2026-03-01T10:00:00Z"},
              {"lastUpdated", "2026-03-01T10:00:09Z"}, {"messages", messages}};
}

std::string AfterAgent(const std::string& chat, const std::string& response, bool active = false) {
  return json{{"session_id", "s1"},       {"transcript_path", chat},    {"cwd", "/home/u/src"},
              {"hook_event_name", "AfterAgent"}, {"timestamp", "2026-03-01T10:00:10Z"}, {"prompt", testing::kPrompt},
              {"prompt_response", response}, {"stop_hook_active", active}}
      .dump();
}

TEST_CASE("gemini: the AfterAgent input") {
  HookRequest r;
  REQUIRE(ParseHookInput(AfterAgent("/home/u/.gemini/tmp/ab12/chats/session-1.json", "done"), Agent::kAuto, &r).ok());
  CHECK(r.agent == Agent::kGemini);
  CHECK(r.event == "AfterAgent");
  CHECK(r.prompt == testing::kPrompt);
  CHECK(r.last_assistant_message == std::optional<std::string>("done"));
}

TEST_CASE("gemini: answers use decision deny") {
  HookRequest r;
  r.agent = Agent::kGemini;
  testing::CheckDecisionAnswers(r, "deny", /*warns_in_answer=*/true);
}

TEST_CASE("gemini: the chat file's tool output decides, as for Claude Code") {
  testing::StateScope state;
  const std::string chat = state.dir().WriteRaw("session.json", ChatFile({}).dump(2));
  GateResult r = RunGate(AfterAgent(chat, testing::kClaim), Agent::kAuto, testing::BuiltinRules(), GateOptions());
  REQUIRE(r.judged);
  CHECK(r.outcome.action == rules::Action::kBlock);
  CHECK(r.turn.tool_calls.size() == 1);
  CHECK(json::parse(r.output)["decision"] == "deny");
  CHECK_THAT(r.outcome.reason, Catch::Contains("no-citation"));

  const std::string cited = std::string(testing::kClaim) + " Evidence: `" + testing::kDfOutput + "`";
  r = RunGate(AfterAgent(chat, cited), Agent::kAuto, testing::BuiltinRules(), GateOptions());
  REQUIRE(r.judged);
  CHECK(r.outcome.action == rules::Action::kAllow);
  CHECK(r.output.empty());
}

TEST_CASE("gemini: without a chat file the gate fails open instead of guessing no-probe") {
  testing::StateScope state;
  GateResult r = RunGate(AfterAgent("", testing::kClaim), Agent::kGemini, testing::BuiltinRules(), GateOptions());
  CHECK_FALSE(r.judged);
  CHECK_THAT(r.fail_open_reason, Catch::Contains("tool calls are unknown"));
  r = RunGate(AfterAgent(state.dir().File("gone.json"), testing::kClaim), Agent::kGemini, testing::BuiltinRules(),
              GateOptions());
  CHECK_FALSE(r.judged);
  CHECK(r.output.empty());
}

TEST_CASE("gemini: retries are bounded by the counter and by retry prompts in the chat file") {
  testing::StateScope state;
  const std::string chat = state.dir().WriteRaw("session.json", ChatFile({}).dump());
  // stop_hook_active stays false (Gemini before its fix): the counter bounds it.
  const rules::Action expected[] = {rules::Action::kBlock, rules::Action::kBlock, rules::Action::kAllowUnproven};
  for (int call = 0; call < 3; ++call) {
    INFO("call " << call);
    const GateResult r =
        RunGate(AfterAgent(chat, testing::kClaim), Agent::kGemini, testing::BuiltinRules(), GateOptions());
    REQUIRE(r.judged);
    CHECK(r.outcome.action == expected[call]);
  }

  // In a fresh state folder, two retry prompts in the chat file count as two blocks.
  testing::StateScope fresh;
  const json retry = {{"id", "u2"}, {"type", "user"}, {"content", "causegate blocked this stop: 1 causal claim ..."}};
  const std::string retried = fresh.dir().WriteRaw(
      "retried.json",
      ChatFile({retry, {{"id", "g3"}, {"type", "gemini"}, {"content", testing::kClaim}},
                {{"id", "u3"}, {"type", "user"}, {"content", "causegate blocked this stop: again"}},
                {{"id", "g4"}, {"type", "gemini"}, {"content", testing::kClaim}}})
          .dump());
  const GateResult r =
      RunGate(AfterAgent(retried, testing::kClaim), Agent::kGemini, testing::BuiltinRules(), GateOptions());
  REQUIRE(r.judged);
  CHECK(r.turn.prompt == testing::kPrompt);
  CHECK(r.prior_blocks == 2);
  CHECK(r.outcome.action == rules::Action::kAllowUnproven);
}

}  // namespace
}  // namespace causegate::gate
