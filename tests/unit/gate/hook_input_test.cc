// The adapter front door: agent names, detection from the documented input
// shapes of every agent (research notes on hook protocols, sections 1.2,
// 3.1-3.4), and the checks every input gets whatever the agent.
#include "gate/hook_input.h"

#include <catch2/catch.hpp>

#include <tuple>
#include <vector>

namespace causegate::gate {
namespace {

TEST_CASE("agent names round-trip and aliases parse") {
  for (const Agent a : {Agent::kAuto, Agent::kClaudeCode, Agent::kCodex, Agent::kGemini, Agent::kCursor,
                        Agent::kCopilot}) {
    Agent parsed = Agent::kAuto;
    INFO(AgentName(a));
    REQUIRE(ParseAgentName(AgentName(a), &parsed));
    CHECK(parsed == a);
    CHECK_THAT(AgentNameList(), Catch::Contains(AgentName(a)));
  }
  Agent parsed = Agent::kAuto;
  CHECK(ParseAgentName("claude", &parsed));
  CHECK(parsed == Agent::kClaudeCode);
  CHECK_FALSE(ParseAgentName("windsurf", &parsed));
  CHECK_FALSE(ParseAgentName("cline", &parsed));
}

TEST_CASE("detection: each agent's documented input is read by its own adapter") {
  const std::vector<std::tuple<const char*, std::string, Agent, HookKind>> cases = {
      {"Claude Code Stop (docs example)",
       R"({"session_id":"abc123","transcript_path":"~/.claude/projects/x/00893aaf.jsonl","cwd":"/Users/x",
           "permission_mode":"default","hook_event_name":"Stop","stop_hook_active":true,
           "last_assistant_message":"I've completed the refactoring.","background_tasks":[],"session_crons":[]})",
       Agent::kClaudeCode, HookKind::kStop},
      {"Claude Code SubagentStop",
       R"({"session_id":"abc123","transcript_path":"/t.jsonl","cwd":"/","permission_mode":"default",
           "hook_event_name":"SubagentStop","stop_hook_active":false,"agent_id":"def456","agent_type":"Explore",
           "agent_transcript_path":"/t/subagents/agent-def456.jsonl","last_assistant_message":"Analysis complete."})",
       Agent::kClaudeCode, HookKind::kStop},
      {"Codex Stop (schema: turn_id required)",
       R"({"hook_event_name":"Stop","stop_hook_active":false,"session_id":"s","turn_id":"t","cwd":"/",
           "model":"gpt-5","permission_mode":"default","transcript_path":"/r.jsonl","last_assistant_message":"all set"})",
       Agent::kCodex, HookKind::kStop},
      {"Gemini AfterAgent",
       R"({"session_id":"s","transcript_path":"/c.json","cwd":"/","hook_event_name":"AfterAgent",
           "timestamp":"2026-03-01T10:00:00Z","prompt":"why?","prompt_response":"done","stop_hook_active":false})",
       Agent::kGemini, HookKind::kStop},
      {"Cursor stop",
       R"({"conversation_id":"c","generation_id":"g","model":"m","hook_event_name":"stop","cursor_version":"1.7.2",
           "workspace_roots":["/w"],"user_email":null,"status":"completed","loop_count":0})",
       Agent::kCursor, HookKind::kStop},
      {"Cursor afterAgentResponse",
       R"({"conversation_id":"c","generation_id":"g","hook_event_name":"afterAgentResponse","workspace_roots":["/w"],
           "text":"done"})",
       Agent::kCursor, HookKind::kObserve},
      {"Copilot agentStop (camelCase)",
       R"({"timestamp":1704614750000,"cwd":"/p","sessionId":"01HW","transcriptPath":"/t.jsonl","stopReason":"end_turn"})",
       Agent::kCopilot, HookKind::kStop},
      {"Copilot Stop (VS Code dialect)",
       R"({"hook_event_name":"Stop","session_id":"01HW","timestamp":"2026-01-07T10:00:00Z","cwd":"/p",
           "transcript_path":"/t.jsonl","stop_reason":"end_turn","stop_hook_active":false})",
       Agent::kCopilot, HookKind::kStop},
      {"Copilot postToolUse",
       R"({"timestamp":1704614750000,"cwd":"/p","sessionId":"01HW","toolName":"bash","toolArgs":{"command":"ls"},
           "toolResult":{"resultType":"success","textResultForLlm":"a b"}})",
       Agent::kCopilot, HookKind::kObserve},
      {"no event name, no agent field: Claude Code as before",
       R"({"transcript_path":"/t.jsonl"})", Agent::kClaudeCode, HookKind::kStop},
  };
  for (const auto& [name, input, agent, kind] : cases) {
    INFO(name);
    HookRequest r;
    const Status s = ParseHookInput(input, Agent::kAuto, &r);
    REQUIRE(s.ok());
    CHECK(r.agent == agent);
    CHECK(r.kind == kind);
  }
}

TEST_CASE("--agent overrides detection") {
  HookRequest r;
  // A Claude Code-shaped input read as Codex: Codex's adapter reads it.
  REQUIRE(ParseHookInput(R"({"hook_event_name":"Stop","transcript_path":"/t.jsonl"})", Agent::kCodex, &r).ok());
  CHECK(r.agent == Agent::kCodex);
  // Gemini's adapter refuses an event it does not know.
  CHECK_FALSE(ParseHookInput(R"({"hook_event_name":"Stop","transcript_path":"/t"})", Agent::kGemini, &r).ok());
}

TEST_CASE("every agent's input gets the same bounds") {
  for (const Agent agent : {Agent::kAuto, Agent::kClaudeCode, Agent::kCodex, Agent::kGemini, Agent::kCursor,
                            Agent::kCopilot}) {
    INFO(AgentName(agent));
    HookRequest r;
    CHECK_THAT(ParseHookInput("", agent, &r).message(), Catch::Contains("empty"));
    CHECK_THAT(ParseHookInput("{", agent, &r).message(), Catch::Contains("not valid JSON"));
    CHECK_THAT(ParseHookInput("[1]", agent, &r).message(), Catch::Contains("not a JSON object"));
    CHECK_THAT(ParseHookInput(std::string(200, '[') + std::string(200, ']'), agent, &r).message(),
               Catch::Contains("nested deeper"));
  }
}

TEST_CASE("a known field of the wrong type is refused, per agent") {
  const std::vector<std::pair<Agent, std::string>> cases = {
      {Agent::kClaudeCode, R"({"hook_event_name":"Stop","transcript_path":7})"},
      {Agent::kCodex, R"({"hook_event_name":"Stop","transcript_path":"/r","stop_hook_active":"yes"})"},
      {Agent::kGemini, R"({"hook_event_name":"AfterAgent","prompt_response":["x"]})"},
      {Agent::kCursor, R"({"hook_event_name":"stop","conversation_id":"c","loop_count":"2"})"},
      {Agent::kCopilot, R"({"sessionId":3,"stopReason":"end_turn"})"},
  };
  for (const auto& [agent, input] : cases) {
    INFO(AgentName(agent) << ": " << input);
    HookRequest r;
    CHECK_FALSE(ParseHookInput(input, agent, &r).ok());
  }
}

}  // namespace
}  // namespace causegate::gate
