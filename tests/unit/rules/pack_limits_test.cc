// The bound on one rule pack file (kMaxPackBytes in rules/pack.cc, four
// times limits::kMaxHookInputBytes), at and past it. The rule count and the
// per-pattern RE2 budget are CompileOptions, tested in rule_set_test.cc.
#include <catch2/catch.hpp>

#include <string>

#include "evidence/limits.h"
#include "rules/pack.h"
#include "unit/evidence/test_util.h"

namespace causegate::rules {
namespace {

TEST_CASE("ParsePack reads a pack at the size limit and refuses one byte more") {
  const std::size_t max_pack_bytes = 4 * limits::kMaxHookInputBytes;
  const std::string pack_text = R"({"format": "causegate-pack/1", "pack": "team", "version": "1", "rules": [
    {"id": "team.claim.blame", "kind": "claim", "pattern": "blame", "match": ["blame it"], "no_match": ["fine"]}]})";
  // Trailing white space is valid JSON, so the size alone decides.
  const std::string at = pack_text + std::string(max_pack_bytes - pack_text.size(), ' ');
  Pack pack;
  const Status read = ParsePack(at, "team.json", &pack);
  INFO(read.message());
  REQUIRE(read.ok());
  CHECK(pack.rules.size() == 1);
  CHECK(ParsePack(at + " ", "team.json", &pack).message() ==
        "team.json: pack is larger than " + std::to_string(max_pack_bytes) + " bytes");
}

// ReadPackText reads by chunks: the whole file, however its size falls
// against them, and just enough past the limit for ParsePack to refuse it.
TEST_CASE("LoadPackFile reads a pack file at the size limit whole and refuses one byte more") {
  const std::size_t max_pack_bytes = 4 * limits::kMaxHookInputBytes;
  const std::string pack_text = R"({"format": "causegate-pack/1", "pack": "team", "version": "1", "rules": [
    {"id": "team.claim.blame", "kind": "claim", "pattern": "blame", "match": ["blame it"], "no_match": ["fine"]}]})";
  evidence::testing::TempDir dir;
  const std::string at = dir.WriteRaw("at.json", pack_text + std::string(max_pack_bytes - pack_text.size(), ' '));
  std::string text;
  REQUIRE(ReadPackText(at, &text).ok());
  CHECK(text.size() == max_pack_bytes);
  Pack pack;
  CHECK(LoadPackFile(at, &pack).ok());
  const std::string over =
      dir.WriteRaw("over.json", pack_text + std::string(max_pack_bytes + 1 - pack_text.size(), ' '));
  CHECK(LoadPackFile(over, &pack).message() ==
        over + ": pack is larger than " + std::to_string(max_pack_bytes) + " bytes");
  const std::string small = dir.WriteRaw("small.json", pack_text);
  REQUIRE(ReadPackText(small, &text).ok());
  CHECK(text == pack_text);
}

}  // namespace
}  // namespace causegate::rules
