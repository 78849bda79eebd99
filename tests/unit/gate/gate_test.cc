#include "gate/gate.h"

#include <catch2/catch.hpp>

#include "unit/evidence/test_util.h"

namespace causegate::gate {
namespace {

using evidence::testing::Meta;
using evidence::testing::Prompt;
using evidence::testing::Result;
using evidence::testing::TempDir;
using evidence::testing::Text;
using evidence::testing::ToolUse;
using nlohmann::json;

const rules::RuleSet& Rules() {
  static const std::shared_ptr<const rules::RuleSet> set = [] {
    std::shared_ptr<const rules::RuleSet> s;
    if (!rules::LoadRuleSet("", &s).ok()) std::abort();
    return s;
  }();
  return *set;
}

std::vector<std::string> Session(const std::string& final, int feedback_lines) {
  std::vector<std::string> lines = {
      Prompt("why did the nightly export fail?"),
      ToolUse("m1", "t1", "Bash", {{"command", "df -h /srv"}}),
      Result("t1", "/dev/nvme1n1p1  500G  500G     0 100% /srv"),
  };
  for (int i = 0; i < feedback_lines; ++i) {
    lines.push_back(Text("m" + std::to_string(2 + i), "The export failed because the disk is full."));
    lines.push_back(Meta("Stop hook feedback:\ncauseate-unrelated"));  // another hook's: not counted
    lines.push_back(Meta("Stop hook feedback:\ncausegate blocked this stop: 1 causal claim ... block " +
                         std::to_string(i + 1)));
  }
  lines.push_back(Text("m9", final));
  return lines;
}

std::string Input(const std::string& path, bool active, const std::string* last = nullptr) {
  json in = {{"session_id", "s1"}, {"hook_event_name", "Stop"}, {"transcript_path", path},
             {"stop_hook_active", active}};
  if (last) in["last_assistant_message"] = *last;
  return in.dump();
}

TEST_CASE("RunGate blocks an unsupported claim and allows the cited one") {
  TempDir dir;
  const std::string blocked = dir.Write("b.jsonl", Session("The export failed because the disk is full.", 0));
  GateResult r = RunGate(Input(blocked, false), Agent::kAuto, Rules(), GateOptions());
  REQUIRE(r.judged);
  CHECK(r.outcome.action == rules::Action::kBlock);
  const json answer = json::parse(r.output);
  CHECK(answer["decision"] == "block");
  CHECK_THAT(answer["reason"].get<std::string>(), Catch::Contains("no-citation"));

  const std::string cited = "The export failed because the disk is full: `/dev/nvme1n1p1  500G  500G     0 100% /srv`.";
  r = RunGate(Input(blocked, false, &cited), Agent::kAuto, Rules(), GateOptions());
  REQUIRE(r.judged);
  CHECK(r.outcome.action == rules::Action::kAllow);
  CHECK(r.output.empty());
}

TEST_CASE("last_assistant_message wins over a lagging transcript") {
  TempDir dir;
  const std::string path = dir.Write("t.jsonl", Session("Hypothesis: the disk may be full.", 0));
  const std::string final = "The root cause is a full disk.";
  const GateResult r = RunGate(Input(path, false, &final), Agent::kAuto, Rules(), GateOptions());
  REQUIRE(r.judged);
  CHECK(r.turn.final_message == final);
  CHECK(r.outcome.action == rules::Action::kBlock);
}

TEST_CASE("Loop guard counts only causegate's feedback lines") {
  TempDir dir;
  const std::string claim = "The export failed because the disk is full.";
  for (const auto& [feedback, active, action] :
       std::vector<std::tuple<int, bool, rules::Action>>{{0, false, rules::Action::kBlock},
                                                          {1, true, rules::Action::kBlock},
                                                          {2, true, rules::Action::kAllowUnproven},
                                                          {0, true, rules::Action::kBlock}}) {
    INFO("feedback lines " << feedback << ", stop_hook_active " << active);
    const std::string path = dir.Write("loop.jsonl", Session(claim, feedback));
    const GateResult r = RunGate(Input(path, active), Agent::kAuto, Rules(), GateOptions());
    REQUIRE(r.judged);
    CHECK(r.outcome.action == action);
    CHECK(r.prior_blocks == (feedback == 0 && active ? 1 : feedback));
    if (action == rules::Action::kAllowUnproven) {
      CHECK(json::parse(r.output).contains("systemMessage"));
    }
  }
}

TEST_CASE("RunGate fails open with a reason") {
  TempDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "empty"},
      {"{", "not valid JSON"},
      {R"({"hook_event_name":"Stop"})", "no transcript path"},
      {Input(dir.File("missing.jsonl"), false), "missing.jsonl"},
      {R"({"hook_event_name":"PreToolUse","transcript_path":"x"})", "is not Stop"},
  };
  for (const auto& [input, why] : cases) {
    INFO(input);
    const GateResult r = RunGate(input, Agent::kAuto, Rules(), GateOptions());
    CHECK_FALSE(r.judged);
    CHECK(r.output.empty());
    CHECK_THAT(r.fail_open_reason, Catch::Contains(why));
  }
}

}  // namespace
}  // namespace causegate::gate
