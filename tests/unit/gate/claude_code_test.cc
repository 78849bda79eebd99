// Claude Code's adapter on inputs shaped as its documentation shows them
// (research notes on hook protocols, section 1.2) and its answers.
#include <catch2/catch.hpp>

#include "gate/hook_input.h"
#include "unit/gate/agent_test_util.h"

namespace causegate::gate {
namespace {

using nlohmann::json;

TEST_CASE("claude-code: the documented SubagentStop input") {
  HookRequest r;
  REQUIRE(ParseHookInput(R"({
    "session_id": "abc123",
    "transcript_path": "~/.claude/projects/.../abc123.jsonl",
    "cwd": "/Users/...",
    "permission_mode": "default",
    "hook_event_name": "SubagentStop",
    "stop_hook_active": false,
    "agent_id": "def456",
    "agent_type": "Explore",
    "agent_transcript_path": "~/.claude/projects/.../abc123/subagents/agent-def456.jsonl",
    "last_assistant_message": "Analysis complete. Found 3 potential issues...",
    "background_tasks": [],
    "session_crons": []
  })",
                         Agent::kClaudeCode, &r)
              .ok());
  CHECK(r.subagent());
  CHECK(r.session_id == "abc123");
  CHECK(r.agent_transcript_path == "~/.claude/projects/.../abc123/subagents/agent-def456.jsonl");
  REQUIRE(r.last_assistant_message);
  CHECK(*r.last_assistant_message == "Analysis complete. Found 3 potential issues...");
  CHECK_FALSE(r.stop_hook_active);
}

TEST_CASE("claude-code: answers") {
  HookRequest r;
  r.agent = Agent::kClaudeCode;
  testing::CheckDecisionAnswers(r, "block", /*warns_in_answer=*/true);
}

TEST_CASE("claude-code: the transcript counts blocks; no per-session counter") {
  testing::StateScope state;
  const std::string path = state.dir().Write(
      "s.jsonl", {evidence::testing::Prompt(testing::kPrompt),
                  evidence::testing::ToolUse("m1", "t1", "Bash", {{"command", "df -h /srv"}}),
                  evidence::testing::Result("t1", testing::kDfOutput), evidence::testing::Text("m2", testing::kClaim)});
  const std::string input = json{{"hook_event_name", "Stop"}, {"session_id", "s1"}, {"transcript_path", path}}.dump();
  for (int call = 0; call < 3; ++call) {
    INFO("call " << call);
    const GateResult r = RunGate(input, Agent::kAuto, testing::BuiltinRules(), GateOptions());
    REQUIRE(r.judged);
    CHECK(r.outcome.action == rules::Action::kBlock);
    CHECK(r.prior_blocks == 0);  // nothing in the transcript says it was blocked
  }
}

}  // namespace
}  // namespace causegate::gate
