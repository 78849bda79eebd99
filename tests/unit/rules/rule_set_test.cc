#include "rules/rule_set.h"

#include <catch2/catch.hpp>

#include <functional>

namespace causegate::rules {
namespace {

Pack MakePack(std::vector<std::pair<std::string, std::string>> id_patterns, RuleKind kind = RuleKind::kClaim) {
  Pack pack;
  pack.name = "t";
  pack.file = "t.json";
  int line = 1;
  for (auto& [id, pattern] : id_patterns) {
    Rule r;
    r.id = id;
    r.kind = kind;
    r.pattern = pattern;
    r.file = "t.json";
    r.pack = "t";
    r.line = ++line;
    pack.rules.push_back(r);
  }
  return pack;
}

TEST_CASE("Compile reports a bad pattern with file, line and rule id") {
  std::shared_ptr<const RuleSet> set;
  const Status s = RuleSet::Compile({MakePack({{"t.ok", "fine"}, {"t.bad", "(unclosed"}})}, &set);
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.message(), Catch::StartsWith("t.json:3: rule \"t.bad\": pattern: missing )"));
}

TEST_CASE("Compile refuses an id used by two packs") {
  std::shared_ptr<const RuleSet> set;
  Pack a = MakePack({{"t.same", "a"}});
  Pack b = MakePack({{"t.same", "b"}});
  b.file = b.rules[0].file = "u.json";
  b.rules[0].line = 7;
  b.rules[0].column = 12;
  const Status s = RuleSet::Compile({a, b}, &set);
  REQUIRE_FALSE(s.ok());
  // Both places, as rules/pack.h's DuplicateId says them.
  CHECK(s.message() == "u.json:7:12: rule \"t.same\": duplicate id: also in pack \"t\" at t.json:2");
}

TEST_CASE("Compile refuses a pattern over the memory budget and more rules than allowed") {
  std::shared_ptr<const RuleSet> set;
  CompileOptions tight;
  tight.max_mem_per_rule = 64 << 10;
  const Status big = RuleSet::Compile({MakePack({{"t.huge", "(?:\\p{L}{60}\\p{N}{60}){8}"}})}, tight, &set);
  REQUIRE_FALSE(big.ok());
  CHECK_THAT(big.message(), Catch::Contains("t.huge"));

  CompileOptions few;
  few.max_rules = 1;
  const Status many = RuleSet::Compile({MakePack({{"t.a", "a"}, {"t.b", "b"}})}, few, &set);
  REQUIRE_FALSE(many.ok());
  CHECK_THAT(many.message(), Catch::Contains("more than 1 rules"));
}

TEST_CASE("Match groups hits by kind, first rule in pack order wins") {
  Pack claims = MakePack({{"t.because", "\\bbecause\\b"}, {"t.due", "due to"}});
  Pack hedges = MakePack({{"t.maybe", "\\bmaybe\\b"}}, RuleKind::kHedge);
  Pack prompts = MakePack({{"t.why", "\\bwhy\\b"}}, RuleKind::kDiagnosticPrompt);
  std::shared_ptr<const RuleSet> set;
  REQUIRE(RuleSet::Compile({claims, hedges, prompts}, &set).ok());

  const Hits hits = set->Match(Target::kSentence, "Maybe it FAILED because of the flag, due to a typo");
  CHECK(hits.rules.size() == 3);
  CHECK(set->rule(hits.First(RuleKind::kClaim)).id == "t.because");
  CHECK(set->rule(hits.First(RuleKind::kHedge)).id == "t.maybe");
  CHECK_FALSE(hits.Has(RuleKind::kDiagnosticPrompt));  // prompt rules run on prompts only

  CHECK(set->Match(Target::kPrompt, "why?").Has(RuleKind::kDiagnosticPrompt));
  CHECK(set->Match(Target::kSentence, "nothing here").rules.empty());
  CHECK(set->FindRule("t.due") == 1);
  CHECK(set->FindRule("t.nope") == -1);
}

TEST_CASE("MatchRule gives the span and matches UTF-8 case-insensitively") {
  Pack p = MakePack({{"t.zh", "原因是"}, {"t.en", "root cause"}});
  std::shared_ptr<const RuleSet> set;
  REQUIRE(RuleSet::Compile({p}, &set).ok());
  std::size_t begin = 0, end = 0;
  const std::string zh = "失败的原因是磁盘满了";
  REQUIRE(set->MatchRule(0, zh, &begin, &end));
  CHECK(zh.substr(begin, end - begin) == "原因是");
  CHECK(set->MatchRule(1, "The ROOT CAUSE is"));
  CHECK_FALSE(set->MatchRule(1, "roots"));
}

TEST_CASE("The default rule set compiles") {
  std::shared_ptr<const RuleSet> set;
  REQUIRE(LoadRuleSet("", &set).ok());
  CHECK(set->rules().size() > 20);
}

}  // namespace
}  // namespace causegate::rules

