#include "rules/pack.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "rules/embedded.h"

namespace causegate::rules {
namespace {

const char* kGood = R"({
  "format": "causegate-pack/1",
  "pack": "team",
  "version": "1",
  "rules": [
    {"id": "team.claim.blame", "kind": "claim", "pattern": "blame", "match": ["blame it"], "no_match": ["fine"]},
    {"id": "team.hedge.guess", "kind": "hedge", "pattern": "guess"}
  ]
})";

TEST_CASE("ParsePack reads fields and the line of each rule") {
  Pack pack;
  REQUIRE(ParsePack(kGood, "team.json", &pack).ok());
  CHECK(pack.name == "team");
  REQUIRE(pack.rules.size() == 2);
  CHECK(pack.rules[0].kind == RuleKind::kClaim);
  CHECK(pack.rules[0].line == 6);
  CHECK(pack.rules[1].line == 7);
  CHECK(pack.rules[0].must_match == std::vector<std::string>{"blame it"});
  CHECK(pack.rules[1].file == "team.json");
}

TEST_CASE("ParsePack errors name the file, the line, the column and the rule") {
  struct Case {
    const char* name;
    std::string text;
    const char* expected;  // substring of the message
  };
  const std::string head = R"({"format":"causegate-pack/1","pack":"p","version":"1","rules":[)";
  const std::vector<Case> cases = {
      {"invalid JSON", "{\n\"format\": \n", "p.json:3:1: invalid JSON"},
      {"not an object", "[]", "p.json:1:1: a pack must be a JSON object"},
      {"wrong format", R"({"format":"x","pack":"p","version":"1","rules":[]})", "\"format\" must be"},
      {"no rules", R"({"format":"causegate-pack/1","pack":"p","version":"1"})", "\"rules\" must be an array"},
      {"unknown kind", head + R"({"id":"p.a","kind":"cause","pattern":"x"}]})", "rule \"p.a\": unknown kind \"cause\""},
      {"unknown field", head + R"({"id":"p.a","kind":"claim","pattern":"x","patern":"y"}]})", "unknown field \"patern\""},
      {"missing pattern", head + R"({"id":"p.a","kind":"claim"}]})", "missing or empty string field \"pattern\""},
      {"duplicate id", head + R"({"id":"p.a","kind":"claim","pattern":"x"},{"id":"p.a","kind":"hedge","pattern":"y"}]})",
       "rule \"p.a\": duplicate id"},
      {"examples not strings", head + R"({"id":"p.a","kind":"claim","pattern":"x","match":[1]}]})",
       "match: must be an array of strings"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    Pack pack;
    const Status s = ParsePack(c.text, "p.json", &pack);
    REQUIRE_FALSE(s.ok());
    CHECK_THAT(s.message(), Catch::Contains(c.expected));
  }
}

TEST_CASE("The default packs are compiled in and parse") {
  const std::vector<Pack> packs = DefaultPacks();
  REQUIRE(packs.size() >= 2);
  std::vector<std::string> names;
  for (const Pack& p : packs) {
    names.push_back(p.name);
    CHECK_FALSE(p.rules.empty());
  }
  CHECK(std::find(names.begin(), names.end(), "en") != names.end());
  CHECK(std::find(names.begin(), names.end(), "zh") != names.end());
}

TEST_CASE("LoadPacks adds packs from a folder and replaces a default of the same name") {
  const auto dir = std::filesystem::temp_directory_path() / "causegate_pack_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "team.json") << kGood;
  std::ofstream(dir / "en.json") << R"({"format":"causegate-pack/1","pack":"en","version":"mine","rules":[]})";
  std::vector<Pack> packs;
  REQUIRE(LoadPacks(dir.string(), &packs).ok());
  bool saw_team = false;
  for (const Pack& p : packs) {
    if (p.name == "en") CHECK(p.version == "mine");
    saw_team |= p.name == "team";
  }
  CHECK(saw_team);

  std::ofstream(dir / "broken.json") << "{";
  const Status s = LoadPacks(dir.string(), &packs);
  CHECK_FALSE(s.ok());
  CHECK_THAT(s.message(), Catch::Contains("broken.json:1:2: invalid JSON"));
  CHECK_FALSE(LoadPacks((dir / "missing").string(), &packs).ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace causegate::rules

namespace causegate::rules {
namespace {

// The packs compiled in are read by simdjson at every hook call and by
// nlohmann when linted: both readings must build the same pack.
TEST_CASE("Packs: the trusted reading of a built-in pack equals the full one") {
  int packs = 0;
  for (std::size_t i = 0; i < embedded::kFileCount; ++i) {
    const EmbeddedFile& f = embedded::kFiles[i];
    if (f.name.size() < 5 || f.name.substr(f.name.size() - 5) != ".json") continue;
    INFO(f.name);
    const std::string file = std::string(kBuiltinPrefix) + std::string(f.name);
    const PackReading fast = ReadPack(f.contents, file, PackCheck::kTrusted);
    const PackReading full = ReadPack(f.contents, file, PackCheck::kFull);
    REQUIRE(fast.problems.empty());
    REQUIRE(full.problems.empty());
    CHECK(fast.positions == nullptr);  // the fast reading scanned no positions
    CHECK(fast.entries == full.entries);
    CHECK(fast.entry_of == full.entry_of);
    CHECK(fast.pack.name == full.pack.name);
    CHECK(fast.pack.version == full.pack.version);
    CHECK(fast.pack.lang == full.pack.lang);
    CHECK(fast.pack.description == full.pack.description);
    CHECK(fast.pack.file == full.pack.file);
    REQUIRE(fast.pack.rules.size() == full.pack.rules.size());
    for (std::size_t k = 0; k < fast.pack.rules.size(); ++k) {
      const Rule& a = fast.pack.rules[k];
      const Rule& b = full.pack.rules[k];
      INFO(b.id);
      CHECK(a.id == b.id);
      CHECK(a.kind == b.kind);
      CHECK(a.pattern == b.pattern);
      CHECK(a.description == b.description);
      CHECK(a.note == b.note);
      CHECK(a.tag == b.tag);
      CHECK(a.must_match == b.must_match);
      CHECK(a.must_not_match == b.must_not_match);
      CHECK(a.pack == b.pack);
      CHECK(a.file == b.file);
      CHECK(a.line == b.line);
      CHECK(a.column == b.column);
    }
    ++packs;
  }
  CHECK(packs >= 4);
}

// Anything that is not a clean pack is read the slow way, which names it.
TEST_CASE("Packs: a trusted pack with a problem is still reported where it is") {
  const std::string text =
      "{\n \"format\": \"causegate-pack/1\", \"pack\": \"t\", \"version\": \"1\",\n"
      " \"rules\": [\n  {\"id\": \"t.a\", \"kind\": \"claim\", \"pattern\": \"x\"},\n"
      "  {\"id\": \"t.b\", \"kind\": \"clam\", \"pattern\": \"y\"},\n"
      "  {\"id\": \"t.c\", \"kind\": \"claim\", \"pattern\": \"z\", \"pattern\": \"w\"}\n ]\n}\n";
  const PackReading r = ReadPack(text, "t.json", PackCheck::kTrusted);
  REQUIRE_FALSE(r.problems.empty());
  CHECK(r.problems.front().rule == "t.b");
  CHECK(r.problems.front().line == 5);
  CHECK(r.problems.front().what.find("unknown kind") != std::string::npos);
  // The rules without a problem still load, as before.
  CHECK(r.pack.rules.size() == 2);
}

}  // namespace
}  // namespace causegate::rules
