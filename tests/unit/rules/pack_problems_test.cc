// Every problem of a pack, each where it is (ReadPack), and the problems of
// packs used together (JoinPacks, LoadPacks): an id two packs use names both
// places, in the same words whoever finds it.
#include <catch2/catch.hpp>

#include <string>

#include "rules/embedded.h"
#include "rules/pack.h"
#include "rules/rule_set.h"
#include "unit/evidence/test_util.h"

namespace causegate::rules {
namespace {

using evidence::testing::TempDir;

std::vector<std::string> Messages(const std::vector<PackProblem>& problems) {
  std::vector<std::string> out;
  for (const PackProblem& p : problems) out.push_back(p.Message());
  return out;
}

// Where `"id": "<id>"` is in a built-in pack, as line:column.
std::string BuiltinPlace(const char* file, const std::string& id) {
  const std::string_view text = FindEmbedded(file)->contents;
  const std::size_t at = text.find("\"id\": \"" + id + "\"");
  REQUIRE(at != std::string_view::npos);
  const std::size_t line_start = text.rfind('\n', at) + 1;
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  const int column = static_cast<int>(at - line_start) + 7;  // the id's opening quote, after `"id": `
  return "<builtin>/" + std::string(file) + ":" + std::to_string(line) + ":" + std::to_string(column);
}

const char* kThreeProblems = R"({
  "format": "causegate-pack/1",
  "pack": "team",
  "version": "1",
  "rules": [
    {"id": "team.claim.a", "kind": "cliam", "pattern": "a"},
    {"id": "team.claim.b", "kind": "claim", "patern": "b"},
    {"id": "team.claim.c", "kind": "claim", "pattern": "c",
     "match": "one sentence"},
    {"id": "team.claim.d", "kind": "claim", "pattern": "d"}
  ]
})";

TEST_CASE("ReadPack lists every problem of a pack with its line and column") {
  const PackReading r = ReadPack(kThreeProblems, "team.json", PackCheck::kFull);
  CHECK(Messages(r.problems) == std::vector<std::string>{
                                    "team.json:6:28: rule \"team.claim.a\": unknown kind \"cliam\" (did you mean \"claim\"?)",
                                    "team.json:7:12: rule \"team.claim.b\": missing or empty string field \"pattern\"",
                                    "team.json:7:45: rule \"team.claim.b\": unknown field \"patern\" (did you mean \"pattern\"?)",
                                    "team.json:9:6: rule \"team.claim.c\": match: must be an array of strings",
                                });
  CHECK(r.entries == 4);
  REQUIRE(r.pack.rules.size() == 1);  // only the rule without a problem
  CHECK(r.pack.rules[0].id == "team.claim.d");
  CHECK(r.entry_of == std::vector<std::size_t>{3});
  CHECK(r.pack.rules[0].line == 10);
  CHECK(r.pack.rules[0].column == 12);

  // One line for the hook's stderr: the first problem and how many more.
  Pack pack;
  const Status s = ParsePack(kThreeProblems, "team.json", &pack);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message() == "team.json:6:28: rule \"team.claim.a\": unknown kind \"cliam\" (did you mean \"claim\"?) "
                       "(and 3 more: run causegate rules lint team.json)");
}

