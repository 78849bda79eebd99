#include "server/judge_request.h"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

namespace causegate::server {
namespace {

TEST_CASE("judge request: a full turn", "[server][judge]") {
  JudgeRequest r;
  const Status s = ParseJudgeRequest(R"({
    "session_id": "s1", "agent": "my-agent", "stop_hook_active": true,
    "prompt": "why did the job crash?",
    "final_message": "The job crashed because of `Out of memory: Killed process 7`.",
    "tool_calls": [
      {"id": "t1", "name": "Bash", "input": {"command": "dmesg | tail"}, "output": "Out of memory: Killed process 7"},
      {"name": "Read", "input": "raw input text", "command": "/var/log/app.log", "is_error": true},
      {"name": "Bash", "command": "echo hi", "output": "hi"}
    ],
    "stop_feedback": ["causegate blocked this stop: ..."],
    "history": [
      {"prompt": "and before?", "tool_calls": [{"name": "Bash", "command": "uptime", "output": "up 3 days"}]},
      {"prompt": "first"}
    ],
    "unknown_field": {"is": "ignored"}
  })", &r);
  REQUIRE(s.ok());
  CHECK(r.session_id == "s1");
  CHECK(r.agent == "my-agent");
  CHECK(r.stop_hook_active);
  CHECK(r.turn.prompt == "why did the job crash?");
  CHECK(r.turn.final_message.rfind("The job crashed", 0) == 0);
  REQUIRE(r.turn.tool_calls.size() == 3);
  const evidence::ToolCall& a = r.turn.tool_calls[0];
  CHECK(a.id == "t1");
  CHECK(a.name == "Bash");
  CHECK(a.command == "dmesg | tail");  // from input.command
  CHECK(nlohmann::json::parse(a.input) == nlohmann::json{{"command", "dmesg | tail"}});
  CHECK(a.has_result);
  CHECK(a.output == "Out of memory: Killed process 7");
  CHECK(a.turns_back == 0);
  const evidence::ToolCall& b = r.turn.tool_calls[1];
  CHECK(b.input == "raw input text");
  CHECK(b.command == "/var/log/app.log");
  CHECK(b.is_error);
  CHECK_FALSE(b.has_result);
  CHECK(nlohmann::json::parse(r.turn.tool_calls[2].input) == nlohmann::json{{"command", "echo hi"}});
  CHECK(r.turn.stop_feedback == std::vector<std::string>{"causegate blocked this stop: ..."});
  REQUIRE(r.history.size() == 2);
  CHECK(r.history[0].prompt == "and before?");
  CHECK(r.history[0].turns_back == 1);
  REQUIRE(r.history[0].tool_calls.size() == 1);
  CHECK(r.history[0].tool_calls[0].turns_back == 1);
  CHECK(r.history[1].turns_back == 2);

  InlineHistory history(&r.history);
  evidence::PastTurn past;
  REQUIRE(history.LoadOlder(&past));
  CHECK(past.prompt == "and before?");
  REQUIRE(history.LoadOlder(&past));
  CHECK(past.prompt == "first");
  CHECK_FALSE(history.LoadOlder(&past));
}

TEST_CASE("judge request: only the final message is required", "[server][judge]") {
  JudgeRequest r;
  REQUIRE(ParseJudgeRequest(R"({"final_message": "done"})", &r).ok());
  CHECK(r.turn.tool_calls.empty());
  CHECK(r.history.empty());
  CHECK_FALSE(r.stop_hook_active);
}

TEST_CASE("judge request: errors name the field", "[server][judge]") {
  struct Case {
    const char* body;
    const char* message;
  };
  const Case cases[] = {
      {"", "body: not valid JSON"},
      {"[1]", "body: not a JSON object"},
      {"{}", "\"final_message\": missing or not a string"},
      {R"({"final_message": 3})", "\"final_message\": missing or not a string"},
      {R"({"final_message": "x", "prompt": 1})", "\"prompt\": must be a string"},
      {R"({"final_message": "x", "tool_calls": {}})", "\"tool_calls\": must be an array"},
      {R"({"final_message": "x", "tool_calls": [1]})", "\"tool_calls\"[0]: must be an object"},
      {R"({"final_message": "x", "tool_calls": [{"name": "Bash"}, {"output": "o"}]})",
       "\"tool_calls\"[1]: \"name\": missing (the tool's name, e.g. \"Bash\")"},
      {R"({"final_message": "x", "tool_calls": [{"name": "Bash", "output": 5}]})",
       "\"tool_calls\"[0]: \"output\": must be a string"},
      {R"({"final_message": "x", "tool_calls": [{"name": "Bash", "input": 5}]})",
       "\"tool_calls\"[0]: \"input\": must be an object or a string"},
      {R"({"final_message": "x", "stop_hook_active": "yes"})", "\"stop_hook_active\": must be true or false"},
      {R"({"final_message": "x", "stop_feedback": [1]})", "\"stop_feedback\": must be an array of strings"},
      {R"({"final_message": "x", "history": [{"tool_calls": [{"name": "Bash", "is_error": 1}]}]})",
       "\"history\"[0]: \"tool_calls\"[0]: \"is_error\": must be true or false"},
  };
  for (const Case& c : cases) {
    INFO(c.body);
    JudgeRequest r;
    const Status s = ParseJudgeRequest(c.body, &r);
    REQUIRE_FALSE(s.ok());
    CHECK(s.message() == c.message);
  }
}

TEST_CASE("judge request: bounds", "[server][judge]") {
  JudgeRequest r;
  const std::string deep = std::string(200, '[') + std::string(200, ']');
  CHECK(ParseJudgeRequest(R"({"final_message": "x", "d": )" + deep + "}", &r).message() ==
        "body: JSON nested deeper than 128");
  // Invalid UTF-8 is replaced, not refused.
  REQUIRE(ParseJudgeRequest("{\"final_message\": \"bad \xff byte\"}", &r).ok());
  CHECK(r.turn.final_message == "bad \xEF\xBF\xBD byte");
}

}  // namespace
}  // namespace causegate::server