namespace causegate::rules {
namespace {

TEST_CASE("Lazy rule sets give the eager sets' hits, text by text") {
  // Lazy sets compile only the rules a text's literals allow, in sets
  // grown as texts need them; hits must not depend on that.
  std::shared_ptr<const RuleSet> eager;
  std::shared_ptr<const RuleSet> lazy;
  CompileOptions lazy_options;
  lazy_options.lazy = true;
  REQUIRE(LoadRuleSet("", &eager).ok());
  REQUIRE(LoadRuleSet("", lazy_options, &lazy).ok());
  std::vector<std::string> texts;
  for (const Rule& rule : eager->rules()) {
    texts.insert(texts.end(), rule.must_match.begin(), rule.must_match.end());
    texts.insert(texts.end(), rule.must_not_match.begin(), rule.must_not_match.end());
  }
  texts.push_back("THE ROOT CAUSE WAS A \xE2\x84\xAAILLED WORKER");  // KELVIN SIGN
  texts.push_back("");
  for (const Target target : {Target::kSentence, Target::kPrompt, Target::kSymptom, Target::kLine, Target::kCommand}) {
    for (const std::string& text : texts) {
      INFO(static_cast<int>(target) << ": " << text);
      const Hits want = eager->Match(target, text);
      const Hits got = lazy->Match(target, text);
      CHECK(got.rules == want.rules);
      CHECK(got.first == want.first);
    }
  }
}

TEST_CASE("FirstMatch, staged or not, is the first wanted rule of the eager hits, text by text") {
  std::shared_ptr<const RuleSet> eager;
  std::shared_ptr<const RuleSet> lazy;
  std::shared_ptr<const RuleSet> staged;
  CompileOptions lazy_options;
  lazy_options.lazy = true;
  CompileOptions staged_options = lazy_options;
  staged_options.staged_first_match = true;
  REQUIRE(LoadRuleSet("", &eager).ok());
  REQUIRE(LoadRuleSet("", lazy_options, &lazy).ok());
  REQUIRE(LoadRuleSet("", staged_options, &staged).ok());
  CHECK_FALSE(lazy->staged_first_match());
  CHECK(staged->staged_first_match());
  std::vector<std::string> texts;
  for (const Rule& rule : eager->rules()) {
    texts.insert(texts.end(), rule.must_match.begin(), rule.must_match.end());
    texts.insert(texts.end(), rule.must_not_match.begin(), rule.must_not_match.end());
  }
  const std::vector<std::function<bool(const Rule&)>> wants = {
      [](const Rule&) { return true; },
      [](const Rule& r) { return r.tag == "symptom"; },
      [](const Rule& r) { return r.pack == "zh"; },
      [](const Rule& r) { return r.kind == RuleKind::kHedge || r.kind == RuleKind::kNegation; },
  };
  for (const Target target : {Target::kSentence, Target::kPrompt, Target::kSymptom, Target::kLine, Target::kCommand}) {
    for (const std::string& text : texts) {
      INFO(static_cast<int>(target) << ": " << text);
      const Hits hits = eager->Match(target, text);
      for (const auto& wanted : wants) {
        int want = -1;
        for (const int r : hits.rules) {
          if (want < 0 && wanted(eager->rule(r))) want = r;
        }
        CHECK(lazy->FirstMatch(target, text, wanted) == want);
        CHECK(staged->FirstMatch(target, text, wanted) == want);
      }
      // The staged set's one-rule sets and Match's bulk sets mix.
      CHECK(staged->Match(target, text).rules == hits.rules);
    }
  }
}

TEST_CASE("Staged FirstMatch compiles no rule past the first that matches") {
  CompileOptions options;
  options.lazy = true;
  options.staged_first_match = true;
  std::shared_ptr<const RuleSet> set;
  const Pack pack = MakePack({{"t.first", "\\bdisk\\b"}, {"t.second", "\\bdisk full\\b"}, {"t.third", "\\bfull\\b"}});
  REQUIRE(RuleSet::Compile({pack}, options, &set).ok());
  const auto any = [](const Rule&) { return true; };
  CHECK(set->CompiledRuleCount(Target::kSentence) == 0);
  CHECK(set->FirstMatch(Target::kSentence, "the disk is full", any) == 0);
  CHECK(set->CompiledRuleCount(Target::kSentence) == 1);
  // Skipping the first by choice compiles the next candidate, not the one
  // whose words are missing ("disk full" is not in the text).
  CHECK(set->FirstMatch(Target::kSentence, "the disk is full", [](const Rule& r) { return r.id != "t.first"; }) == 2);
  CHECK(set->CompiledRuleCount(Target::kSentence) == 2);
  CHECK(set->Match(Target::kSentence, "the disk is full").rules == std::vector<int>{0, 2});
}

TEST_CASE("Lazy rule sets still refuse a user pack's bad pattern at load") {
  std::shared_ptr<const RuleSet> set;
  CompileOptions options;
  options.lazy = true;
  const Status s = RuleSet::Compile({MakePack({{"t.ok", "fine"}, {"t.bad", "(unclosed"}})}, options, &set);
  REQUIRE_FALSE(s.ok());
  CHECK_THAT(s.message(), Catch::StartsWith("t.json:3: rule \"t.bad\": pattern: missing )"));
}

}  // namespace
}  // namespace causegate::rules
