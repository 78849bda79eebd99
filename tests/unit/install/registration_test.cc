// causegate's registration in each agent's settings file: added next to
// other hooks without touching them, idempotent, rewritten for another
// binary path, and removed exactly (install then uninstall gives the
// original document back).
#include "install/registration.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace causegate::install {
namespace {

using Json = nlohmann::ordered_json;
constexpr const char* kBinary = "/usr/local/bin/causegate";

EditResult Apply(Agent agent, Edit edit, const std::string& before, bool exists = true, bool backup = true,
                 const char* binary = kBinary) {
  EditResult out;
  const Status s = EditSettings(agent, edit, HookCommand{binary, std::nullopt}, before, exists, backup, &out);
  INFO(s.message());
  REQUIRE(s.ok());
  return out;
}

// A settings file with another tool's hooks on the same events, in the
// agent's own layout, and keys causegate must not touch.
std::string Populated(Agent agent) {
  switch (agent) {
    case Agent::kClaudeCode:
      return R"json({
  "model": "opus",
  "hooks": {
    "Stop": [
      {
        "hooks": [
          { "type": "command", "command": "/home/u/bin/notify", "args": ["done"] }
        ]
      }
    ],
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "audit.sh" } ] }
    ]
  },
  "permissions": { "allow": ["Bash(ls:*)"] }
}
)json";
    case Agent::kCodex:
      return R"json({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}]}})json";
    case Agent::kGemini:
      return R"json({"theme": "Default", "hooks": {"AfterAgent": [{"matcher": "*", "hooks": [{"type": "command", "command": "log.sh", "name": "log"}]}]}})json";
    case Agent::kCursor:
      return R"json({"version": 1, "hooks": {"stop": [{"command": "./hooks/audit.sh"}], "afterFileEdit": [{"command": "./hooks/format.sh"}]}})json";
    case Agent::kCopilot:
      return R"json({"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": "./notify.sh", "timeoutSec": 10}]}})json";
  }
  return "{}";
}

TEST_CASE("install: every agent's registration, next to other hooks") {
  for (const Agent agent : kAllAgents) {
    INFO(AgentName(agent));
    const std::string before = Populated(agent);
    const EditResult added = Apply(agent, Edit::kAdd, before);
    CHECK(added.added == HookEvents(agent));
    const Json doc = Json::parse(added.after);
    const Json original = Json::parse(before);
    // Everything that was there is still there, in the same order.
    for (auto it = original.begin(); it != original.end(); ++it) {
      if (it.key() == "hooks") continue;
      CHECK(doc[it.key()] == it.value());
    }
    for (auto it = original["hooks"].begin(); it != original["hooks"].end(); ++it) {
      CHECK(doc["hooks"][it.key()].size() >= it.value().size());
      CHECK(doc["hooks"][it.key()][0] == it.value()[0]);
    }
    CHECK(doc.begin().key() == original.begin().key());
    // The hook command names the agent.
    CHECK_THAT(added.after, Catch::Contains(std::string("\"") + AgentName(agent) + "\"") ||
                                Catch::Contains(std::string("hook --agent ") + AgentName(agent)));

    // Idempotent: a second install changes nothing, byte for byte.
    const EditResult again = Apply(agent, Edit::kAdd, added.after);
    CHECK(again.added.empty());
    CHECK(again.updated.empty());
    CHECK(again.after == added.after);

    // Uninstall gives the original document back.
    const EditResult removed = Apply(agent, Edit::kRemove, added.after);
    CHECK(removed.removed == HookEvents(agent));
    CHECK(Json::parse(removed.after) == original);
    CHECK_FALSE(removed.remove_file);
  }
}

TEST_CASE("install: the registration shapes") {
  const Json claude = Json::parse(Apply(Agent::kClaudeCode, Edit::kAdd, "", false).after);
  CHECK(claude["hooks"]["Stop"][0]["hooks"][0] ==
        Json::parse(R"({"type":"command","command":"/usr/local/bin/causegate","args":["hook","--agent","claude-code"],"timeout":30})"));
  CHECK(claude["hooks"]["SubagentStop"] == claude["hooks"]["Stop"]);
  const Json gemini = Json::parse(Apply(Agent::kGemini, Edit::kAdd, "{}").after);
  CHECK(gemini["hooks"]["AfterAgent"][0]["hooks"][0]["timeout"] == 30000);
  const Json cursor = Json::parse(Apply(Agent::kCursor, Edit::kAdd, "", false).after);
  CHECK(cursor.begin().key() == "version");
  CHECK(cursor["hooks"]["stop"][0] == Json::parse(R"({"command":"/usr/local/bin/causegate hook --agent cursor"})"));
  const Json copilot = Json::parse(Apply(Agent::kCopilot, Edit::kAdd, "", false).after);
  CHECK(copilot["hooks"]["postToolUse"][0]["bash"] == "/usr/local/bin/causegate hook --agent copilot");
  const Json spaced = Json::parse(Apply(Agent::kCodex, Edit::kAdd, "{}", true, true, "/opt/my tools/causegate").after);
  CHECK(spaced["hooks"]["Stop"][0]["hooks"][0]["command"] == "'/opt/my tools/causegate' hook --agent codex");
}

