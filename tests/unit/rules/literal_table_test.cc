#include "rules/literal_table.h"

#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/required_literals.h"
#include "rules/rule_set.h"
#include "tests/unit/rules/test_rules.h"

namespace causegate::rules {
namespace {

// Every built-in rule's examples, the texts two filters must agree on.
std::vector<std::string> BuiltinExamples() {
  std::vector<std::string> texts;
  for (const Rule& rule : testing::DefaultRules().rules()) {
    texts.insert(texts.end(), rule.must_match.begin(), rule.must_match.end());
    texts.insert(texts.end(), rule.must_not_match.begin(), rule.must_not_match.end());
  }
  return texts;
}

// a and b give every index the same requirement and every text the same
// candidates.
void CheckSameFilters(const LiteralFilter& a, const LiteralFilter& b, const std::vector<std::string>& texts) {
  REQUIRE(a.size() == b.size());
  for (int i = 0; i < static_cast<int>(a.size()); ++i) {
    INFO("index " << i);
    CHECK(a.Describe(i) == b.Describe(i));
  }
  std::vector<int> from_a;
  std::vector<int> from_b;
  for (const std::string& text : texts) {
    INFO(text);
    a.Candidates(text, &from_a);
    b.Candidates(text, &from_b);
    CHECK(from_a == from_b);
  }
}

TEST_CASE("Every built-in rule's pattern is in the literal table") {
  // A build that stopped writing the table, or a pack reader that changed
  // a pattern's text, would read every pattern again at each hook call.
  const RuleSet& rules = testing::DefaultRules();
  REQUIRE(rules.rules().size() > 150);
  for (const Rule& rule : rules.rules()) {
    INFO(rule.id);
    const std::optional<std::string_view> formula = BuiltinFormula(rule.pattern);
    REQUIRE(formula.has_value());
    CHECK(*formula == LiteralFilter::Formula(rule.pattern));
  }
  CHECK_FALSE(BuiltinFormula("no built-in rule has this pattern").has_value());
  CHECK_FALSE(BuiltinFormula("").has_value());
}

TEST_CASE("The table's formulas add what reading the built-in patterns adds") {
  // In one filter, in pack order, as a slot adds them: atoms shared across
  // patterns sort as Add sorts them. Then every other pattern from the
  // table, as a rule set with some patterns of its own would mix them.
  const RuleSet& rules = testing::DefaultRules();
  const std::vector<std::string> texts = BuiltinExamples();
  LiteralFilter read;
  LiteralFilter replayed;
  LiteralFilter mixed;
  for (std::size_t i = 0; i < rules.rules().size(); ++i) {
    const std::string& pattern = rules.rules()[i].pattern;
    const std::string_view formula = BuiltinFormula(pattern).value_or("");
    read.Add(pattern);
    replayed.AddFormula(formula);
    if (i % 2 == 0) {
      mixed.Add(pattern);
    } else {
      mixed.AddFormula(formula);
    }
  }
  CheckSameFilters(read, replayed, texts);
  CheckSameFilters(read, mixed, texts);
}

}  // namespace
}  // namespace causegate::rules
