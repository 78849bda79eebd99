// Gemini CLI's adapter: the AfterAgent input (research notes on hook
// protocols, section 3.3), the "deny" answer, the chat file as the source
// of the turn's tool calls, and the loop bounded by the counter and by the
// retry prompts the chat file keeps.
#include <catch2/catch.hpp>

#include <optional>

#include "gate/adapters.h"
#include "gate/hook_input.h"
#include "gate/loop_state.h"
#include "gate/state_dir.h"
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

TEST_CASE("gemini: the shell tool's PGID line is no distributed / NCCL symptom") {
  testing::StateScope state;
  json chat = ChatFile({});
  chat["messages"][1]["toolCalls"][0]["result"][0]["functionResponse"]["response"]["output"] =
      std::string("<untrusted_context>\nOutput: ") + testing::kDfOutput + "\nProcess Group PGID: 13904\n</untrusted_context>";
  const std::string path = state.dir().WriteRaw("session.json", chat.dump());
  const GateResult r = RunGate(AfterAgent(path, testing::kClaim), Agent::kGemini, testing::BuiltinRules(), GateOptions());
  REQUIRE(r.judged);
  REQUIRE(r.turn.tool_calls.size() == 1);
  CHECK(r.turn.tool_calls[0].output == testing::kDfOutput);
  CHECK(r.outcome.action == rules::Action::kBlock);
  CHECK_THAT(r.outcome.reason, !Catch::Contains("NCCL") && !Catch::Contains("distributed"));
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

// Gemini CLI 0.61 on a retry: prompt_response is every answer since the
// prompt joined by "\n", and the chat file holds the retry prompt.
json Retried(const std::vector<std::string>& answers_after_first) {
  std::vector<json> extra;
  int n = 3;
  for (const std::string& answer : answers_after_first) {
    extra.push_back({{"id", "u" + std::to_string(n)}, {"type", "user"}, {"content", "causegate blocked this stop: ..."}});
    extra.push_back({{"id", "g" + std::to_string(n)}, {"type", "gemini"}, {"content", answer}});
    ++n;
  }
  return ChatFile(extra);
}

std::string Joined(const std::vector<std::string>& answers) {
  std::string out;
  for (const std::string& a : answers) out += (out.empty() ? "" : "\n") + a;
  return out;
}

std::size_t Occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

TEST_CASE("gemini: a retry is judged on what the agent wrote after the last block") {
  const std::string hedge = "Hypothesis: the disk may be full; I have not confirmed it.";
  const std::string quoted = std::string("The export failed because the disk is full: `") + testing::kDfOutput + "`.";
  struct Case {
    const char* name;
    std::string retry;
    rules::Action expected;
  };
  const Case cases[] = {
      {"restated as a hypothesis", hedge, rules::Action::kAllow},
      {"quoted", quoted, rules::Action::kAllow},
      {"the same claim again", testing::kClaim, rules::Action::kBlock},
  };
  enum class Memory { kCounter, kChatFileOnly };
  for (const Memory memory : {Memory::kCounter, Memory::kChatFileOnly}) {
    for (const Case& c : cases) {
      INFO(c.name << (memory == Memory::kCounter ? " (counter)" : " (chat file only)"));
      testing::StateScope state;
      const std::string first = state.dir().WriteRaw("first.json", ChatFile({}).dump());
      GateResult r = RunGate(AfterAgent(first, testing::kClaim), Agent::kGemini, testing::BuiltinRules(), GateOptions());
      REQUIRE(r.outcome.action == rules::Action::kBlock);

      std::optional<testing::StateScope> lost;  // the counter's file gone: only the chat file tells
      if (memory == Memory::kChatFileOnly) lost.emplace();
      const std::vector<std::string> answers = {testing::kClaim, c.retry};
      const std::string retried = state.dir().WriteRaw("retried.json", Retried({c.retry}).dump());
      r = RunGate(AfterAgent(retried, Joined(answers), /*active=*/true), Agent::kGemini, testing::BuiltinRules(),
                  GateOptions());
      REQUIRE(r.judged);
      CHECK(r.turn.final_message == c.retry);
      CHECK(r.outcome.action == c.expected);
      if (c.expected == rules::Action::kBlock) {
        CHECK(r.outcome.block_number == 2);
        CHECK(Occurrences(r.outcome.reason, testing::kClaim) == 1);
      }
    }
  }
}

TEST_CASE("gemini: a third answer after two blocks is judged alone, then let through") {
  testing::StateScope state;
  const std::string first = state.dir().WriteRaw("first.json", ChatFile({}).dump());
  REQUIRE(RunGate(AfterAgent(first, testing::kClaim), Agent::kGemini, testing::BuiltinRules(), GateOptions())
              .outcome.action == rules::Action::kBlock);
  std::vector<std::string> answers = {testing::kClaim, testing::kClaim};
  std::string chat = state.dir().WriteRaw("two.json", Retried({testing::kClaim}).dump());
  GateResult r = RunGate(AfterAgent(chat, Joined(answers), true), Agent::kGemini, testing::BuiltinRules(), GateOptions());
  REQUIRE(r.outcome.action == rules::Action::kBlock);
  answers.push_back(testing::kClaim);
  chat = state.dir().WriteRaw("three.json", Retried({testing::kClaim, testing::kClaim}).dump());
  r = RunGate(AfterAgent(chat, Joined(answers), true), Agent::kGemini, testing::BuiltinRules(), GateOptions());
  REQUIRE(r.judged);
  CHECK(r.turn.final_message == testing::kClaim);
  CHECK(r.prior_blocks == 2);
  CHECK(r.outcome.action == rules::Action::kAllowUnproven);
  CHECK(r.verdict.unsupported() == 1);
}

TEST_CASE("gemini: which part of prompt_response is judged") {
  LoopState none;
  CHECK(adapters::GeminiTextSinceLastBlock("A\nB", none, {}) == "A\nB");
  CHECK(adapters::GeminiTextSinceLastBlock("A\nB", none, {"A"}) == "B");
  CHECK(adapters::GeminiTextSinceLastBlock("A\nB", none, {"narration not in the response", "A"}) == "B");
  CHECK(adapters::GeminiTextSinceLastBlock("A\nB", none, {"C"}) == "A\nB");
  CHECK(adapters::GeminiTextSinceLastBlock("A\n", none, {"A"}) == "A\n");  // nothing new: all of it
  LoopState kept;
  kept.blocks = 1;
  kept.judged_bytes = 1;
  kept.judged_hash = HashHex("A");
  CHECK(adapters::GeminiTextSinceLastBlock("A\nA", kept, {}) == "A");
  CHECK(adapters::GeminiTextSinceLastBlock("B\nA", kept, {}) == "B\nA");  // another text: all of it
  CHECK(adapters::GeminiTextSinceLastBlock("A", kept, {}) == "A");
}

}  // namespace
}  // namespace causegate::gate
