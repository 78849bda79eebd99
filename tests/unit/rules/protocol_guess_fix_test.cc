#include "rules/guess_fix.h"

#include <catch2/catch.hpp>

#include "rules/loop_policy.h"
#include "rules/reason.h"
#include "rules/verdict.h"
#include "test_rules.h"

namespace causegate::rules {
namespace {

using testing::DefaultRules;

evidence::ToolCall Call(const std::string& id, const std::string& tool, const std::string& command,
                        const std::string& output = "") {
  evidence::ToolCall c;
  c.id = id;
  c.name = tool;
  c.command = command;
  c.output = output;
  c.has_result = true;
  return c;
}

struct Case {
  const char* name;
  const char* prompt;
  std::vector<std::string> narration;
  std::vector<evidence::ToolCall> calls;
  const char* final_message;
  bool guess_fix;
};

TEST_CASE("guess-fix: an edit for a merely hedged cause, with no look at the failure") {
  const Case cases[] = {
      {"en: hedge in the narration, edit first", "why does the loss go NaN after warmup?",
       {"It might be the learning rate being too high; let me lower it."},
       {Call("e1", "Edit", "/r/configs/base.yaml")},
       "I lowered the peak learning rate to 1e-4 in configs/base.yaml.", true},
      {"en: 'let me try' and a sed -i", "the dataloader hangs after epoch 2, can you fix it?",
       {"Let me try fewer workers."},
       {Call("e1", "Bash", "sed -i 's/num_workers: 16/num_workers: 4/' configs/data.yaml")},
       "Done: num_workers is now 4.", true},
      {"zh: 可能是……我试试", "训练第 2 个 epoch 之后就卡住了，帮我看看",
       {"可能是 worker 太多了，我试试把 num_workers 调小。"},
       {Call("e1", "Edit", "/r/configs/data.yaml")},
       "已经把 num_workers 改成 4。", true},
      {"zh: hedge only in the final message", "loss 为什么发散了？",
       {},
       {Call("e1", "Write", "/r/configs/fix.yaml")},
       "估计是学习率太大，我把它改小了。", true},
      {"probe before the edit", "why does the loss go NaN after warmup?",
       {"It might be the learning rate."},
       {Call("p1", "Bash", "grep -n 'loss nan' runs/r1/train.log | head"), Call("e1", "Edit", "/r/configs/base.yaml")},
       "I lowered the learning rate.", false},
      {"a smoke test after the edit clears it", "why does the loss go NaN after warmup?",
       {"It might be the learning rate."},
       {Call("e1", "Edit", "/r/configs/base.yaml"), Call("s1", "Bash", "python train.py --max-steps 5 --lr 0")},
       "The loss stays finite now.", false},
      {"reading the code is not probing the failure", "why does the loss go NaN after warmup?",
       {"Maybe the scheduler is off by one."},
       {Call("r1", "Read", "/r/trainer/sched.py"), Call("e1", "Edit", "/r/trainer/sched.py")},
       "I fixed the scheduler's off-by-one.", true},
      {"not a diagnosis", "add a --resume flag to the trainer",
       {"This might be cleaner as a separate module."},
       {Call("e1", "Edit", "/r/trainer/cli.py")},
       "Added --resume.", false},
      {"no hedge", "why does the loss go NaN after warmup?",
       {},
       {Call("e1", "Edit", "/r/configs/base.yaml")},
       "I set the peak learning rate to 1e-4.", false},
      {"no edit", "why does the loss go NaN after warmup?",
       {"It might be the learning rate."},
       {},
       "It might be the learning rate; the next probe is the log around step 2000.", false},
      {"a hedged question is not a hedge", "why does the loss go NaN after warmup?",
       {},
       {Call("e1", "Edit", "/r/configs/base.yaml")},
       "Could it be the learning rate?", false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    evidence::Turn turn;
    turn.prompt = c.prompt;
    turn.narration = c.narration;
    turn.tool_calls = c.calls;
    turn.final_message = c.final_message;
    const Verdict v = JudgeTurn(turn, nullptr, DefaultRules());
    CHECK(v.guess_fix.found == c.guess_fix);
    if (c.guess_fix) {
      CHECK(v.guess_fix.edit_call == "e1");
      CHECK(v.guess_fix.edit_rule >= 0);
      CHECK(v.guess_fix.hedge_rule >= 0);
      CHECK_FALSE(v.guess_fix.hedge.empty());
    }
  }
}

Verdict GuessFixVerdict(const char* narration, const char* final_message) {
  evidence::Turn turn;
  turn.prompt = "why does the loss go NaN after warmup?";
  turn.narration = {narration};
  turn.tool_calls = {Call("e1", "Edit", "/r/configs/base.yaml")};
  turn.final_message = final_message;
  return JudgeTurn(turn, nullptr, DefaultRules());
}

TEST_CASE("guess-fix modes: warn by default, block on request, off") {
  const Verdict v = GuessFixVerdict("It might be the learning rate, let me lower it.", "I lowered the learning rate.");
  REQUIRE(v.guess_fix.found);
  REQUIRE(v.decision == Decision::kAllow);  // no claim: the claims alone allow

  LoopPolicy warn;
  const Outcome w = Decide(v, DefaultRules(), 0, "", warn);
  CHECK(w.action == Action::kAllow);
  CHECK_THAT(w.warning, Catch::StartsWith("causegate: this turn changed code or config (Edit base.yaml)"));
  CHECK_THAT(w.warning, Catch::Contains("guess-fix"));

  LoopPolicy block;
  block.guess_fix = GuessFixMode::kBlock;
  const Outcome b = Decide(v, DefaultRules(), 0, "", block);
  CHECK(b.action == Action::kBlock);
  CHECK_THAT(b.reason, Catch::StartsWith("causegate blocked this stop: the turn changed code or config"));
  CHECK_THAT(b.reason, Catch::Contains("finding: guess-fix (rule steps.edit.tool)"));
  CHECK_THAT(b.reason, Catch::Contains("\"It might be the learning rate, let me lower it.\""));
  CHECK(b.warning.empty());
  const Outcome limit = Decide(v, DefaultRules(), 2, b.reason, block);
  CHECK(limit.action == Action::kAllowUnproven);
  CHECK_THAT(limit.system_message, Catch::Contains("guess-fix"));

  LoopPolicy off;
  off.guess_fix = GuessFixMode::kOff;
  const Outcome o = Decide(v, DefaultRules(), 0, "", off);
  CHECK(o.action == Action::kAllow);
  CHECK(o.warning.empty());

  GuessFixMode mode = GuessFixMode::kOff;
  CHECK(ParseGuessFixMode("block", &mode));
  CHECK(mode == GuessFixMode::kBlock);
  CHECK_FALSE(ParseGuessFixMode("maybe", &mode));
}

TEST_CASE("guess-fix in Chinese: the warning and the block follow the hedge's language") {
  const Verdict v = GuessFixVerdict("可能是学习率太大，我试试调小。", "已经把学习率调小了。");
  REQUIRE(v.guess_fix.found);
  CHECK(v.guess_fix.chinese);
  LoopPolicy block;
  block.guess_fix = GuessFixMode::kBlock;
  const Outcome b = Decide(v, DefaultRules(), 0, "", block);
  CHECK_THAT(b.reason, Catch::StartsWith("causegate 拦下了这次停止：本轮在探查之前就改了代码或配置"));
  CHECK_THAT(b.reason, Catch::Contains("判定: guess-fix (规则 steps.edit.tool)"));
  CHECK_THAT(Decide(v, DefaultRules(), 0, "", LoopPolicy()).warning, Catch::StartsWith("causegate：本轮在没有先探查"));
}

TEST_CASE("A claim block in warn mode lists the guess-fix too") {
  const Verdict v = GuessFixVerdict("It might be the learning rate.", "The loss went NaN because the learning rate is too high.");
  REQUIRE(v.unsupported() == 1);
  REQUIRE(v.guess_fix.found);
  const Outcome b = Decide(v, DefaultRules(), 0, "", LoopPolicy());
  CHECK(b.action == Action::kBlock);
  CHECK_THAT(b.reason, Catch::StartsWith("causegate blocked this stop: 1 causal claim"));
  CHECK_THAT(b.reason, Catch::Contains("finding: no-citation"));
  CHECK_THAT(b.reason, Catch::Contains("finding: guess-fix"));
  CHECK(b.warning.empty());
}

}  // namespace
}  // namespace causegate::rules
