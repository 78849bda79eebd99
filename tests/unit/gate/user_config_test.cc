// One config file read: every key, and each problem at its line:column.
#include "gate/user_config.h"

#include <catch2/catch.hpp>

namespace causegate::gate {
namespace {

ConfigFile Parsed(const std::string& text) {
  ConfigFile file;
  const Status s = ParseConfigFile(text, "/p/.causegate.json", &file);
  INFO(s.message());
  REQUIRE(s.ok());
  return file;
}

std::string ErrorOf(const std::string& text) {
  ConfigFile file;
  const Status s = ParseConfigFile(text, "/p/.causegate.json", &file);
  REQUIRE_FALSE(s.ok());
  return s.message();
}

TEST_CASE("config file: every key is read") {
  const ConfigFile file = Parsed(
      "{\"rules\": {\"en.claim.past-*\": \"off\", \"en.claim.because\": \"warn\"},\n"
      " \"mode\": \"warn\", \"max_blocks\": 5, \"guess_fix\": \"block\",\n"
      " \"packs\": [\"team\", \"/abs/p.json\"], \"exclude\": [\"**/old/*\"]}");
  REQUIRE(file.values.rules.size() == 2);
  CHECK(file.values.rules[0].pattern == "en.claim.because");  // object keys come sorted
  CHECK(file.values.rules[0].value == RuleSwitch::kWarn);
  CHECK(file.values.rules[0].line == 1);
  CHECK(file.values.rules[1].value == RuleSwitch::kOff);
  CHECK(file.values.mode == GateMode::kWarn);
  CHECK(file.values.max_blocks == 5);
  CHECK(file.values.guess_fix == rules::GuessFixMode::kBlock);
  CHECK(*file.values.packs == std::vector<std::string>{"/p/team", "/abs/p.json"});
  CHECK(*file.values.exclude == std::vector<std::string>{"**/old/*"});
}

TEST_CASE("config file: an empty object sets nothing") {
  const ConfigFile file = Parsed("{}");
  CHECK(file.values.rules.empty());
  CHECK_FALSE(file.values.mode.has_value());
  CHECK_FALSE(file.values.max_blocks.has_value());
}

TEST_CASE("config file: invalid JSON names its line and column") {
  CHECK(ErrorOf("{\n  \"mode\": \"warn\",\n}") == "/p/.causegate.json:3:1: not valid JSON");
}

TEST_CASE("config file: an unknown key and a bad value are errors at their key") {
  CHECK(ErrorOf("{\n  \"mood\": \"warn\"\n}").rfind("/p/.causegate.json:2:3: unknown key \"mood\"", 0) == 0);
  CHECK(ErrorOf("{\"mode\": \"loud\"}").rfind("/p/.causegate.json:1:2: \"mode\" must be", 0) == 0);
  CHECK(ErrorOf("{\"max_blocks\": 101}").find("from 0 to 100") != std::string::npos);
  CHECK(ErrorOf("{\"max_blocks\": \"2\"}").find("whole number") != std::string::npos);
  CHECK(ErrorOf("{\"rules\": {\"x\": \"maybe\"}}").rfind("/p/.causegate.json:1:12: rule \"x\"", 0) == 0);
  CHECK(ErrorOf("{\"packs\": \"team\"}").find("array of strings") != std::string::npos);
  CHECK(ErrorOf("[1]").find("one JSON object") != std::string::npos);
}

TEST_CASE("config file: the resident gate's keys") {
  const ConfigFile file = Parsed("{\"resident\": true, \"resident_idle_seconds\": 5}");
  CHECK(file.values.resident == true);
  CHECK(file.values.resident_idle_seconds == 5);
  CHECK_FALSE(Parsed("{}").values.resident.has_value());
  CHECK(ErrorOf("{\"resident\": \"yes\"}").rfind("/p/.causegate.json:1:2: \"resident\" must be true or false", 0) == 0);
  CHECK(ErrorOf("{\"resident_idle_seconds\": 0}").find("from 1 to 86400") != std::string::npos);
  CHECK(ErrorOf("{\"resident_idle_seconds\": 86401}").find("from 1 to 86400") != std::string::npos);
}

}  // namespace
}  // namespace causegate::gate
