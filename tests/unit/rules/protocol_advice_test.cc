#include "rules/protocol_advice.h"

#include <catch2/catch.hpp>

#include "rules/reason.h"
#include "test_rules.h"

namespace causegate::rules {
namespace {

using testing::DefaultRules;

evidence::ToolCall Call(const std::string& tool, const std::string& command, const std::string& output = "") {
  evidence::ToolCall c;
  c.id = "t" + std::to_string(command.size());
  c.name = tool;
  c.command = command;
  c.output = output;
  c.has_result = true;
  return c;
}

ProtocolSteps Steps(const std::string& prompt, std::vector<evidence::ToolCall> calls) {
  evidence::Turn turn;
  turn.prompt = prompt;
  turn.tool_calls = std::move(calls);
  return TrackSteps(DefaultRules(), turn, {});
}

TEST_CASE("After probes, the next step is the smoke test the seed gives for the symptom, en and zh") {
  struct Row {
    const char* prompt;
    const char* en;
    const char* zh;
  };
  const Row rows[] = {
      {"why did the 7B run OOM?", "re-run one step with batch size 1", "用 batch_size=1 重跑 1 步"},
      {"a few shards look corrupted, training fails", "in-memory synthetic dataset", "内存中的合成数据集"},
      {"the loss goes NaN at step 4k", "re-run with lr=0", "使用 lr=0 重跑"},
      {"NCCL error on the 16-GPU job", "re-run on 1 GPU", "在 1 张 GPU 上重跑"},
      {"training is stuck at step 300", "then on 1 GPU", "再在 1 张 GPU 上重跑"},
      {"GPU util is 0% during training", "If the GPUs get busy", "如果 GPU 忙起来了"},
      {"each step got 2x slower", "time a few steps on in-memory synthetic data", "各跑几步并计时"},
      {"the exporter crashed at 3am", "re-run only the failing part", "只重跑出错的部分"},
      {"the checkpoint save fails with no space left on device", "write one small file", "写一个小文件"},
      {"the export job misbehaves", "re-run the failing command under small, controlled conditions", "在受控的小规模条件下重跑"},
  };
  for (const Row& r : rows) {
    INFO(r.prompt);
    // Probes of every kind the symptoms need: the next step is the smoke test.
    const ProtocolSteps s = Steps(r.prompt, {Call("Bash", "dmesg -T | tail"), Call("Bash", "nvidia-smi"),
                                             Call("Bash", "tail -n 200 run/train.log"), Call("Bash", "df -h /data"),
                                             Call("Bash", "ps aux | grep train")});
    REQUIRE(s.next() == NextStep::kHypothesisSmoke);
    const std::string en = ProtocolAdvice(s, Language::kEnglish);
    CHECK_THAT(en, Catch::Contains("probes run: dmesg, nvidia-smi, tail, df, ps"));
    CHECK_THAT(en, Catch::Contains("no smoke test yet"));
    CHECK_THAT(en, Catch::Contains("Next step: write the cause as \"Hypothesis: ...\""));
    CHECK_THAT(en, Catch::Contains(r.en));
    const std::string zh = ProtocolAdvice(s, Language::kChinese);
    CHECK_THAT(zh, Catch::Contains("已探查：dmesg、nvidia-smi、tail、df、ps"));
    CHECK_THAT(zh, Catch::Contains("尚未做冒烟测试"));
    CHECK_THAT(zh, Catch::Contains(r.zh));
  }
}

TEST_CASE("Each protocol position has its own next step") {
  // Nothing probed: the symptom's key probes.
  const std::string probe = ProtocolAdvice(Steps("why did the run OOM?", {Call("Read", "/r/train.py")}), Language::kEnglish);
  CHECK_THAT(probe, Catch::Contains("Next step: you read code and config, not the failure: probe what this symptom needs (out of memory): the kernel and system log"));
  CHECK_THAT(probe, Catch::Contains("GPU state (`nvidia-smi`)"));
  const std::string none = ProtocolAdvice(Steps("why did the run OOM?", {Call("Bash", "pip install -r requirements.txt")}), Language::kChinese);
  CHECK_THAT(none, Catch::Contains("尚未探查"));
  CHECK_THAT(none, Catch::Contains("下一步：先探查，再谈原因：内核和系统日志"));
  // State probed, but none of what the symptom needs: the smoke test, and the missing probes.
  const std::string unprobed = ProtocolAdvice(Steps("why did the run OOM?", {Call("Bash", "df -h /data")}), Language::kEnglish);
  CHECK_THAT(unprobed, Catch::Contains("batch size 1"));
  CHECK_THAT(unprobed, Catch::Contains("Not probed yet for this symptom: the kernel and system log"));
  // Smoke test run: a control next.
  const std::string control =
      ProtocolAdvice(Steps("why did the run OOM?", {Call("Bash", "dmesg | tail"), Call("Bash", "python t.py --batch-size 1")}),
                     Language::kEnglish);
  CHECK_THAT(control, Catch::Contains("smoke test run: python t.py"));
  CHECK_THAT(control, Catch::Contains("Next step: if the smoke test did not settle it, run a control"));
  // Control run too: cite.
  const std::string cite = ProtocolAdvice(
      Steps("why did the run OOM?", {Call("Bash", "dmesg | tail"), Call("Bash", "python t.py --bs 1 --max-steps 1", "CUDA out of memory"),
                                     Call("Bash", "python t.py --bs 1 --max-steps 1 --no-amp")}),
      Language::kChinese);
  CHECK_THAT(cite, Catch::Contains("已做对照：python t.py（+ --no-amp）"));
  CHECK_THAT(cite, Catch::Contains("下一步：探查、冒烟测试和对照都已做过"));
}

TEST_CASE("Symptoms are named with where they were read") {
  const std::string en = ProtocolAdvice(
      Steps("why did the trainer die?", {Call("Bash", "dmesg -T | tail", "Out of memory: Killed process 77 (python)")}),
      Language::kEnglish);
  CHECK_THAT(en, Catch::Contains("Symptom: out of memory (tool output dmesg), crash (the prompt)."));
  CHECK(SymptomTitle("disk-full", Language::kChinese) == "磁盘已满");
  CHECK(SymptomTitle("team-specific", Language::kEnglish) == "team-specific");
}

TEST_CASE("The report shape is the protocol text's own Report line") {
  CHECK_THAT(ReportShape(Language::kEnglish), Catch::StartsWith("Report: (1) probe results"));
  CHECK_THAT(ReportShape(Language::kChinese), Catch::StartsWith("报告：(1) 探查结果"));
  CHECK_THAT(ProtocolText(/*chinese=*/false), Catch::Contains(ReportShape(Language::kEnglish)));
}

}  // namespace
}  // namespace causegate::rules
