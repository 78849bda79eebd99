#include "rules/pack_lint.h"

#include <catch2/catch.hpp>

#include <string>

#include "unit/evidence/test_util.h"

namespace causegate::rules {
namespace {

using evidence::testing::TempDir;

std::vector<std::string> Messages(const LintReport& report) {
  std::vector<std::string> out;
  for (const PackProblem& p : report.problems) out.push_back(p.Message());
  return out;
}

TEST_CASE("LintPacks: the built-in packs have no problem") {
  LintReport report;
  REQUIRE(LintPacks("", CompileOptions(), &report).ok());
  CHECK(report.packs >= 2);
  CHECK(report.rules > 100);
  CHECK(Messages(report).empty());
}

TEST_CASE("LintPacks lists every problem of every file, file by file and line by line") {
  TempDir dir;
  const std::string team = dir.WriteRaw("team.json", R"({
  "format": "causegate-pack/1",
  "pack": "team",
  "version": "1",
  "rules": [
    {"id": "team.claim.blame", "kind": "claim", "pattern": "(blame",
     "match": ["We blame the cache."], "no_match": ["Fine."]},
    {"id": "team.claim.zorch", "kind": "claim", "pattern": "zorch"},
    {"id": "team.claim.frob", "kind": "claim", "pattern": "frob",
     "description": "Frobbing\nand more.", "match": ["It frobbed."], "no_match": ["Fine."]},
    {"id": "team.claim.long", "kind": "claim", "pattern": "long",
     "description": ")" + std::string(161, 'x') + R"(", "match": ["long"], "no_match": ["Fine."]}
  ]
})");
  const std::string broken = dir.WriteRaw("broken.json", "{\"format\": \"causegate-pack/1\",\n");
  LintReport report;
  REQUIRE(LintPacks(dir.path(), CompileOptions(), &report).ok());
  CHECK(report.packs == 2);
  CHECK(report.rules == 4);
  CHECK(Messages(report) ==
        std::vector<std::string>{
            broken + ":2:1: invalid JSON: syntax error while parsing object key - unexpected end of input; expected "
                     "string literal",
            team + ":6:49: rule \"team.claim.blame\": pattern: missing ): (blame",
            team + ":8:12: rule \"team.claim.zorch\": no \"match\" examples",
            team + ":8:12: rule \"team.claim.zorch\": no \"no_match\" examples",
            team + ":10:6: rule \"team.claim.frob\": description: must be one line, without line breaks or control "
                   "characters",
            team + ":12:6: rule \"team.claim.long\": description: 161 characters, more than 160 (one line of rules "
                   "list; put the rest in \"note\")",
        });
}

TEST_CASE("LintPacks: an id a built-in rule has, a pack file given by name") {
  TempDir dir;
  const std::string file = dir.WriteRaw("team.json", R"({"format": "causegate-pack/1", "pack": "team", "version": "1",
  "rules": [{"id": "en.claim.because", "kind": "claim", "pattern": "zorched",
             "match": ["It zorched."], "no_match": ["Fine."]}]})");
  LintReport report;
  REQUIRE(LintPacks(file, CompileOptions(), &report).ok());
  CHECK(report.packs == 1);
  REQUIRE(report.problems.size() == 1);
  // The same problem loading finds (pack_problems_test.cc has the words).
  std::vector<Pack> packs;
  const Status loaded = LoadPacks(file, &packs);
  REQUIRE_FALSE(loaded.ok());
  CHECK(report.problems[0].Message() == loaded.message());
  CHECK_THAT(loaded.message(), Catch::StartsWith(file + ":2:20: rule \"en.claim.because\": duplicate id: also in the "
                                                        "built-in pack \"en\" at <builtin>/en.json:"));
}

TEST_CASE("LintPacks: a bad pattern in the words and at the place loading gives") {
  TempDir dir;
  const std::string file = dir.WriteRaw("team.json", R"({"format": "causegate-pack/1", "pack": "team", "version": "1",
  "rules": [{"id": "team.claim.blame", "kind": "claim",
             "pattern": "(blame", "match": ["blame"], "no_match": ["Fine."]}]})");
  LintReport report;
  REQUIRE(LintPacks(file, CompileOptions(), &report).ok());
  REQUIRE(report.problems.size() == 1);
  CHECK(report.problems[0].Message() == file + ":3:14: rule \"team.claim.blame\": pattern: missing ): (blame");
  std::shared_ptr<const RuleSet> set;
  const Status loaded = LoadRuleSet(file, &set);
  REQUIRE_FALSE(loaded.ok());
  CHECK(loaded.message() == report.problems[0].Message());
}

TEST_CASE("LintPacks: a pattern that builds a class once per copy costs every hook call that compiles it") {
  TempDir dir;
  const std::string file = dir.WriteRaw("team.json", R"({"format": "causegate-pack/1", "pack": "team", "version": "1",
  "rules": [
    {"id": "team.claim.span", "kind": "claim", "pattern": "\\bexpected\\b[^.?!]{0,80}\\bbut\\b",
     "match": ["Expected 3 rows but got 2."], "no_match": ["Fine."]},
    {"id": "team.claim.lazy", "kind": "claim", "pattern": "\\bexpected\\b[^.?!]*?\\bbut\\b",
     "match": ["Expected 3 rows but got 2."], "no_match": ["Fine."]},
    {"id": "team.claim.words", "kind": "claim", "pattern": "\\b(?:fails|crashes|hangs|leaks|times out|stalls|dies)\\b",
     "match": ["It hangs."], "no_match": ["Fine."]}
  ]})");
  LintReport report;
  REQUIRE(LintPacks(file, CompileOptions(), &report).ok());
  // The same words, once within RE2's budget, are cheap: only the counted
  // class is flagged, at the pattern, with what to write instead.
  REQUIRE(report.problems.size() == 1);
  CHECK(report.problems[0].rule == "team.claim.span");
  CHECK_THAT(report.problems[0].Message(), Catch::Contains("rule \"team.claim.span\": pattern: compiles to "));
  CHECK_THAT(report.problems[0].Message(), Catch::Contains("RE2 instructions for 31 bytes"));
  CHECK_THAT(report.problems[0].Message(), Catch::EndsWith("use *? or an ASCII class (rules/FORMAT.md, Writing patterns)"));
}

TEST_CASE("LintPacks: a path that is not there is nothing to lint") {
  LintReport report;
  const Status s = LintPacks("/nonexistent/packs", CompileOptions(), &report);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message() == "/nonexistent/packs: no such file or folder");
}

}  // namespace
}  // namespace causegate::rules
