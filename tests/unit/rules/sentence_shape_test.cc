#include "rules/sentence_shape.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "rules/feature_hash.h"

namespace causegate::rules {
namespace {

bool Has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

TEST_CASE("Shape: closed-class words stay, other words become their form") {
  CHECK(ShapeTokens("metricsd only listens on loopback, so connections find nothing bound.") ==
        std::vector<std::string>{"W", "only", "Ws", "on", "W", ",", "so", "Ws", "W", "nothing", "W", "P"});
  CHECK(ShapeTokens("The cache is growing; it was evicted") ==
        std::vector<std::string>{"the", "W", "is", "Wing", ";", "it", "was", "Wed"});
}

TEST_CASE("Shape: code, identifiers and numbers have a form of their own") {
  // QUOTE is what masking leaves of a code span or a quote (rules/message.h).
  CHECK(ShapeTokens("QUOTE calls parse_args before loadConfig in app.main on port 8080") ==
        std::vector<std::string>{"C", "Ws", "C", "before", "C", "in", "C", "on", "W", "N"});
}

TEST_CASE("Shape: an apostrophe, ASCII or typographic, keeps a word whole") {
  CHECK(ShapeTokens("It doesn't retry") == std::vector<std::string>{"it", "doesn't", "W"});
  CHECK(ShapeTokens("It doesn\xE2\x80\x99t retry") == std::vector<std::string>{"it", "doesn't", "W"});
  // A closing quote is no part of the word before it.
  CHECK(ShapeTokens("the 'workers' queue") == std::vector<std::string>{"the", "P", "Ws", "P", "W"});
}

TEST_CASE("Shape: non-ASCII text is read a character at a time, never split inside one") {
  const std::vector<std::string> tokens = ShapeTokens("X \xE2\x80\x94 y\xC3\xA9");
  CHECK(tokens == std::vector<std::string>{"W", "P", "W", "P"});
  CHECK(ShapeTokens("\xE2\x80").size() == 1);  // a truncated sequence is one token, not a read past the end
}

TEST_CASE("Shape: the n-grams, each once, with the sentence's ends") {
  const std::vector<std::string> f = ShapeFeatures("so so");
  CHECK(f == std::vector<std::string>{"b:<s>_so", "t:<s>_so_so", "u:so", "b:so_so", "t:so_so_</s>", "b:so_</s>"});
  const std::vector<std::string> g = ShapeFeatures("Workers sit idle, so the queue grows.");
  CHECK(Has(g, "t:,_so_the"));
  CHECK(Has(g, "b:<s>_Ws"));
  CHECK_FALSE(Has(g, "u:W"));  // only closed-class words stand alone
}

TEST_CASE("Shape: Chinese closed-class words stay, a run of other characters is one token") {
  CHECK(ShapeTokens("导出失败是因为磁盘满了。") == std::vector<std::string>{"H", "是", "因为", "H", "了", "P"});
  // The longest word that starts here: 没有, not 没.
  CHECK(ShapeTokens("日志里没有报错，所以 worker 没启动") ==
        std::vector<std::string>{"H", "里", "没有", "H", ",", "所以", "W", "没", "H"});
}

TEST_CASE("Shape: the hashes are those of the n-grams' names with the prefix") {
  for (const char* text : {"Workers sit idle, so the queue grows.", "导出失败是因为磁盘满了。", ""}) {
    INFO(text);
    std::vector<std::uint64_t> expected;
    for (const std::string& name : ShapeFeatures(text)) expected.push_back(FeatureHash("zh:s:" + name));
    std::sort(expected.begin(), expected.end());
    CHECK(ShapeHashes(text, "zh:s:") == expected);
  }
}

TEST_CASE("Shape: a long sentence is read up to the token cap") {
  std::string text;
  for (int i = 0; i < 500; ++i) text += "word ";
  CHECK(ShapeTokens(text).size() == kMaxShapeTokens);
}

}  // namespace
}  // namespace causegate::rules
