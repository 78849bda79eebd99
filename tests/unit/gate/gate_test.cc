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
  const std::string allowed = dir.Write("a.jsonl", Session(cited, 0));
  r = RunGate(Input(allowed, false, &cited), Agent::kAuto, Rules(), GateOptions());
  REQUIRE(r.judged);
  CHECK(r.outcome.action == rules::Action::kAllow);
  CHECK(r.output.empty());
}

TEST_CASE("RunGateParsed answers what RunGate answers for the same input") {
  TempDir dir;
  const std::string claim = "The export failed because the disk is full.";
  const std::string cited = "The export failed because the disk is full: `/dev/nvme1n1p1  500G  500G     0 100% /srv`.";
  const std::vector<std::string> inputs = {
      Input(dir.Write("b.jsonl", Session(claim, 0)), false),
      Input(dir.Write("a.jsonl", Session(cited, 0)), false, &cited),
      Input(dir.Write("l.jsonl", Session(claim, 2)), true),
  };
  for (const std::string& input : inputs) {
    INFO(input);
    HookRequest request;
    REQUIRE(ParseHookInput(input, Agent::kAuto, &request).ok());
    const GateResult whole = RunGate(input, Agent::kAuto, Rules(), GateOptions());
    const GateResult parsed = RunGateParsed(request, Rules(), GateOptions());
    REQUIRE(parsed.judged == whole.judged);
    CHECK(parsed.output == whole.output);
    CHECK(parsed.outcome.action == whole.outcome.action);
    CHECK(parsed.prior_blocks == whole.prior_blocks);
    CHECK(parsed.request.session_id == "s1");
  }
}

TEST_CASE("last_assistant_message wins over a lagging transcript") {
  TempDir dir;
  const std::string path = dir.Write("t.jsonl", Session("Hypothesis: the disk may be full.", 0));
  const std::string final = "The root cause is a full disk.";
  // Judged at the first read: the wait for the file to catch up is
  // tested in transcript_wait_test.cc.
  GateOptions options;
  options.transcript_wait = TranscriptWait::kNever;
  const GateResult r = RunGate(Input(path, false, &final), Agent::kAuto, Rules(), options);
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

// A subagent's own file whose prompt line carries agentId, as Claude Code
// writes its compaction summaries (research fixture
// agent-acompact-e1f845.jsonl), with a final message that would block.
std::vector<std::string> SubagentSession(const std::string& agent_id) {
  json prompt = json::parse(Prompt("Your task is to create a detailed summary of the conversation so far."));
  prompt["isSidechain"] = true;
  prompt["agentId"] = agent_id;
  return {prompt.dump(), Text("m1", "The root cause: the export failed because the disk is full.")};
}

std::string SubagentInput(const std::string& agent_id, const std::string& agent_path) {
  json in = {{"session_id", "s1"}, {"hook_event_name", "SubagentStop"}, {"transcript_path", "/nonexistent/main.jsonl"},
             {"agent_transcript_path", agent_path}, {"stop_hook_active", false}};
  if (!agent_id.empty()) in["agent_id"] = agent_id;
  return in.dump();
}

TEST_CASE("A compaction summary's SubagentStop is allowed without judging") {
  TempDir dir;
  const std::string plain = dir.Write("agent-a1b2c3.jsonl", SubagentSession("a1b2c3"));
  const std::string marked = dir.Write("agent-a9f8e7.jsonl", SubagentSession("acompact-a9f8e7"));
  const std::string named = dir.Write("agent-acompact-e1f845.jsonl", SubagentSession("a1b2c3"));
  struct Case {
    const char* name;
    std::string input;
  };
  const std::vector<Case> cases = {
      // Named by the request: the transcript is not even opened.
      {"agent_id", SubagentInput("acompact-e1f845", "/nonexistent/agent-x.jsonl")},
      {"agent_id with the file's agent- prefix", SubagentInput("agent-acompact-e1f845", "/nonexistent/agent-x.jsonl")},
      {"agent_transcript_path", SubagentInput("", "/nonexistent/subagents/agent-acompact-e1f845.jsonl")},
      // Shown by the transcript.
      {"agentId on the prompt line", SubagentInput("a9f8e7", marked)},
      {"file name of the transcript read", SubagentInput("a1b2c3", named)},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const GateResult r = RunGate(c.input, Agent::kClaudeCode, Rules(), GateOptions());
    CHECK(r.judged);
    CHECK(r.fail_open_reason.empty());
    CHECK(r.not_judged == kCompactionSummaryNote);
    CHECK(r.outcome.action == rules::Action::kAllow);
    CHECK(r.verdict.claims.empty());
    CHECK(r.output.empty());
  }
  // The same answer from an ordinary subagent is judged, and blocked.
  const GateResult r = RunGate(SubagentInput("a1b2c3", plain), Agent::kClaudeCode, Rules(), GateOptions());
  REQUIRE(r.judged);
  CHECK(r.not_judged.empty());
  CHECK(r.outcome.action == rules::Action::kBlock);
}

}  // namespace
}  // namespace causegate::gate
