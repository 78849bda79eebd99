// Codex's [hooks.state."K"] tables edited inside a config.toml a person
// wrote: everything else is kept byte for byte, the edit is idempotent,
// removing the table gives the file back, other hooks' tables are only
// moved when asked, and forms that cannot be edited safely are refused.
#include "install/hook_state_toml.h"

#include <catch2/catch.hpp>

namespace causegate::install {
namespace {

constexpr const char* kKey = "/h/.codex/hooks.json:stop:1:0";
constexpr const char* kHash = "sha256:76d931f393b00168aedafe81aa548b2d496d1a3e9bf1398e849d36cefa91b704";

// A config.toml as people write them: comments, other tables, another
// hook's state, a multi-line value holding a '['.
const std::string kConfig =
    "# Codex settings\n"
    "model = \"gpt-5.1-codex\"   # the default\n"
    "notes = \"\"\"\n[hooks.state.\"not a table\"]\n\"\"\"\n"
    "\n"
    "[projects.\"/w\"]\n"
    "trust_level = \"trusted\"\n"
    "\n"
    "[hooks.state.\"/h/.codex/hooks.json:stop:0:0\"]\n"
    "trusted_hash = \"sha256:d1d2\"  # notify-send\n"
    "\n"
    "[model_providers.mock]\n"
    "name = \"mock\"\n";

std::string Edit(const std::string& text, const HookStateEdit& edit) {
  std::string out;
  const Status s = EditHookState(text, edit, &out);
  INFO(s.message());
  REQUIRE(s.ok());
  return out;
}

HookStateEdit Set(const std::string& key, const std::string& hash) {
  HookStateEdit e;
  e.set_hash.emplace_back(key, hash);
  return e;
}

HookStateEdit Remove(const std::string& key) {
  HookStateEdit e;
  e.remove.push_back(key);
  return e;
}

HookState Read(const std::string& text, const std::string& key) {
  HookState state;
  REQUIRE(ReadHookState(text, key, &state).ok());
  return state;
}

TEST_CASE("hook state: added at the end, everything else kept, idempotent") {
  const std::string added = Edit(kConfig, Set(kKey, kHash));
  CHECK(added == kConfig + "\n[hooks.state.\"" + kKey + "\"]\ntrusted_hash = \"" + kHash + "\"\n");
  CHECK(Read(added, kKey).trusted_hash == kHash);
  CHECK(Read(added, "/h/.codex/hooks.json:stop:0:0").trusted_hash == "sha256:d1d2");
  CHECK(Edit(added, Set(kKey, kHash)) == added);
  // The '[' inside the multi-line string is not a table: nothing was found there.
  CHECK_FALSE(Read(kConfig, "not a table").found);
}

TEST_CASE("hook state: removing ours gives the file back; others stay") {
  const std::string added = Edit(kConfig, Set(kKey, kHash));
  CHECK(Edit(added, Remove(kKey)) == kConfig);
  CHECK(Edit(kConfig, Remove(kKey)) == kConfig);  // nothing to remove
  // Into files without a final newline, or empty.
  CHECK(Edit("", Set(kKey, kHash)) ==
        std::string("[hooks.state.\"") + kKey + "\"]\ntrusted_hash = \"" + kHash + "\"\n");
  CHECK(Edit(Edit("", Set(kKey, kHash)), Remove(kKey)).empty());
  CHECK(Edit(Edit("a = 1", Set(kKey, kHash)), Remove(kKey)) == "a = 1\n");
}

TEST_CASE("hook state: a table in the middle goes with its keys and the blank after it") {
  const std::string text = std::string("a = 1\n\n[hooks.state.\"") + kKey +
                           "\"]\ntrusted_hash = \"sha256:old\"\nenabled = true\n\n# about b\n[b]\nc = 2\n";
  CHECK(Edit(text, Remove(kKey)) == "a = 1\n\n# about b\n[b]\nc = 2\n");
}

TEST_CASE("hook state: a new hash replaces the value only, keeping comment and other keys") {
  const std::string text = std::string("[hooks.state.\"") + kKey +
                           "\"]\nenabled = false\ntrusted_hash   =  \"sha256:old\" # mine\n[other]\nx = 1\n";
  const std::string out = Edit(text, Set(kKey, kHash));
  CHECK(out == std::string("[hooks.state.\"") + kKey + "\"]\nenabled = false\ntrusted_hash   =  \"" + kHash +
                   "\" # mine\n[other]\nx = 1\n");
  const HookState state = Read(out, kKey);
  CHECK(state.trusted_hash == kHash);
  CHECK(state.disabled);
  // A table without trusted_hash gets one under its header.
  const std::string bare = std::string("[hooks.state.\"") + kKey + "\"]\nenabled = true\n";
  CHECK(Edit(bare, Set(kKey, kHash)) ==
        std::string("[hooks.state.\"") + kKey + "\"]\ntrusted_hash = \"" + kHash + "\"\nenabled = true\n");
}

TEST_CASE("hook state: renames move a table, never onto one that stays") {
  const std::string text =
      "[hooks.state.\"p:stop:0:0\"]\ntrusted_hash = \"ours\"\n\n"
      "[hooks.state.\"p:stop:1:0\"] # after\ntrusted_hash = \"theirs\"\n";
  HookStateEdit edit;
  edit.remove.push_back("p:stop:0:0");
  edit.rename.emplace_back("p:stop:1:0", "p:stop:0:0");
  CHECK(Edit(text, edit) == "[hooks.state.\"p:stop:0:0\"] # after\ntrusted_hash = \"theirs\"\n");
  HookStateEdit blocked;
  blocked.rename.emplace_back("p:stop:1:0", "p:stop:0:0");
  CHECK(Edit(text, blocked) == text);
}

TEST_CASE("hook state: forms that are not edited are refused") {
  const struct {
    std::string text;
    const char* error;
  } cases[] = {
      {std::string("[hooks.state]\n\"") + kKey + "\".trusted_hash = \"x\"\n", "form causegate does not edit"},
      {std::string("[hooks.state]\n\"") + kKey + "\" = { trusted_hash = \"x\" }\n", "form causegate does not edit"},
      {std::string("[hooks.state.\"") + kKey + "\"]\n[hooks.state.\"" + kKey + "\"]\n", "defined twice"},
      {"hooks = { state = {} }\n", "a table cannot be added"},
      {"[hooks]\nstate = {}\n", "a table cannot be added"},
      {"a = [\n", "unterminated array"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    std::string out;
    CHECK_THAT(EditHookState(c.text, Set(kKey, kHash), &out).message(), Catch::Contains(c.error));
  }
  HookState state;
  CHECK_THAT(ReadHookState(std::string("[hooks.state]\n\"") + kKey + "\" = { trusted_hash = \"x\" }\n", kKey, &state)
                 .message(),
             Catch::Contains("inline table"));
  // Dotted keys are read (doctor), though not edited.
  REQUIRE(ReadHookState(std::string("[hooks]\nstate.\"") + kKey + "\".trusted_hash = \"x\"\n", kKey, &state).ok());
  CHECK(state.trusted_hash == "x");
}

}  // namespace
}  // namespace causegate::install