TEST_CASE("install: another binary path updates the entry in place") {
  const std::string first = Apply(Agent::kCodex, Edit::kAdd, Populated(Agent::kCodex)).after;
  const EditResult moved = Apply(Agent::kCodex, Edit::kAdd, first, true, true, "/opt/causegate/bin/causegate");
  CHECK(moved.added.empty());
  CHECK(moved.updated == std::vector<std::string>{"Stop"});
  const Json doc = Json::parse(moved.after);
  CHECK(doc["hooks"]["Stop"].size() == 2);
  CHECK(doc["hooks"]["Stop"][1]["hooks"][0]["command"] == "/opt/causegate/bin/causegate hook --agent codex");
  // Uninstall finds the entry whatever binary path registered it.
  CHECK(Json::parse(Apply(Agent::kCodex, Edit::kRemove, moved.after).after) == Json::parse(Populated(Agent::kCodex)));
}

TEST_CASE("install then uninstall: byte-identical when the file uses the dump's own layout") {
  for (const std::string& original :
       {std::string("{}\n"), std::string("{\n  \"model\": \"opus\"\n}\n"),
        std::string("{\n    \"a\": [\n        1,\n        2\n    ],\n    \"b\": \"\u00e9\"\n}"),
        std::string("{\n\t\"a\": true\n}\n")}) {
    INFO(original);
    const std::string added = Apply(Agent::kClaudeCode, Edit::kAdd, original).after;
    CHECK(Apply(Agent::kClaudeCode, Edit::kRemove, added).after == original);
  }
  // Unusual formatting comes back as the same document, not the same bytes.
  const std::string odd = "{ \"model\" :\"opus\",   \"hooks\":{} }";
  const std::string added = Apply(Agent::kClaudeCode, Edit::kAdd, odd).after;
  const std::string removed = Apply(Agent::kClaudeCode, Edit::kRemove, added).after;
  CHECK(removed != odd);
  CHECK(Json::parse(removed) == Json::parse(R"({"model":"opus"})"));
}

TEST_CASE("uninstall: deletes a file only causegate wrote, keeps one that was there before") {
  const std::string created = Apply(Agent::kCursor, Edit::kAdd, "", false, false).after;
  CHECK(Apply(Agent::kCursor, Edit::kRemove, created, true, /*backup=*/false).remove_file);
  const EditResult kept = Apply(Agent::kCursor, Edit::kRemove, created, true, /*backup=*/true);
  CHECK_FALSE(kept.remove_file);
  CHECK(kept.after == "{}\n");
  // Nothing of ours: nothing changes, not even the bytes.
  const EditResult none = Apply(Agent::kCursor, Edit::kRemove, Populated(Agent::kCursor));
  CHECK(none.removed.empty());
  CHECK(none.after == Populated(Agent::kCursor));
}

TEST_CASE("install: entries that only look like causegate's are left alone") {
  const std::string before = R"({"hooks":{"Stop":[{"hooks":[
      {"type":"command","command":"/usr/bin/causegate-report","args":["summary"]},
      {"type":"command","command":"echo causegate hook"},
      {"type":"command","command":"/opt/causegate","args":["hook"]}]}]}})";
  const EditResult removed = Apply(Agent::kClaudeCode, Edit::kRemove, before);
  const Json doc = Json::parse(removed.after);
  REQUIRE(doc["hooks"]["Stop"][0]["hooks"].size() == 2);
  CHECK(doc["hooks"]["Stop"][0]["hooks"][0]["command"] == "/usr/bin/causegate-report");
  CHECK(doc["hooks"]["Stop"][0]["hooks"][1]["command"] == "echo causegate hook");
}

TEST_CASE("install: files it cannot read as settings are errors") {
  const std::vector<std::pair<std::string, const char*>> cases = {
      {"{\"hooks\": ", "line 1, column 11: expected a JSON value"},
      {"// comment\n{}", "line 1, column 1: a comment, and this agent reads the file as strict JSON"},
      {"{\n  \"model\": \"opus\",\n}", "line 2, column 18: a trailing comma"},
      {"[]", "not a JSON object"},
      {R"({"hooks": []})", "\"hooks\" is not an object"},
      {R"({"hooks": {"Stop": {}}})", "is not a list"},
  };
  for (const auto& [text, why] : cases) {
    INFO(text);
    EditResult out;
    CHECK_THAT(EditSettings(Agent::kClaudeCode, Edit::kAdd, HookCommand{kBinary, std::nullopt}, text, true, true, &out).message(),
               Catch::Contains(why));
  }
}

TEST_CASE("install: settings paths per agent and scope") {
  const Places places{"/home/u", "/src/p"};
  CHECK(SettingsPath(Agent::kClaudeCode, Scope::kUser, places) == "/home/u/.claude/settings.json");
  CHECK(SettingsPath(Agent::kClaudeCode, Scope::kProject, places) == "/src/p/.claude/settings.json");
  CHECK(SettingsPath(Agent::kCodex, Scope::kUser, places) == "/home/u/.codex/hooks.json");
  CHECK(SettingsPath(Agent::kGemini, Scope::kProject, places) == "/src/p/.gemini/settings.json");
  CHECK(SettingsPath(Agent::kCursor, Scope::kUser, places) == "/home/u/.cursor/hooks.json");
  CHECK(SettingsPath(Agent::kCopilot, Scope::kProject, places) == "/src/p/.github/hooks/causegate.json");
  CHECK(SettingsPath(Agent::kCopilot, Scope::kUser, places) == "/home/u/.copilot/hooks/causegate.json");
}

}  // namespace
}  // namespace causegate::install
