#include "rules/shape_backstop.h"

#include <algorithm>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "rules/feature_hash.h"
#include "rules/message.h"
#include "test_rules.h"

namespace causegate::rules {
namespace {

using testing::DefaultRules;

// A model that takes any sentence with "so" in it for a claim, and any
// Chinese one with 所以 (its own bias -1, its features prefixed "zh:"):
// the tests below are about where the model may add a claim, not about
// its weights.
const ClaimScorer& SoModel() {
  static const ClaimScorer model = [] {
    ClaimScorer s;
    REQUIRE(ClaimScorer::Parse("bias\t0\nthreshold\t1\ns:u:so\t2\nzh:bias\t-1\nzh:s:u:所以\t3\n", "so.tsv", &s).ok());
    return s;
  }();
  return model;
}

// The claim scorer's and then the model's verdict on the first sentence of
// text, as JudgeTurn reaches it.
ClaimScore Judge(std::string_view text, bool diagnosis = true, const ClaimScorer& shapes = SoModel(),
                 bool tool_ran = true) {
  const RuleSet& rules = DefaultRules();
  const Message m = ParseMessage(text);
  REQUIRE(!m.sentences.empty());
  const Sentence& s = m.sentences.front();
  const SentenceClass whole = ClassifySentence(rules, s.masked);
  const SentencePlace place = MessagePlaces(rules, m).Of(s);
  ClaimScore score = ScoreSentence(rules, ClaimScorer::Default(), s.masked, whole, place, diagnosis);
  ConsiderShape(rules, ClaimScorer::Default(), shapes, s.masked, whole, place, ShapeTurn{diagnosis, tool_ran}, &score);
  return score;
}

TEST_CASE("Shape backstop: the embedded model parses and weighs something") {
  const ClaimScorer& model = ClaimScorer::ShapeModel();
  CHECK(model.threshold() < 1e100);
  CHECK(model.bias() > -100);  // not the placeholder that weighs nothing
}

TEST_CASE("Shape backstop: a compiled table weighs as the file it was compiled from") {
  std::vector<HashedWeight> table = {{FeatureHash("s:u:so"), 2.0}, {FeatureHash("p:failure"), 1.5}};
  std::sort(table.begin(), table.end(), [](const HashedWeight& a, const HashedWeight& b) { return a.hash < b.hash; });
  const ClaimScorer compiled = ClaimScorer::FromTable(-1, 1, table.data(), table.size());
  ClaimScorer parsed;
  REQUIRE(ClaimScorer::Parse("bias\t-1\nthreshold\t1\ns:u:so\t2\np:failure\t1.5\n", "w.tsv", &parsed).ok());
  for (const ClaimScorer* s : std::vector<const ClaimScorer*>{&compiled, &parsed}) {
    CHECK(s->bias() == -1);
    CHECK(s->threshold() == 1);
    CHECK(s->Weight("s:", "u:so") == 2.0);
    CHECK(s->Weight("s:u:so") == 2.0);
    CHECK(s->Weight("p:", "failure") == 1.5);
    CHECK(s->Weight("s:", "u:because") == 0.0);
  }
}

TEST_CASE("Shape backstop: a mechanism with no cue becomes a claim, named by the model's rule") {
  const ClaimScore s = Judge("The worker only listens on loopback, so nothing reaches it from the LAN.");
  CHECK(s.claim);
  CHECK(s.by_shape);
  CHECK(s.shape_weighed);
  CHECK(s.shape_score >= 1);
  REQUIRE(s.rule >= 0);
  CHECK(DefaultRules().rule(s.rule).id == "en.feature.shape-model");
  REQUIRE(!s.shape_features.empty());
  CHECK(s.shape_features.front().feature == "s:u:so");
}

TEST_CASE("Shape backstop: only where the spec allows a claim") {
  // No diagnosis and no failure named.
  CHECK_FALSE(Judge("The worker only listens on loopback, so nothing reaches it from the LAN.", false).claim);
  // A hedge, a negation, a question, a conditional in the sentence.
  for (const char* qualified : {"The worker may only listen on loopback, so nothing reaches it.",
                                "It is not that the worker listens on loopback, so look elsewhere.",
                                "Does the worker only listen on loopback, so nothing reaches it?",
                                "If the worker only listens on loopback, so be it."}) {
    INFO(qualified);
    CHECK_FALSE(Judge(qualified).claim);
  }
  // A trait the claim scorer holds against a claim: a generic statement, a
  // plan.
  for (const char* held : {"The runbook says this usually happens, so the disk fills up.",
                           "I'll check df next, so we know whether the disk is full."}) {
    INFO(held);
    CHECK_FALSE(Judge(held).claim);
  }
  // A heading is never a claim.
  CHECK_FALSE(Judge("## So the worker listens on loopback").claim);
  // A sentence with Han (evidence::CountHan) is weighed by the Chinese part
  // only: "so" counts for nothing there.
  CHECK_FALSE(Judge("worker 只监听 loopback，so 局域网的请求到不了。").claim);
}

TEST_CASE("Shape backstop: a Chinese sentence is weighed by the Chinese model") {
  const ClaimScore s = Judge("worker 只监听本机地址，所以局域网的请求到不了它。");
  CHECK(s.claim);
  CHECK(s.by_shape);
  CHECK(s.shape_score == 2);  // 0 - 1 + 3
  REQUIRE(s.rule >= 0);
  CHECK(DefaultRules().rule(s.rule).id == "zh.feature.shape-model");
  CHECK_FALSE(Judge("worker 可能只监听本机地址，所以局域网的请求到不了它。").claim);  // hedged
  CHECK_FALSE(Judge("worker 只监听本机地址，所以局域网的请求到不了它。", false).claim);
}

TEST_CASE("Shape backstop: the turn's context weighs with the sentence") {
  const RuleSet& rules = DefaultRules();
  const SentenceClass plain = ClassifySentence(rules, "It's the layer order.");
  const SentenceClass failing = ClassifySentence(rules, "The daemon got OOM-killed.");
  using Names = std::vector<std::string_view>;
  CHECK(ShapeContext(plain, {true, false}) == Names{"no-tool"});
  CHECK(ShapeContext(plain, {true, true}).empty());
  // Outside a diagnosis turn no tool is the usual case, and says nothing.
  CHECK(ShapeContext(plain, {false, false}).empty());
  CHECK(ShapeContext(failing, {true, true}) == Names{"failure"});

  // A model that takes a sentence for a claim only where no tool ran.
  ClaimScorer model;
  REQUIRE(ClaimScorer::Parse("bias\t0\nthreshold\t1\nc:no-tool\t2\n", "context.tsv", &model).ok());
  const ClaimScore answered = Judge("It's the layer order.", true, model, false);
  CHECK(answered.claim);
  CHECK(answered.by_shape);
  REQUIRE(!answered.shape_features.empty());
  CHECK(answered.shape_features.front().feature == "c:no-tool");
  CHECK_FALSE(Judge("It's the layer order.", true, model, true).claim);
}

TEST_CASE("Shape backstop: never takes a claim away, never weighs past its threshold") {
  ClaimScorer never = ClaimScorer::Never();
  const ClaimScore claim = Judge("The upload timed out because the proxy buffers the whole body.", true, never);
  CHECK(claim.claim);
  CHECK_FALSE(claim.by_shape);
  const ClaimScore none = Judge("The worker only listens on loopback, so nothing reaches it from the LAN.", true, never);
  CHECK_FALSE(none.claim);
  CHECK(none.shape_weighed);  // weighed, and below the threshold
}

}  // namespace
}  // namespace causegate::rules
