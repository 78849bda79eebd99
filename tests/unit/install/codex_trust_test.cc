// Codex's hook trust: the hash (a vector computed by hand with sha256sum,
// equal to what `codex app-server` hooks/list reported as currentHash on
// Codex 0.171.0), the key of the hook's place, and config.toml's edit as
// init plans it: recorded, idempotent, updated for another binary, removed
// on uninstall leaving other hooks' trust alone (moved when their place
// shifts).
#include "install/codex_trust.h"

#include <catch2/catch.hpp>

#include "install/hook_state_toml.h"

namespace causegate::install {
namespace {

constexpr const char* kHooksJson = "/h/.codex/hooks.json";
constexpr const char* kConfigPath = "/h/.codex/config.toml";

// printf '%s' '{"event_name":"stop","hooks":[{"async":false,"command":"/opt/cg/bin/causegate hook --agent codex",
//   "timeout":30,"type":"command"}]}' | sha256sum
constexpr const char* kOursHash = "sha256:76d931f393b00168aedafe81aa548b2d496d1a3e9bf1398e849d36cefa91b704";
// The same for {"command":"notify-send done"} with Codex's default timeout (600).
constexpr const char* kNotifyHash = "sha256:d1d295b38d967e289cc4914d834db666b5cb929f10cef3245da7bd0d9c13a1ab";

const std::string kOtherHooks =
    R"({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}})";
const std::string kConfig =
    "# mine\nmodel = \"o3\"\n\n[hooks.state.\"/h/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"" +
    std::string(kNotifyHash) + "\"\n";

std::string Registered(const std::string& before, const char* binary = "/opt/cg/bin/causegate",
                       Edit edit = Edit::kAdd) {
  EditResult r;
  REQUIRE(EditSettings(Agent::kCodex, edit, HookCommand{binary, std::nullopt}, before, true, true, &r).ok());
  return r.remove_file ? "" : r.after;
}

TrustChange Plan(const std::string& hooks_before, const std::string& hooks_after, const std::string& config,
                 bool exists = true, bool backup = true) {
  SettingsText text;
  text.exists = exists;
  text.has_backup = backup;
  text.text = config;
  TrustChange out;
  const Status s = PlanCodexTrust(kHooksJson, hooks_before, hooks_after, kConfigPath, text, &out);
  INFO(s.message());
  REQUIRE(s.ok());
  return out;
}

std::string TrustedHash(const std::string& config, const std::string& key) {
  HookState state;
  REQUIRE(ReadHookState(config, key, &state).ok());
  return state.trusted_hash;
}

TEST_CASE("codex trust: CODEX_HOME moves the hooks file and config.toml as it moves Codex's") {
  const Places plain{"/h", "/w"};
  CHECK(SettingsPath(Agent::kCodex, Scope::kUser, plain) == "/h/.codex/hooks.json");
  CHECK(CodexConfigPath(plain) == "/h/.codex/config.toml");
  const Places moved{"/h", "/w", "/srv/codex"};
  CHECK(SettingsPath(Agent::kCodex, Scope::kUser, moved) == "/srv/codex/hooks.json");
  CHECK(CodexConfigPath(moved) == "/srv/codex/config.toml");
  // A project's own .codex folder is the project's, whatever CODEX_HOME says.
  CHECK(SettingsPath(Agent::kCodex, Scope::kProject, moved) == "/w/.codex/hooks.json");
}

TEST_CASE("codex trust: the hash of a hook definition") {
  CHECK(CodexHookHash("/opt/cg/bin/causegate hook --agent codex", 30, false) == kOursHash);
  CHECK(CodexHookHash("notify-send done", kCodexDefaultTimeout, false) == kNotifyHash);
  HookEntry e;
  e.command = "notify-send done";
  CHECK(CodexHookHash(e) == kNotifyHash);
  e.group = 2;
  e.index = 1;
  CHECK(CodexTrustKey("/h//.codex/./hooks.json", e) == "/h/.codex/hooks.json:stop:2:1");
}

TEST_CASE("codex trust: init records ours after the other hook, keeps the rest, is idempotent") {
  const std::string hooks = Registered(kOtherHooks);
  const TrustChange t = Plan(kOtherHooks, hooks, kConfig);
  CHECK(t.kind == TrustChange::Kind::kRecorded);
  CHECK(t.key == "/h/.codex/hooks.json:stop:1:0");
  CHECK(t.after.compare(0, kConfig.size(), kConfig) == 0);
  CHECK(TrustedHash(t.after, t.key) == kOursHash);
  CHECK(TrustedHash(t.after, "/h/.codex/hooks.json:stop:0:0") == kNotifyHash);
  const TrustChange again = Plan(hooks, hooks, t.after);
  CHECK(again.kind == TrustChange::Kind::kUpToDate);
  CHECK_FALSE(again.changed());
}

TEST_CASE("codex trust: another binary path updates the hash in place") {
  const std::string hooks = Registered(kOtherHooks);
  const std::string config = Plan(kOtherHooks, hooks, kConfig).after;
  const std::string moved = Registered(hooks, "/usr/local/bin/causegate");
  const TrustChange t = Plan(hooks, moved, config);
  CHECK(t.kind == TrustChange::Kind::kUpdated);
  CHECK(TrustedHash(t.after, "/h/.codex/hooks.json:stop:1:0") ==
        CodexHookHash("/usr/local/bin/causegate hook --agent codex", 30, false));
  CHECK(t.after.size() == config.size());
}

TEST_CASE("codex trust: uninstall removes only ours and gives config.toml back") {
  const std::string hooks = Registered(kOtherHooks);
  const std::string config = Plan(kOtherHooks, hooks, kConfig).after;
  const TrustChange t = Plan(hooks, Registered(hooks, "/opt/cg/bin/causegate", Edit::kRemove), config);
  CHECK(t.kind == TrustChange::Kind::kRemoved);
  CHECK(t.after == kConfig);
  CHECK_FALSE(t.remove_file);
}

TEST_CASE("codex trust: a file causegate created is deleted on uninstall") {
  const std::string hooks = Registered("");
  const TrustChange t = Plan("", hooks, "", /*exists=*/false, /*backup=*/false);
  CHECK(t.kind == TrustChange::Kind::kRecorded);
  CHECK(t.key == "/h/.codex/hooks.json:stop:0:0");
  const TrustChange gone = Plan(hooks, "", t.after, /*exists=*/true, /*backup=*/false);
  CHECK(gone.kind == TrustChange::Kind::kRemoved);
  CHECK(gone.remove_file);
}

TEST_CASE("codex trust: a hook after ours takes its trust to its new place on uninstall") {
  // The user added a hook after causegate, and trusted it in Codex.
  const std::string hooks =
      R"({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/opt/cg/bin/causegate hook --agent codex", "timeout": 30}]}, {"hooks": [{"type": "command", "command": "notify-send done"}]}]}})";
  const std::string config = std::string("[hooks.state.\"/h/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"") +
                             kOursHash + "\"\n\n[hooks.state.\"/h/.codex/hooks.json:stop:1:0\"]\ntrusted_hash = \"" +
                             kNotifyHash + "\"\n";
  const TrustChange t = Plan(hooks, Registered(hooks, "/opt/cg/bin/causegate", Edit::kRemove), config);
  CHECK(t.kind == TrustChange::Kind::kRemoved);
  CHECK(t.moved == 1);
  CHECK(t.after ==
        std::string("[hooks.state.\"/h/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"") + kNotifyHash + "\"\n");
}

}  // namespace
}  // namespace causegate::install
