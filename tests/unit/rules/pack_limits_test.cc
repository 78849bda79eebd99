// The bound on one rule pack file (kMaxPackBytes in rules/pack.cc, four
// times limits::kMaxHookInputBytes), at and past it. The rule count and the
// per-pattern RE2 budget are CompileOptions, tested in rule_set_test.cc.
#include <catch2/catch.hpp>

#include <string>

#include "evidence/limits.h"
#include "rules/pack.h"

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

}  // namespace
}  // namespace causegate::rules
