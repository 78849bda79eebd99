#include "rules/reason.h"

#include <catch2/catch.hpp>

#include "evidence/text_fold.h"
#include "rules/loop_policy.h"
#include "test_rules.h"

namespace causegate::rules {
namespace {

using testing::DefaultRules;

Verdict Judge(const std::string& prompt, const std::string& final) {
  evidence::Turn turn;
  turn.prompt = prompt;
  turn.final_message = final;
  return JudgeTurn(turn, nullptr, DefaultRules());
}

TEST_CASE("The reason names the sentence, finding and rule, then the protocol in the claim's language") {
  const Verdict en = Judge("why did the export fail?", "The export failed because the disk is full.");
  const std::string reason = RenderReason(en, DefaultRules(), ReasonOptions());
  CHECK_THAT(reason, Catch::StartsWith("causegate blocked this stop: 1 causal claim"));
  CHECK_THAT(reason, Catch::Contains("\"The export failed because the disk is full.\""));
  CHECK_THAT(reason, Catch::Contains("finding: no-probe (rule en."));
  CHECK_THAT(reason, Catch::Contains(ProtocolText(/*chinese=*/false)));
  CHECK_THAT(reason, Catch::Contains("Two ways out"));
  CHECK_THAT(reason, Catch::Contains("block 1 of at most 2"));

  const Verdict zh = Judge("导出为什么失败？", "导出失败是因为磁盘满了。");
  const std::string zh_reason = RenderReason(zh, DefaultRules(), ReasonOptions());
  CHECK_THAT(zh_reason, Catch::StartsWith("causegate 拦下了这次停止"));
  CHECK_THAT(zh_reason, Catch::Contains("判定: no-probe"));
  CHECK_THAT(zh_reason, Catch::Contains(ProtocolText(/*chinese=*/true)));
}

evidence::ToolCall Call(const std::string& id, const std::string& command, const std::string& output) {
  evidence::ToolCall c;
  c.id = id;
  c.name = "Bash";
  c.command = command;
  c.output = output;
  c.has_result = true;
  return c;
}

Verdict JudgeWithCalls(const std::string& prompt, const std::string& final, std::vector<evidence::ToolCall> calls) {
  evidence::Turn turn;
  turn.prompt = prompt;
  turn.final_message = final;
  turn.tool_calls = std::move(calls);
  return JudgeTurn(turn, nullptr, DefaultRules());
}

TEST_CASE("After probes only, the reason names them and sends the agent to the symptom's smoke test") {
  const Verdict v = JudgeWithCalls(
      "the 7B run died at 14:23, why?", "The run died because the node ran out of memory.",
      {Call("a", "dmesg -T | tail -20", "[14:23:10] Out of memory: Killed process 4242 (python)"),
       Call("b", "nvidia-smi --query-gpu=memory.used --format=csv", "memory.used [MiB]\n80100 MiB")});
  const std::string reason = RenderReason(v, DefaultRules(), ReasonOptions());
  CHECK_THAT(reason, Catch::Contains("finding: no-citation (rule en."));
  CHECK_THAT(reason, Catch::Contains("probes run: dmesg, nvidia-smi; no hypothesis stated; no smoke test yet; no control yet."));
  CHECK_THAT(reason, Catch::Contains("Symptom: out of memory (your claim)"));
  CHECK_THAT(reason, Catch::Contains("smoke-test it: re-run one step with batch size 1"));
  CHECK_THAT(reason, Catch::Contains("Report: (1) probe results"));
  CHECK_THAT(reason, !Catch::Contains(ProtocolText(/*chinese=*/false)));
  CHECK_THAT(reason, Catch::Contains("Two ways out"));
  CHECK_THAT(reason, Catch::EndsWith("This is block 1 of at most 2 for this turn."));
  CHECK_FALSE(WantsFullProtocol(v, ReasonOptions()));

  // Sent back a second time: the full protocol joins the targeted paragraph.
  ReasonOptions second;
  second.block_number = 2;
  const std::string again = RenderReason(v, DefaultRules(), second);
  CHECK(WantsFullProtocol(v, second));
  CHECK_THAT(again, Catch::Contains("probes run: dmesg, nvidia-smi"));
  CHECK_THAT(again, Catch::Contains(ProtocolText(/*chinese=*/false)));
  CHECK_THAT(again, Catch::Contains("block 2 of at most 2"));
  CHECK(again.size() > reason.size());
}

TEST_CASE("The targeted reason in Chinese") {
  const Verdict v = JudgeWithCalls(
      "训练为什么卡住了？", "训练卡住是因为 dataloader 的 worker 卡在 NFS 读上。",
      {Call("a", "py-spy dump --pid 61204", "Thread 0x7F (idle): \"MainThread\"\n    _try_get_data (dataloader.py:1133)")});
  const std::string reason = RenderReason(v, DefaultRules(), ReasonOptions());
  CHECK_THAT(reason, Catch::StartsWith("causegate 拦下了这次停止"));
  CHECK_THAT(reason, Catch::Contains("判定: no-citation (规则 zh."));
  CHECK_THAT(reason, Catch::Contains("调试协议进度（探查 → 假设 → 冒烟测试 → 对照 → 断言）：已探查：py-spy"));
  CHECK_THAT(reason, Catch::Contains("症状：数据错误（你的断言）、卡住（你的断言）。"));
  CHECK_THAT(reason, Catch::Contains("使用内存中的合成数据集重跑"));
  CHECK_THAT(reason, Catch::Contains("下一步：把原因写成“假设：……”"));
  CHECK_THAT(reason, Catch::Contains("报告：(1) 探查结果"));
  CHECK_THAT(reason, !Catch::Contains(ProtocolText(/*chinese=*/true)));
}

TEST_CASE("Run from the plugin, the reason points to the debug skill, in the claim's language") {
  ReasonOptions options;
  CHECK_THAT(RenderReason(Judge("why did the export fail?", "The export failed because the disk is full."),
                          DefaultRules(), options),
             !Catch::Contains("causegate:debug"));
  options.debug_skill = "/opt/plugin/skills/debug/SKILL.md";
  CHECK_THAT(RenderReason(Judge("why did the export fail?", "The export failed because the disk is full."),
                          DefaultRules(), options),
             Catch::Contains("The debug skill (causegate:debug) walks through each step: /opt/plugin/skills/debug/SKILL.md"));
  CHECK_THAT(RenderReason(Judge("导出为什么失败？", "导出失败是因为磁盘满了。"), DefaultRules(), options),
             Catch::Contains("调试技能（causegate:debug）逐步说明每一步：/opt/plugin/skills/debug/SKILL.md"));
}

TEST_CASE("The reason stays under the agents' 10,000-character cap") {
  std::string final;
  for (int i = 0; i < 200; ++i) {
    final += "The export failed because worker " + std::to_string(i) + " ran out of disk " + std::string(80, 'x') + ".\n\n";
  }
  const Verdict v = Judge("why did the export fail?", final);
  REQUIRE(v.unsupported() == 200);
  const std::string reason = RenderReason(v, DefaultRules(), ReasonOptions());
  CHECK(evidence::CountCodePoints(reason) <= kMaxReasonChars);
  CHECK_THAT(reason, Catch::Contains("and 192 more unsupported claims"));
}

TEST_CASE("Shorten cuts at a character boundary") {
  CHECK(Shorten("short", 10) == "short");
  CHECK(Shorten("abcdefghij", 5) == "abcd…");
  CHECK(Shorten("根因是磁盘满了", 4) == "根因是…");
}

TEST_CASE("Loop policy: block twice, then let through with a warning; never the same reason twice") {
  const Verdict v = Judge("why did the export fail?", "The export failed because the disk is full.");
  LoopPolicy policy;
  const Outcome first = Decide(v, DefaultRules(), 0, "", policy);
  CHECK(first.action == Action::kBlock);
  CHECK(first.block_number == 1);
  const Outcome second = Decide(v, DefaultRules(), 1, first.reason, policy);
  CHECK(second.action == Action::kBlock);
  CHECK(second.block_number == 2);
  CHECK(second.reason != first.reason);
  const Outcome third = Decide(v, DefaultRules(), 2, second.reason, policy);
  CHECK(third.action == Action::kAllowUnproven);
  CHECK(third.reason.empty());
  CHECK_THAT(third.system_message, Catch::Contains("let through unproven"));

  // A lost count must still not repeat the previous text word for word.
  const Outcome again = Decide(v, DefaultRules(), 0, first.reason, policy);
  CHECK(again.reason != first.reason);

  const Verdict clean = Judge("why did it fail?", "Hypothesis: the disk is full.");
  CHECK(Decide(clean, DefaultRules(), 5, "", policy).action == Action::kAllow);
}

}  // namespace
}  // namespace causegate::rules
