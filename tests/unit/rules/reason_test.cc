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
