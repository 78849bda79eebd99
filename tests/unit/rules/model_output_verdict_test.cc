// A subagent's answer and a fetch summary as the parent's evidence (spec
// section 3): the verdict counts what that model quoted (read by the same
// parser as the final message) and, for a subagent, only what its own
// transcript's tool output holds; the reason says where a quote of its own
// words was found and why it does not count, in the claim's language.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "rules/reason.h"
#include "rules/verdict.h"
#include "test_rules.h"
#include "unit/evidence/test_util.h"

namespace causegate::rules {
namespace {

using evidence::ToolCall;
using evidence::Turn;
using evidence::testing::Prompt;
using evidence::testing::Result;
using evidence::testing::TempDir;
using evidence::testing::Text;
using evidence::testing::ToolUse;
using testing::DefaultRules;

const std::string kLogLine = "src/config.c:42: error: 'MAX_RETRIES' undeclared (first use in this function)";
const std::string kLog = "[build] cc -c src/config.c -o build/config.o\n" + kLogLine +
                         "\nmake: *** [Makefile:12: build/config.o] Error 1";

ToolCall Tool(const std::string& name, const std::string& output) {
  ToolCall c;
  c.id = "toolu_" + name;
  c.name = name;
  c.input = R"({"prompt":"Subagent task: run cat build.log and report the cause."})";
  c.output = output;
  c.has_result = true;
  return c;
}

ToolCall Agent(const std::string& answer, const std::string& agent_id) {
  return Tool("Agent", answer + "\nagentId: " + agent_id + " (use SendMessage with to: '" + agent_id +
                           "' to continue this agent)\n<usage>subagent_tokens: 70</usage>");
}

Verdict Judge(const std::string& final, ToolCall call, const std::string& subagent_folder) {
  Turn turn;
  turn.prompt = "The build fails. Find out why.";
  turn.final_message = final;
  turn.tool_calls = {std::move(call)};
  turn.subagent_folder = subagent_folder;
  return JudgeTurn(turn, nullptr, DefaultRules());
}

// The subagent's own file: it ran `cat build.log` and answered.
std::string WriteSubagent(const TempDir& dir, const std::string& agent_id, const std::string& answer) {
  std::filesystem::create_directories(dir.File("sess/subagents"));
  dir.Write("sess/subagents/agent-" + agent_id + ".jsonl",
            {Prompt("Subagent task: run `cat build.log` and report the cause.", /*sidechain=*/true),
             ToolUse("msg_1", "toolu_1", "Bash", {{"command", "cat build.log"}}, /*sidechain=*/true),
             Result("toolu_1", kLog, /*is_error=*/false, /*sidechain=*/true),
             Text("msg_2", answer, /*sidechain=*/true)});
  return dir.File("sess/subagents");
}

TEST_CASE("A subagent's answer supports the parent only where it quoted its own tool output") {
  TempDir dir;
  const std::string claim = "The build failed because the disk on the build machine is full. I will free some space.";
  const std::string quotes = "The build log shows `" + kLogLine + "`, so the build fails because MAX_RETRIES is "
                             "not declared in src/config.c.";
  const std::string invents = "The log shows `error: No space left on device`, so the build fails because the "
                              "disk is full.";
  const std::string folder = WriteSubagent(dir, "aquotes", quotes);
  WriteSubagent(dir, "ainvents", invents);
  WriteSubagent(dir, "aclaims", claim);
  struct Case {
    const char* name;
    std::string final;
    ToolCall call;
    std::string folder;
    Finding expected;
  };
  const std::vector<Case> cases = {
      {"the parent quotes the subagent's unquoted claim",
       "The subagent reported \"The build failed because the disk on the build machine is full\", so the build "
       "fails because the disk is full.",
       Agent(claim, "aclaims"), folder, Finding::kNoCitation},
      {"the parent quotes a log line the subagent quoted and its Bash printed", quotes, Agent(quotes, "aquotes"),
       folder, Finding::kSupported},
      {"the subagent quoted what its tools never printed",
       "The build fails because the disk is full: `error: No space left on device`.", Agent(invents, "ainvents"),
       folder, Finding::kNoCitation},
      {"no subagent transcript: what it quoted counts",
       "The build fails because the disk is full: `error: No space left on device`.", Agent(invents, "ainvents"),
       "", Finding::kSupported},
      {"a fetch summary's own words",
       "The upgrade broke the build because \"version 2.0 removed the MAX_RETRIES constant\".",
       Tool("WebFetch", "In short, version 2.0 removed the MAX_RETRIES constant."), folder, Finding::kNoCitation},
      {"a fetch summary's quote of the page",
       "The upgrade broke the build because \"version 2.0 removed the MAX_RETRIES constant\".",
       Tool("WebFetch", "The changelog says: \"version 2.0 removed the MAX_RETRIES constant\"."), folder,
       Finding::kSupported},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Verdict v = Judge(c.final, c.call, c.folder);
    REQUIRE(v.claims.size() == 1);
    CHECK(FindingName(v.claims[0].finding) == std::string(FindingName(c.expected)));
    CHECK((v.decision == Decision::kBlock) == (c.expected != Finding::kSupported));
  }
}

TEST_CASE("The reason says a quote was only the subagent's or the summary's own words") {
  const std::string claim_en = "The build failed because the disk on the build machine is full. I will free space.";
  const Verdict en = Judge("The subagent reported \"The build failed because the disk on the build machine is "
                           "full\", so the build fails because the disk is full.",
                           Agent(claim_en, "a1"), "");
  const std::string reason = RenderReason(en, DefaultRules(), ReasonOptions());
  CHECK_THAT(reason, Catch::Contains("finding: no-citation"));
  CHECK_THAT(reason, Catch::Contains("this quote appears only in the subagent's own words (Agent output), which it "
                                     "did not quote from its tool output: \"The build failed because the disk"));

  const std::string claim_zh = "构建失败的根本原因是构建机器的磁盘已满。我会清理空间后重新构建。";
  const Verdict zh = Judge("子代理报告说“构建失败的根本原因是构建机器的磁盘已满”，所以构建失败是因为磁盘已满。",
                           Agent(claim_zh, "a1"), "");
  const std::string zh_reason = RenderReason(zh, DefaultRules(), ReasonOptions());
  CHECK_THAT(zh_reason, Catch::Contains("判定: no-citation"));
  CHECK_THAT(zh_reason, Catch::Contains("这段引用只出现在子代理自己的话里（Agent 的输出），它并没有从自己的工具输出中引用这段话："
                                        "\"构建失败的根本原因是构建机器的磁盘已满\""));

  const Verdict fetch = Judge("The upgrade broke the build because \"version 2.0 removed the MAX_RETRIES constant\".",
                              Tool("WebFetch", "In short, version 2.0 removed the MAX_RETRIES constant."), "");
  CHECK_THAT(RenderReason(fetch, DefaultRules(), ReasonOptions()),
             Catch::Contains("this quote appears only in a model's summary (WebFetch output), not in anything it "
                             "quoted from what it read: \"version 2.0 removed"));
}

}  // namespace
}  // namespace causegate::rules