TEST_CASE("ReadPack problems of the pack itself, each at its field") {
  struct Case {
    const char* name;
    std::string text;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases = {
      {"invalid JSON, without the parser's prefix", "{\n  \"format\": ,\n}",
       {"p.json:2:13: invalid JSON: syntax error while parsing value - unexpected ','; expected '[', '{', or a literal"}},
      {"every field wrong at once",
       "{\"format\": \"x\", \"pack\": \"\", \"version\": 1, \"lang\": \"fr\", \"langs\": [], \"rules\": {}}",
       {"p.json:1:2: \"format\" must be \"causegate-pack/1\"", "p.json:1:17: missing or empty string field \"pack\"",
        "p.json:1:29: missing or empty string field \"version\"", "p.json:1:43: \"lang\" must be \"en\", \"zh\" or \"any\"",
        "p.json:1:57: unknown field \"langs\" (did you mean \"lang\"?)", "p.json:1:70: \"rules\" must be an array"}},
      {"a key given twice",
       "{\"format\": \"causegate-pack/1\", \"pack\": \"p\", \"version\": \"1\", \"rules\": [\n"
       "  {\"id\": \"p.a\", \"kind\": \"claim\", \"pattern\": \"a\", \"pattern\": \"b\"}]}",
       {"p.json:2:50: rule \"p.a\": field \"pattern\" given twice (only the last one would count)"}},
      {"a duplicate id names the first",
       "{\"format\": \"causegate-pack/1\", \"pack\": \"p\", \"version\": \"1\", \"rules\": [\n"
       "  {\"id\": \"p.a\", \"kind\": \"claim\", \"pattern\": \"a\"},\n"
       "  {\"id\": \"p.a\", \"kind\": \"hedge\", \"pattern\": \"b\"}]}",
       {"p.json:3:10: rule \"p.a\": duplicate id: also at p.json:2:10"}},
      {"a zh example without Chinese points at the example",
       "{\"format\": \"causegate-pack/1\", \"pack\": \"p\", \"version\": \"1\", \"lang\": \"zh\", \"rules\": [\n"
       "  {\"id\": \"p.a\", \"kind\": \"claim\", \"pattern\": \"因为\", \"match\": [\"因为\", \"because\"]}]}",
       {"p.json:2:67: rule \"p.a\": match example \"because\" has no Chinese character, but rules of a zh pack only "
        "run on text that has one"}},
      {"a rule that is not an object, a field of the wrong type",
       "{\"format\": \"causegate-pack/1\", \"pack\": \"p\", \"version\": \"1\", \"rules\": [\n"
       "  7,\n"
       "  {\"id\": \"p.a\", \"kind\": \"feature\", \"pattern\": \"a\", \"note\": 1}]}",
       {"p.json:2:3: a rule must be a JSON object", "p.json:3:10: rule \"p.a\": a feature rule needs a tag",
        "p.json:3:52: rule \"p.a\": note: must be a string"}},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    CHECK(Messages(ReadPack(c.text, "p.json", PackCheck::kFull).problems) == c.expected);
  }
}

TEST_CASE("A trusted pack is read without the second scan until a problem needs it") {
  const std::string good = R"({"format": "causegate-pack/1", "pack": "p", "version": "1", "rules": [
    {"id": "p.a", "kind": "claim", "pattern": "a"}]})";
  const PackReading fast = ReadPack(good, "p.json", PackCheck::kTrusted);
  CHECK(fast.problems.empty());
  CHECK(fast.positions == nullptr);
  CHECK(fast.pack.rules[0].line == 2);
  CHECK(fast.pack.rules[0].column == 12);
  const PackReading bad = ReadPack(std::string(good).replace(good.find("\"claim\""), 7, "\"cause\""), "p.json",
                                   PackCheck::kTrusted);
  REQUIRE(bad.problems.size() == 1);
  CHECK(bad.problems[0].line == 2);
  CHECK(bad.problems[0].column == 19);  // the "kind" key
}

const char* kClash = R"({
  "format": "causegate-pack/1",
  "pack": "team",
  "version": "1",
  "rules": [
    {"id": "en.claim.because", "kind": "claim", "pattern": "\\bzorched\\b"}
  ]
})";

TEST_CASE("An id a built-in rule has is a problem naming both places, for loading and compiling alike") {
  const std::string expected = "team.json:6:12: rule \"en.claim.because\": duplicate id: also in the built-in pack \"en\" "
                               "at " + BuiltinPlace("en.json", "en.claim.because") +
                               " (rename the rule, or name your pack \"en\" to replace that pack)";
  Pack team;
  REQUIRE(ParsePack(kClash, "team.json", &team).ok());
  std::vector<Pack> packs = DefaultPacks();
  const std::size_t builtin_rules = [&] {
    std::size_t n = 0;
    for (const Pack& p : packs) n += p.rules.size();
    return n;
  }();
  CHECK(Messages(JoinPacks({team}, &packs)) == std::vector<std::string>{expected});

  // Compiled without LoadPacks (as a caller with its own packs would), the
  // set refuses it in the same words.
  std::vector<Pack> direct = DefaultPacks();
  direct.push_back(team);
  std::shared_ptr<const RuleSet> set;
  const Status compiled = RuleSet::Compile(direct, &set);
  REQUIRE_FALSE(compiled.ok());
  CHECK(compiled.message() == expected);

  // LoadPacks: the same message, from a pack file and from its folder.
  TempDir dir;
  const std::string file = dir.WriteRaw("team.json", kClash);
  for (const std::string& path : {file, dir.path()}) {
    INFO(path);
    std::vector<Pack> loaded;
    const Status s = LoadPacks(path, &loaded);
    REQUIRE_FALSE(s.ok());
    CHECK(s.message() == file + expected.substr(std::string("team.json").size()));
  }
  // Named like the built-in pack, it replaces it: no clash, and no
  // built-in rule is dropped otherwise.
  std::string replacing = kClash;
  replacing.replace(replacing.find("\"team\""), 6, "\"en\"");
  dir.WriteRaw("team.json", replacing);
  std::vector<Pack> loaded;
  REQUIRE(LoadPacks(dir.path(), &loaded).ok());
  std::size_t rules = 0;
  for (const Pack& p : loaded) rules += p.name == "en" ? 0 : p.rules.size();
  std::size_t en_rules = 0;
  for (const Pack& p : DefaultPacks()) en_rules += p.name == "en" ? p.rules.size() : 0;
  CHECK(rules == builtin_rules - en_rules);
}

