#include "rules/required_literals.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>

#include "rules/rule_set.h"
#include "tests/unit/rules/test_rules.h"

namespace causegate::rules {
namespace {

struct FormulaCase {
  const char* pattern;
  const char* formula;
};

TEST_CASE("Required literals of the pattern shapes the packs use") {
  const FormulaCase cases[] = {
      {"\\bbecause\\b", "because"},
      {"Because", "because"},  // atoms in lower case
      {"\\bbecause\\b|\\bbecause of\\b", "because"},  // a superstring adds nothing to an OR
      {"\\broot[- ]?causes?\\b|\\bunderlying cause\\b", "((root AND cause) OR underlying cause)"},
      {"\\b(?:due|owing)\\s+to\\b", "((due OR owing) AND to)"},
      {"caus(?:ed|es)\\b", "(caused OR causes)"},
      {"(?-i:\\s+(?:is|was))", "(is OR was)"},
      {"(?i)root|cause", "(cause OR root)"},
      {"x*", "*"},
      {"(?:ab)?c", "c"},
      {"(?:ab){0,3}c", "c"},
      {"(?:ab){2,}c", "(ab AND c)"},
      {"(?:ab)+", "ab"},
      {"a[bc]d", "(a AND d)"},
      {"[^]x]y", "y"},
      {"\\.log\\b", ".log"},
      {"\\x27s", "'s"},
      {"\\x{3002}", "\xE3\x80\x82"},
      {"\xE5\x8E\x9F\xE5\x9B\xA0(?:\xE6\x98\xAF|:)", "(\xE5\x8E\x9F\xE5\x9B\xA0: OR \xE5\x8E\x9F\xE5\x9B\xA0\xE6\x98\xAF)"},
      {"caf\xC3\xA9", "caf"},  // é has case: it requires nothing
      {"(?P<name>abc)d", "abcd"},
      {"a{,3}", "a{,3}"},  // not a repeat: RE2 reads the brace as a literal
      {"", "*"},
      {"(unclosed", "*"},  // what RE2 refuses requires nothing
      {"\\Qa.b\\E", "*"},  // not read: requires nothing
      {"a|", "*"},
      {"ROOT Cause", "root cause"},  // plain letters lowered as they run
      {"colou?r", "(color OR colour)"},  // a quantified letter ends the plain run
      {"a\\|b", "a|b"},  // an escaped bar is a letter, not a branch
  };
  for (const FormulaCase& c : cases) {
    INFO(c.pattern);
    LiteralFilter filter;
    filter.Add(c.pattern);
    CHECK(filter.Describe(0) == c.formula);
  }
}

TEST_CASE("A long alternation past the exact limit is one OR of its branches") {
  // Past 64 exact strings the branches are gathered into one OR; one
  // branch that requires nothing still makes the whole requirement nothing.
  std::string words;
  std::string formula = "(";
  for (int i = 0; i < 70; ++i) {
    const std::string word = "w" + std::to_string(100 + i);
    words += (i > 0 ? "|" : "") + word;
    formula += (i > 0 ? " OR " : "") + word;
  }
  formula += ")";
  LiteralFilter filter;
  filter.Add(words);
  filter.Add(words + "|x*");
  filter.Add("(?:" + words + ")s");
  CHECK(filter.Describe(0) == formula);
  CHECK(filter.Describe(1) == "*");
  CHECK(filter.Describe(2) == "(" + formula + " AND s)");
}

TEST_CASE("Candidates are the patterns whose literals the text holds") {
  LiteralFilter filter;
  filter.Add("\\bbecause\\b");           // 0
  filter.Add("\\b(?:due|owing)\\s+to");  // 1
  filter.Add("\\w+");                    // 2: requires nothing
  std::vector<int> out;
  filter.Candidates("It failed BECAUSE of the disk.", &out);
  CHECK(out == std::vector<int>{0, 2});
  filter.Candidates("Owing to the disk, it failed.", &out);
  CHECK(out == std::vector<int>{1, 2});
  filter.Candidates("due", &out);  // "to" missing
  CHECK(out == std::vector<int>{2});
}

TEST_CASE("Text is lowered as RE2's case folding reads it") {
  CHECK(LowerForLiterals("ABC xyz") == "abc xyz");
  CHECK(LowerForLiterals("\xE2\x84\xAA") == "k");  // KELVIN SIGN
  CHECK(LowerForLiterals("\xC5\xBF") == "s");      // LONG S
  CHECK(LowerForLiterals("\xC3\x89") == "\xC3\x89");  // É is left alone
  LiteralFilter filter;
  filter.Add("\\bkills?\\b");
  std::vector<int> out;
  filter.Candidates("\xE2\x84\xAA" "ILL\xC5\xBF", &out);  // KILLſ
  CHECK(out == std::vector<int>{0});
}

// Upper case, title case and the two non-ASCII letters that fold to ASCII:
// variants a case-insensitive pattern still matches.
std::vector<std::string> Variants(const std::string& text) {
  std::string upper = text;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  std::string odd;
  for (const char c : text) {
    if (c == 'k') {
      odd += "\xE2\x84\xAA";
    } else if (c == 's') {
      odd += "\xC5\xBF";
    } else {
      odd += c;
    }
  }
  return {text, upper, odd};
}

TEST_CASE("Every built-in rule that matches a text passes its literal filter") {
  // The filter is a necessary condition: were it false for a text the rule
  // matches, the lazy rule set would miss a hit. Each rule's own examples,
  // matching or not, and variants in other cases, are the texts.
  const RuleSet& rules = testing::DefaultRules();
  int checked = 0;
  int filtered = 0;
  for (int i = 0; i < static_cast<int>(rules.rules().size()); ++i) {
    const Rule& rule = rules.rule(i);
    LiteralFilter filter;
    filter.Add(rule.pattern);
    if (filter.Describe(0) != "*") ++filtered;
    std::vector<std::string> texts = rule.must_match;
    texts.insert(texts.end(), rule.must_not_match.begin(), rule.must_not_match.end());
    for (const std::string& example : texts) {
      for (const std::string& text : Variants(example)) {
        if (!rules.MatchRule(i, text)) continue;
        INFO(rule.id << ": " << text << " requires " << filter.Describe(0));
        std::vector<int> out;
        filter.Candidates(text, &out);
        CHECK(out == std::vector<int>{0});
        ++checked;
      }
    }
  }
  CHECK(checked > 300);
  // Most rules have a requirement; were the reader to give up on the packs'
  // syntax, the hook would compile every rule again.
  CHECK(filtered * 10 >= static_cast<int>(rules.rules().size()) * 9);
}

}  // namespace
}  // namespace causegate::rules
