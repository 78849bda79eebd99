// Codex CLI's adapter: the Stop input as its schema and fixtures show it
// (research notes on hook protocols, section 3.2), its answers, and the
// per-session counter that bounds a loop Codex itself never caps.
#include <catch2/catch.hpp>

#include <filesystem>

#include "gate/hook_input.h"
#include "gate/loop_state.h"
#include "gate/state_dir.h"
#include "unit/gate/agent_test_util.h"

namespace causegate::gate {
namespace {

using nlohmann::json;

// A Stop of session s1 whose final message makes an unsupported claim, its
// transcript written in dir.
std::string UnsupportedStop(const evidence::testing::TempDir& dir) {
  const std::string path = dir.Write(
      "s.jsonl", {evidence::testing::Prompt(testing::kPrompt),
                  evidence::testing::ToolUse("m1", "t1", "Bash", {{"command", "df -h /srv"}}),
                  evidence::testing::Result("t1", testing::kDfOutput), evidence::testing::Text("m2", testing::kClaim)});
  return json{{"hook_event_name", "Stop"}, {"session_id", "s1"}, {"turn_id", "t1"}, {"transcript_path", path},
              {"stop_hook_active", false}, {"last_assistant_message", testing::kClaim}}
      .dump();
}

TEST_CASE("codex: the Stop input") {
  HookRequest r;
  // The fixture input of a third-party Codex hook, plus the schema's other
  // required fields.
  REQUIRE(ParseHookInput(R"({"hook_event_name":"Stop","stop_hook_active":false,"session_id":"0199a213",
      "turn_id":"0199a214","last_assistant_message":"all set","transcript_path":"/home/u/.codex/sessions/2026/03/01/rollout-2026-03-01T10-00-00-0199a213.jsonl",
      "cwd":"/home/u/src","model":"gpt-5-codex","permission_mode":"default"})",
                         Agent::kCodex, &r)
              .ok());
  CHECK(r.agent == Agent::kCodex);
  CHECK(r.turn_id == "0199a214");
  CHECK(r.last_assistant_message == std::optional<std::string>("all set"));
  CHECK_FALSE(r.subagent());
}

TEST_CASE("codex: a null transcript_path fails open, and says so") {
  HookRequest r;
  const Status s = ParseHookInput(R"({"hook_event_name":"Stop","session_id":"s","turn_id":"t","transcript_path":null,
      "stop_hook_active":false,"last_assistant_message":null})",
                                  Agent::kCodex, &r);
  CHECK_THAT(s.message(), Catch::Contains("transcript_path is null"));
}

TEST_CASE("codex: answers fit its output schema") {
  HookRequest r;
  r.agent = Agent::kCodex;
  testing::CheckDecisionAnswers(r, "block", /*warns_in_answer=*/true);
}

TEST_CASE("codex: the counter bounds the loop even when stop_hook_active stays false") {
  testing::StateScope state;
  const std::string input = UnsupportedStop(state.dir());
  const rules::Action expected[] = {rules::Action::kBlock, rules::Action::kBlock, rules::Action::kAllowUnproven,
                                    rules::Action::kBlock};
  for (int call = 0; call < 4; ++call) {
    INFO("call " << call);
    const GateResult r = RunGate(input, Agent::kCodex, testing::BuiltinRules(), GateOptions());
    REQUIRE(r.judged);
    CHECK(r.outcome.action == expected[call]);
    if (call < 3) CHECK(r.prior_blocks == call);
    if (call == 1) CHECK(r.outcome.block_number == 2);
  }
}

TEST_CASE("codex: the counter lives in GateOptions::state_dir when one is named") {
  testing::StateScope state;  // the default folder, which must stay empty
  const evidence::testing::TempDir shared;
  const std::string input = UnsupportedStop(state.dir());
  GateOptions named;
  named.state_dir = shared.path();
  GateResult r = RunGate(input, Agent::kCodex, testing::BuiltinRules(), named);
  CHECK(r.outcome.block_number == 1);
  CHECK(std::filesystem::exists(LoopStatePath(shared.path(), Agent::kCodex, "s1", "")));
  CHECK_FALSE(std::filesystem::exists(LoopStatePath(StateDir(), Agent::kCodex, "s1", "")));
  // Another front-end naming the same folder counts on from there; the
  // default folder knows nothing of it.
  r = RunGate(input, Agent::kCodex, testing::BuiltinRules(), named);
  CHECK(r.outcome.block_number == 2);
  r = RunGate(input, Agent::kCodex, testing::BuiltinRules(), GateOptions());
  CHECK(r.outcome.block_number == 1);
}

}  // namespace
}  // namespace causegate::gate