TEST_CASE("Two user packs: an id or a pack name used twice names both files") {
  TempDir dir;
  dir.WriteRaw("a.json", R"({"format": "causegate-pack/1", "pack": "team", "version": "1", "rules": [
    {"id": "team.claim.x", "kind": "claim", "pattern": "x"}]})");
  dir.WriteRaw("b.json", R"({"format": "causegate-pack/1", "pack": "ops", "version": "1", "rules": [
    {"id": "team.claim.x", "kind": "claim", "pattern": "y"}]})");
  dir.WriteRaw("c.json", R"({"format": "causegate-pack/1", "pack": "team", "version": "2", "rules": []})");
  std::vector<Pack> packs;
  const Status s = LoadPacks(dir.path(), &packs);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message() == dir.File("c.json") + ":1:32: duplicate pack name \"team\": also at " + dir.File("a.json") +
                           ":1:32 (a pack replaces only a built-in pack of its name) (and 1 more: run causegate rules "
                           "lint " + dir.path() + ")");
  std::vector<Pack> user;
  for (const char* name : {"a.json", "b.json"}) {
    Pack p;
    REQUIRE(LoadPackFile(dir.File(name), &p).ok());
    user.push_back(p);
  }
  std::vector<Pack> joined = DefaultPacks();
  CHECK(Messages(JoinPacks(user, &joined)) ==
        std::vector<std::string>{dir.File("b.json") + ":2:12: rule \"team.claim.x\": duplicate id: also in pack \"team\" at " +
                                 dir.File("a.json") + ":2:12"});
}

TEST_CASE("PackFiles takes a pack file or a folder of them") {
  TempDir dir;
  dir.WriteRaw("b.json", "{}");
  dir.WriteRaw("a.json", "{}");
  dir.WriteRaw("notes.txt", "");
  std::vector<std::string> files;
  REQUIRE(PackFiles(dir.path(), &files).ok());
  CHECK(files == std::vector<std::string>{dir.File("a.json"), dir.File("b.json")});
  files.clear();
  REQUIRE(PackFiles(dir.File("notes.txt"), &files).ok());  // named, so taken
  CHECK(files == std::vector<std::string>{dir.File("notes.txt")});
  const Status missing = PackFiles(dir.File("gone"), &files);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.message() == dir.File("gone") + ": no such file or folder");
}

TEST_CASE("RulePurpose: the description, or a sentence from the kind and tag") {
  Rule r;
  r.kind = RuleKind::kClaim;
  r.description = "Blame words.";
  CHECK(RulePurpose(r) == "Blame words.");
  struct Case {
    RuleKind kind;
    const char* tag;
    const char* expected;
  };
  const Case cases[] = {
      {RuleKind::kClaim, "", "Causal language: a sentence it matches may be a claim that needs quoted evidence."},
      {RuleKind::kHedge, "", "Marks a sentence as a hypothesis, not a claim."},
      {RuleKind::kStep, "probe:gpu", "The debug protocol's step \"probe:gpu\"."},
      {RuleKind::kSymptom, "oom", "The symptom \"oom\", in the prompt, a claim or tool output."},
      {RuleKind::kFeature, "force-claim", "Makes a sentence a claim, whatever the scorer's weights."},
      {RuleKind::kFeature, "plan", "A trait the claim scorer weighs: \"plan\"."},
  };
  for (const Case& c : cases) {
    INFO(RuleKindName(c.kind) << " " << c.tag);
    Rule bare;
    bare.kind = c.kind;
    bare.tag = c.tag;
    CHECK(RulePurpose(bare) == c.expected);
  }
  for (int k = 0; k < kRuleKindCount; ++k) {
    Rule bare;
    bare.kind = static_cast<RuleKind>(k);
    CHECK_FALSE(RulePurpose(bare).empty());
  }
}

}  // namespace
}  // namespace causegate::rules
