// A config file the turn itself wrote, the user's skip token, and "warn".
#include "gate/turn_config.h"

#include <catch2/catch.hpp>

namespace causegate::gate {
namespace {

evidence::ToolCall Call(const std::string& name, const std::string& input, const std::string& command) {
  evidence::ToolCall call;
  call.name = name;
  call.input = input;
  call.command = command;
  return call;
}

TEST_CASE("turn config: a Write or Edit to the file, or a shell command naming one, taints it") {
  evidence::Turn turn;
  const std::string path = "/repo/.causegate.json";
  CHECK_FALSE(TurnWritesConfig(turn, "/repo", path));
  turn.tool_calls.push_back(Call("Read", "{\"file_path\":\"/repo/.causegate.json\"}", "/repo/.causegate.json"));
  CHECK_FALSE(TurnWritesConfig(turn, "/repo", path));  // reading it is fine
  turn.tool_calls.push_back(Call("Edit", "{\"file_path\":\"other.json\"}", "other.json"));
  CHECK_FALSE(TurnWritesConfig(turn, "/repo", path));
  turn.tool_calls.push_back(Call("Edit", "{\"file_path\":\".causegate.json\"}", ".causegate.json"));
  CHECK(TurnWritesConfig(turn, "/repo", path));  // relative to the cwd

  evidence::Turn shell;
  shell.tool_calls.push_back(Call("Bash", "{}", "echo '{}' > ~/.config/causegate/config.json"));
  CHECK(TurnWritesConfig(shell, "/repo", "/home/u/.config/causegate/config.json"));

  evidence::Turn earlier;  // a call of an earlier turn is not this turn's
  earlier.tool_calls.push_back(Call("Write", "{\"file_path\":\"/repo/.causegate.json\"}", ""));
  earlier.tool_calls.back().turns_back = 1;
  CHECK_FALSE(TurnWritesConfig(earlier, "/repo", path));
}

TEST_CASE("turn config: the skip token counts in the user's prompt, never a subagent's") {
  evidence::Turn turn;
  turn.prompt = "just commit it #causegate-skip";
  HookRequest request;
  CHECK(UserSkipsTurn(request, turn));
  request.is_subagent = true;
  CHECK_FALSE(UserSkipsTurn(request, turn));
  request.is_subagent = false;
  turn.prompt = "commit it";
  CHECK_FALSE(UserSkipsTurn(request, turn));
}

TEST_CASE("turn config: mode warn turns a block into a message for the user") {
  MergedConfig config;
  config.mode.value = GateMode::kWarn;
  config.mode.source = "/u.json";
  rules::Outcome outcome;
  outcome.action = rules::Action::kBlock;
  outcome.reason = "causegate: prove it";
  std::shared_ptr<const rules::RuleSet> rules;
  REQUIRE(rules::RuleSet::Compile({}, &rules).ok());
  CHECK(ApplyWarnings(config, {}, *rules, &outcome));
  CHECK(outcome.action == rules::Action::kAllowUnproven);
  CHECK(outcome.system_message.find("would have been sent back: causegate: prove it") != std::string::npos);

  rules::Outcome allow;
  CHECK_FALSE(ApplyWarnings(config, {}, *rules, &allow));
  CHECK(allow.action == rules::Action::kAllow);
}

}  // namespace
}  // namespace causegate::gate
