// Rules switched off are not compiled; an entry that matches no rule is a warning.
#include "gate/configured_rules.h"

#include <catch2/catch.hpp>

namespace causegate::gate {
namespace {

TEST_CASE("configured rules: \"off\" drops the rules a glob matches, a typo is named") {
  ConfigFile file;
  REQUIRE(ParseConfigFile("{\"rules\": {\"en.claim.because\": \"off\", \"en.claim.nope-*\": \"warn\"}}", "/u.json",
                          &file)
              .ok());
  const MergedConfig config = MergeConfig({file});
  std::shared_ptr<const rules::RuleSet> set;
  std::vector<std::string> warnings;
  REQUIRE(LoadConfiguredRules(config, "", rules::CompileOptions(), &set, &warnings).ok());
  CHECK(set->FindRule("en.claim.because") < 0);
  CHECK(set->FindRule("en.claim.due-to") >= 0);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "/u.json:1:39: rules: \"en.claim.nope-*\" matches no rule (ignored)");
}

TEST_CASE("configured rules: a pack folder that is not there is an error") {
  MergedConfig config;
  config.packs.value = {"/nowhere/packs"};
  std::shared_ptr<const rules::RuleSet> set;
  std::vector<std::string> warnings;
  CHECK_FALSE(LoadConfiguredRules(config, "", rules::CompileOptions(), &set, &warnings).ok());
}

}  // namespace
}  // namespace causegate::gate
