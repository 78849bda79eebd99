// Cursor's adapter: the observe-only events as Cursor's hook reference
// shows them (research notes on hook protocols, section 3.1), the session
// log they build, and the stop hook that judges it and answers with
// followup_message.
#include <catch2/catch.hpp>

#include "gate/hook_input.h"
#include "unit/gate/agent_test_util.h"

namespace causegate::gate {
namespace {

using nlohmann::json;
using testing::BlockOutcome;
using testing::UnprovenOutcome;

json Common(const char* event) {
  return json{{"conversation_id", "668320d2-2fd8-4888-b33c-2a466fec86e7"},
              {"generation_id", "490b90b7-a2ce-4c2c-bb76-cb77b125df2f"},
              {"model", "claude-sonnet-4"},
              {"hook_event_name", event},
              {"cursor_version", "1.7.2"},
              {"workspace_roots", {"/home/u/src"}},
              {"user_email", nullptr}};
}

json With(json base, const json& fields) {
  base.update(fields);
  return base;
}

GateResult Call(const json& input) {
  return RunGate(input.dump(), Agent::kAuto, testing::BuiltinRules(), GateOptions());
}

TEST_CASE("cursor: each observed event becomes a tool call, a prompt or text") {
  struct Case {
    json input;
    ObservedEvent::Kind kind;
    const char* tool;
    const char* answer;
  };
  const std::vector<Case> cases = {
      {With(Common("beforeSubmitPrompt"), {{"prompt", "why?"}, {"attachments", json::array()}}),
       ObservedEvent::Kind::kPrompt, "", R"({"continue":true})"},
      {With(Common("afterShellExecution"), {{"command", "df -h"}, {"output", "100%"}, {"duration", 12}}),
       ObservedEvent::Kind::kToolCall, "Bash", ""},
      {With(Common("beforeReadFile"), {{"file_path", "/w/log.txt"}, {"content", "E1"}, {"attachments", json::array()}}),
       ObservedEvent::Kind::kToolCall, "Read", R"({"permission":"allow"})"},
      {With(Common("afterFileEdit"), {{"file_path", "/w/a.cc"}, {"edits", {{{"old_string", "a"}, {"new_string", "b"}}}}}),
       ObservedEvent::Kind::kToolCall, "MultiEdit", ""},
      {With(Common("afterMCPExecution"),
            {{"tool_name", "db_query"}, {"tool_input", R"({"q":1})"}, {"result_json", R"({"rows":[]})"}, {"duration", 3}}),
       ObservedEvent::Kind::kToolCall, "db_query", ""},
      {With(Common("afterAgentResponse"), {{"text", "done"}}), ObservedEvent::Kind::kAssistantText, "", ""},
  };
  for (const Case& c : cases) {
    INFO(c.input.dump());
    HookRequest r;
    REQUIRE(ParseHookInput(c.input.dump(), Agent::kAuto, &r).ok());
    CHECK(r.agent == Agent::kCursor);
    CHECK(r.kind == HookKind::kObserve);
    REQUIRE(r.observed);
    CHECK(r.observed->kind == c.kind);
    CHECK(r.observed->tool_name == c.tool);
    CHECK(RenderHookOutput(r, rules::Outcome()) == c.answer);
  }
}

TEST_CASE("cursor: stop answers with followup_message only") {
  HookRequest r;
  REQUIRE(ParseHookInput(With(Common("stop"), {{"status", "completed"}, {"loop_count", 0}}).dump(), Agent::kAuto, &r)
              .ok());
  CHECK(r.kind == HookKind::kStop);
  CHECK(r.loop_count == std::optional<int>(0));
  CHECK(RenderHookOutput(r, rules::Outcome()).empty());
  CHECK(json::parse(RenderHookOutput(r, BlockOutcome())) == json{{"followup_message", BlockOutcome().reason}});
  CHECK(RenderHookOutput(r, UnprovenOutcome()).empty());  // no field for it: the warning goes to stderr

  for (const char* status : {"aborted", "error"}) {
    INFO(status);
    REQUIRE(ParseHookInput(With(Common("stop"), {{"status", status}, {"loop_count", 0}}).dump(), Agent::kAuto, &r).ok());
    CHECK(r.kind == HookKind::kObserve);
    CHECK_FALSE(r.observed);
  }
}

TEST_CASE("cursor: a logged conversation is judged at stop, and the follow-up counts as feedback") {
  testing::StateScope state;
  REQUIRE(Call(With(Common("beforeSubmitPrompt"), {{"prompt", testing::kPrompt}})).recorded);
  REQUIRE(Call(With(Common("afterShellExecution"), {{"command", "df -h /srv"}, {"output", testing::kDfOutput}})).recorded);
  REQUIRE(Call(With(Common("afterAgentResponse"), {{"text", testing::kClaim}})).recorded);

  GateResult r = Call(With(Common("stop"), {{"status", "completed"}, {"loop_count", 0}}));
  REQUIRE(r.judged);
  CHECK(r.turn.prompt == testing::kPrompt);
  CHECK(r.turn.tool_calls.size() == 1);
  CHECK(r.outcome.action == rules::Action::kBlock);
  const std::string followup = json::parse(r.output)["followup_message"];

  // Cursor submits the follow-up as the next user message.
  REQUIRE(Call(With(Common("beforeSubmitPrompt"), {{"prompt", followup}})).recorded);
  REQUIRE(Call(With(Common("afterAgentResponse"), {{"text", testing::kClaim}})).recorded);
  r = Call(With(Common("stop"), {{"status", "completed"}, {"loop_count", 1}}));
  REQUIRE(r.judged);
  CHECK(r.turn.prompt == testing::kPrompt);
  CHECK(r.prior_blocks == 1);
  CHECK(r.outcome.action == rules::Action::kBlock);

  REQUIRE(Call(With(Common("beforeSubmitPrompt"), {{"prompt", json::parse(r.output)["followup_message"]}})).recorded);
  r = Call(With(Common("stop"), {{"status", "completed"}, {"loop_count", 2}}));
  REQUIRE(r.judged);
  CHECK(r.prior_blocks == 2);
  CHECK(r.outcome.action == rules::Action::kAllowUnproven);
  CHECK(r.output.empty());

  // The cited answer in a new turn is allowed.
  REQUIRE(Call(With(Common("beforeSubmitPrompt"), {{"prompt", testing::kPrompt}})).recorded);
  REQUIRE(Call(With(Common("afterShellExecution"), {{"command", "df -h /srv"}, {"output", testing::kDfOutput}})).recorded);
  REQUIRE(Call(With(Common("afterAgentResponse"),
                    {{"text", std::string(testing::kClaim) + " Evidence: `" + testing::kDfOutput + "`"}}))
              .recorded);
  r = Call(With(Common("stop"), {{"status", "completed"}, {"loop_count", 0}}));
  REQUIRE(r.judged);
  CHECK(r.outcome.action == rules::Action::kAllow);
}

TEST_CASE("cursor: a stop with no session log fails open and says how to fix it") {
  testing::StateScope state;
  const GateResult r = Call(With(Common("stop"), {{"status", "completed"}, {"loop_count", 0}}));
  CHECK_FALSE(r.judged);
  CHECK_THAT(r.fail_open_reason, Catch::Contains("causegate init --agent cursor"));
}

}  // namespace
}  // namespace causegate::gate
