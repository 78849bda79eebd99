// Where config files are found and how they merge: defaults < user < project.
#include "gate/user_config_files.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "unit/evidence/test_util.h"

namespace causegate::gate {
namespace {

namespace fs = std::filesystem;
using evidence::testing::TempDir;

ConfigFile FileWith(const std::string& path, const std::string& text) {
  ConfigFile file;
  REQUIRE(ParseConfigFile(text, path, &file).ok());
  return file;
}

TEST_CASE("config merge: later files win key by key, each value keeps its source") {
  const MergedConfig merged = MergeConfig({FileWith("/u.json", "{\"mode\": \"warn\", \"max_blocks\": 4}"),
                                           FileWith("/p.json", "{\"mode\": \"block\"}")});
  CHECK(merged.mode.value == GateMode::kBlock);
  CHECK(merged.mode.source == "/p.json");
  CHECK(merged.max_blocks.value == 4);
  CHECK(merged.max_blocks.source == "/u.json");
  CHECK(merged.guess_fix.source == "default");
}

TEST_CASE("config merge: the last rule entry that matches an id wins") {
  const MergedConfig merged = MergeConfig({FileWith("/u.json", "{\"rules\": {\"en.claim.*\": \"off\"}}"),
                                           FileWith("/p.json", "{\"rules\": {\"en.claim.because\": \"on\"}}")});
  CHECK(merged.SwitchFor("en.claim.because") == RuleSwitch::kOn);
  CHECK(merged.SwitchFor("en.claim.due-to") == RuleSwitch::kOff);
  CHECK(merged.SwitchFor("zh.claim.yinwei") == RuleSwitch::kOn);
}

TEST_CASE("config files: the project file is found up to the git root, not above it") {
  TempDir dir;
  fs::create_directories(dir.File("outer/repo/.git"));
  fs::create_directories(dir.File("outer/repo/src/deep"));  // Write makes no folders
  dir.Write("outer/.causegate.json", {"{}"});
  CHECK(ProjectConfigPath(dir.File("outer/repo/src/deep")).empty());
  dir.Write("outer/repo/.causegate.json", {"{}"});
  CHECK(ProjectConfigPath(dir.File("outer/repo/src/deep")) == dir.File("outer/repo/.causegate.json"));
  CHECK(ProjectConfigPath("").empty());
}

TEST_CASE("config files: XDG_CONFIG_HOME is honoured; a broken file is left out with its error") {
  TempDir dir;
  const char* old_xdg = std::getenv("XDG_CONFIG_HOME");
  const std::string saved = old_xdg != nullptr ? old_xdg : "";
  setenv("XDG_CONFIG_HOME", dir.File("xdg").c_str(), 1);
  CHECK(UserConfigPath() == dir.File("xdg/causegate/config.json"));
  fs::create_directories(dir.File("xdg/causegate"));
  dir.Write("xdg/causegate/config.json", {"{\"mode\": \"warn\"}"});
  fs::create_directories(dir.File("proj/.git"));
  dir.Write("proj/.causegate.json", {"{\"mode\": "});
  const LoadedConfig loaded = LoadUserConfig(dir.File("proj"));
  REQUIRE(loaded.files.size() == 1);
  CHECK(loaded.files[0].path == dir.File("xdg/causegate/config.json"));
  REQUIRE(loaded.errors.size() == 1);
  CHECK(loaded.errors[0].find(".causegate.json:2:1: not valid JSON") != std::string::npos);
  if (old_xdg != nullptr) {
    setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
  } else {
    unsetenv("XDG_CONFIG_HOME");
  }
}

TEST_CASE("config exclude: globs match the path as found or made absolute") {
  CHECK(ExcludedPath({"scratch/*"}, "scratch/a.jsonl", "/work"));
  CHECK(ExcludedPath({"*/scratch/*"}, "scratch/a.jsonl", "/work"));
  CHECK(ExcludedPath({"/work/old/*"}, "old/deep/a.jsonl", "/work"));
  CHECK_FALSE(ExcludedPath({"scratch/*"}, "main/a.jsonl", "/work"));
  CHECK_FALSE(ExcludedPath({}, "a.jsonl", "/work"));
}

TEST_CASE("config show: values and their sources") {
  const std::string shown = RenderMergedConfig(MergeConfig({FileWith("/p.json", "{\"rules\": {\"en.*\": \"warn\"}}")}));
  CHECK(shown.find("\"from\": \"/p.json:1:12\"") != std::string::npos);
  CHECK(shown.find("\"from\": \"default\"") != std::string::npos);
}

}  // namespace
}  // namespace causegate::gate
