#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "rules/required_literals.h"
#include "rules/rule_set.h"
#include "tests/unit/rules/test_rules.h"

namespace causegate::rules {
namespace {

TEST_CASE("A formula is the making of a pattern's requirement, written down") {
  struct Case {
    const char* pattern;
    const char* formula;
  };
  const Case cases[] = {
      {"\\bbecause\\b", "7:because=0"},
      {"\\b(?:due|owing)\\s+to", "3:due5:owing|0,1;2:to&2,3;=4"},
      {"x*", "*"},
      {"because|x*", "7:because=*"},  // an atom made, then not needed
      {"a|b", "1:a1:b|0,1;=2"},
      {"a\\x{3a}b", "3:a:b=0"},  // any byte in an atom, ':' too
      {"(unclosed", "*"},
  };
  for (const Case& c : cases) {
    INFO(c.pattern);
    CHECK(LiteralFilter::Formula(c.pattern) == c.formula);
  }
}

TEST_CASE("A formula's parts sort by what earlier patterns made, as Add sorts them") {
  // Alone, "(?:a.*b)|c" makes a, b, their AND, then c: "((a AND b) OR c)".
  // After a pattern that made c first, c sorts before the AND.
  const std::string formula = LiteralFilter::Formula("(?:a.*b)|c");
  CHECK(formula == "1:a1:b&0,1;1:c|2,3;=4");
  LiteralFilter read;
  read.Add("(?:a.*b)|c");
  read.Add("c");
  read.Add("(?:a.*b)|c");
  LiteralFilter replayed;
  replayed.AddFormula(formula);
  replayed.AddFormula(LiteralFilter::Formula("c"));
  replayed.AddFormula(formula);
  CHECK(read.Describe(0) == "((a AND b) OR c)");
  CHECK(read.Describe(2) == "(c OR (a AND b))");
  for (int i = 0; i < 3; ++i) CHECK(replayed.Describe(i) == read.Describe(i));
  for (const char* text : {"a b", "c", "x"}) {
    INFO(text);
    std::vector<int> from_read;
    std::vector<int> from_replayed;
    read.Candidates(text, &from_read);
    replayed.Candidates(text, &from_replayed);
    CHECK(from_read == from_replayed);
  }
  LiteralFilter c_first;
  c_first.Add("c");
  c_first.AddFormula(formula);
  CHECK(c_first.Describe(1) == "(c OR (a AND b))");
}

TEST_CASE("A malformed formula requires nothing and changes nothing else") {
  const char* const bad[] = {
      "",
      "=",
      "=0",
      "7:because",           // no root
      "7:because=1",         // root past the events
      "9:because=0",         // atom longer than the text
      "0:=0",                // empty atom
      "-1:x=0",
      "99999999999:x=0",     // a number past nine digits
      "7:because=0junk",
      "7:because=*x",
      "1:a1:b|0;=2",         // a node of one part
      "1:a1:b|1,0;=2",       // parts not ascending
      "1:a1:b|0,0;=2",
      "1:a1:b|0,2;=2",       // a part not yet made
      "1:a1:b|0,1=2",        // no ';'
      "1:a1:b&;=2",
      "**",
      "x=0",
  };
  for (const char* formula : bad) {
    INFO(formula);
    LiteralFilter filter;
    filter.AddFormula(formula);
    filter.AddFormula("7:because=0");
    CHECK(filter.Describe(0) == "*");
    CHECK(filter.Describe(1) == "because");
    std::vector<int> out;
    filter.Candidates("nothing here", &out);
    CHECK(out == std::vector<int>{0});
  }
  // An atom holding a NUL byte is well formed.
  LiteralFilter filter;
  filter.AddFormula(std::string_view("1:\0=0", 5));
  CHECK(filter.Describe(0) == std::string(1, '\0'));
}

TEST_CASE("Every built-in pattern's formula reads back, and its prefixes without harm") {
  // Truncation is the likeliest damage: a prefix that lost the root (the
  // part after the last '=') requires nothing; none reads outside the text.
  int checked = 0;
  for (const Rule& rule : testing::DefaultRules().rules()) {
    INFO(rule.id);
    const std::string formula = LiteralFilter::Formula(rule.pattern);
    LiteralFilter read;
    read.Add(rule.pattern);
    LiteralFilter replayed;
    replayed.AddFormula(formula);
    CHECK(replayed.Describe(0) == read.Describe(0));
    const std::size_t root_at = formula.rfind('=');
    for (std::size_t n = 0; n < formula.size(); ++n) {
      LiteralFilter filter;
      filter.AddFormula(std::string_view(formula).substr(0, n));
      std::vector<int> out;
      filter.Candidates("because the disk was full", &out);
      const std::string described = filter.Describe(0);
      if (root_at != std::string::npos && n <= root_at) {
        CHECK(described == "*");
        ++checked;
      }
    }
  }
  CHECK(checked > 10000);
}

}  // namespace
}  // namespace causegate::rules
