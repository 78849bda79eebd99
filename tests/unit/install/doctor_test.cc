// `causegate doctor`'s checks on a scratch HOME with a fake environment:
// each agent's line says registered or not and whether it will run, and
// the exit code is 1 exactly when a registered hook will not run.
#include "install/doctor.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "install/codex_trust.h"
#include "install/init.h"
#include "unit/evidence/test_util.h"

namespace causegate::install {
namespace {

class FakeEnv : public DoctorEnv {
 public:
  std::optional<std::string> Getenv(const std::string& name) const override {
    const auto it = vars.find(name);
    return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  std::optional<std::string> ClaudeVersion() override { return claude; }
  Status DaemonHealth(const std::string& base_url) override {
    asked.push_back(base_url);
    return daemon_up ? Status::Ok() : Status::Error("connection refused");
  }
  std::map<std::string, std::string> vars;
  std::optional<std::string> claude;
  bool daemon_up = false;
  std::vector<std::string> asked;
};

void Write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

// An executable stand-in for the causegate binary.
std::string FakeBinary(const evidence::testing::TempDir& dir) {
  const std::string path = dir.WriteRaw("causegate", "#!/bin/sh\n");
  chmod(path.c_str(), 0755);
  return path;
}

void Init(Agent agent, const Places& places, const std::string& binary) {
  AgentChange change;
  REQUIRE(PlanChange(agent, Scope::kUser, Edit::kAdd, HookCommand{binary, std::nullopt}, places, &change).ok());
  REQUIRE(ApplyChange(&change).ok());
}

TEST_CASE("doctor: Codex trusted, untrusted, modified") {
  evidence::testing::TempDir dir;
  const Places places{dir.File("home"), dir.File("work")};
  std::filesystem::create_directories(places.project);
  const std::string binary = FakeBinary(dir);
  Init(Agent::kCodex, places, binary);
  FakeEnv env;
  std::vector<DoctorLine> lines = RunDoctor(places, env);
  REQUIRE(lines.size() == 1);
  INFO(lines[0].Text());
  CHECK(lines[0].registered);
  CHECK(lines[0].will_run);
  CHECK_THAT(lines[0].Text(), Catch::Contains("trusted (") && Catch::Contains("-> will run"));
  CHECK(DoctorExitCode(lines) == 0);

  const std::string config = CodexConfigPath(places);
  SettingsText text;
  REQUIRE(ReadSettings(config, &text).ok());
  Write(config, std::string(text.text).replace(text.text.find("sha256:") + 7, 4, "0000"));
  lines = RunDoctor(places, env);
  INFO(lines[0].Text());
  CHECK_THAT(lines[0].Text(),
             Catch::Contains("modified since trusted") && Catch::Contains("fix: causegate init --agent codex"));
  CHECK(DoctorExitCode(lines) == 1);

  Write(config, "# nothing\n");
  lines = RunDoctor(places, env);
  CHECK_THAT(lines[0].Text(), Catch::Contains("untrusted"));
  CHECK(DoctorExitCode(lines) == 1);
}

TEST_CASE("doctor: binary missing, agent not registered, daemon named by --server") {
  evidence::testing::TempDir dir;
  const Places places{dir.File("home"), dir.File("work")};
  std::filesystem::create_directories(places.project);
  std::filesystem::create_directories(places.home + "/.cursor");
  Init(Agent::kClaudeCode, places, dir.File("gone/causegate"));
  FakeEnv env;
  env.claude = "2.1.197 (Claude Code)";
  std::vector<DoctorLine> lines = RunDoctor(places, env);
  REQUIRE(lines.size() == 2);
  CHECK_THAT(lines[0].Text(), Catch::Contains("does not exist") && Catch::Contains("will not run") &&
                                  Catch::Contains("claude 2.1.197 (Claude Code) runs exec-form hooks"));
  CHECK(lines[1].agent == Agent::kCursor);
  CHECK_FALSE(lines[1].registered);
  CHECK_THAT(lines[1].Text(), Catch::Contains("not registered; fix: causegate init --agent cursor"));
  CHECK(DoctorExitCode(lines) == 1);

  // A command hook with --server: a silent daemon is a note, not a failure.
  const std::string binary = FakeBinary(dir);
  Write(places.home + "/.claude/settings.json", R"({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": ")" +
                                                    binary +
                                                    R"(", "args": ["hook", "--server", "http://127.0.0.1:9"]}]}]}})");
  env.claude = "2.1.100 (Claude Code)";
  lines = RunDoctor(places, env);
  INFO(lines[0].Text());
  CHECK_THAT(lines[0].Text(), Catch::Contains("is too old") && Catch::Contains("not on SubagentStop") &&
                                  Catch::Contains("daemon http://127.0.0.1:9 does not answer"));
  CHECK(env.asked == std::vector<std::string>{"http://127.0.0.1:9"});
  env.claude = std::nullopt;
  lines = RunDoctor(places, env);
  CHECK_THAT(lines[0].Text(), Catch::Contains("claude version unknown") && Catch::Contains("-> will run"));
}

TEST_CASE("doctor: an http hook whose daemon is down will not run") {
  evidence::testing::TempDir dir;
  const Places places{dir.File("home"), dir.File("work")};
  std::filesystem::create_directories(places.project);
  Write(places.home + "/.claude/settings.json",
        R"({"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:8787/hook"}]}]}})");
  FakeEnv env;
  std::vector<DoctorLine> lines = RunDoctor(places, env);
  REQUIRE(lines.size() == 1);
  CHECK_THAT(lines[0].Text(), Catch::Contains("daemon http://127.0.0.1:8787 does not answer") &&
                                  Catch::Contains("causegate serve --listen 127.0.0.1:8787"));
  CHECK(DoctorExitCode(lines) == 1);
  env.daemon_up = true;
  CHECK(DoctorExitCode(RunDoctor(places, env)) == 0);
}

TEST_CASE("doctor: an http hook whose token variable is not in allowedEnvVars will not run") {
  evidence::testing::TempDir dir;
  const Places places{dir.File("home"), dir.File("work")};
  std::filesystem::create_directories(places.project);
  const std::string hook =
      R"({"type": "http", "url": "http://127.0.0.1:8787/hook", "headers": {"Authorization": "Bearer ${CAUSEGATE_TOKEN}"})";
  FakeEnv env;
  env.daemon_up = true;
  Write(places.home + "/.claude/settings.json", R"({"hooks": {"Stop": [{"hooks": [)" + hook + "}]}]}}");
  std::vector<DoctorLine> lines = RunDoctor(places, env);
  REQUIRE(lines.size() == 1);
  CHECK_THAT(lines[0].Text(), Catch::Contains("$CAUSEGATE_TOKEN but its allowedEnvVars does not list it") &&
                                  Catch::Contains(R"("allowedEnvVars": ["CAUSEGATE_TOKEN"])"));
  CHECK(DoctorExitCode(lines) == 1);
  // examples/claude-settings-http.json's form, $VAR unbraced, is allowed.
  Write(places.home + "/.claude/settings.json",
        R"({"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:8787/hook", )"
        R"("headers": {"Authorization": "Bearer $CAUSEGATE_TOKEN"}, "allowedEnvVars": ["CAUSEGATE_TOKEN"]}]}]}})");
  CHECK(DoctorExitCode(RunDoctor(places, env)) == 0);
}

TEST_CASE("doctor: Gemini CLI in an untrusted folder, Copilot project hooks") {
  evidence::testing::TempDir dir;
  const Places places{dir.File("home"), dir.File("work")};
  std::filesystem::create_directories(places.project);
  const std::string binary = FakeBinary(dir);
  Init(Agent::kGemini, places, binary);
  FakeEnv env;
  std::vector<DoctorLine> lines = RunDoctor(places, env);
  REQUIRE(lines.size() == 1);
  CHECK_THAT(lines[0].Text(), Catch::Contains("is not a trusted folder") && Catch::Contains("TRUST_FOLDER"));
  CHECK(DoctorExitCode(lines) == 1);
  Write(places.home + "/.gemini/trustedFolders.json", "{\"" + places.project + "\": \"TRUST_FOLDER\"}");
  CHECK(DoctorExitCode(RunDoctor(places, env)) == 0);

  AgentChange change;
  REQUIRE(PlanChange(Agent::kCopilot, Scope::kProject, Edit::kAdd, HookCommand{binary, std::nullopt}, places, &change).ok());
  REQUIRE(ApplyChange(&change).ok());
  lines = RunDoctor(places, env);
  REQUIRE(lines.size() == 2);
  CHECK(lines[1].scope == Scope::kProject);
  CHECK_THAT(lines[1].Text(), Catch::Contains("copilot (project)") && Catch::Contains("trusted folder"));
  CHECK(DoctorExitCode(lines) == 1);
  Write(places.home + "/.copilot/config.json", "{\"trusted_folders\": [\"" + places.project + "\"]}");
  CHECK(DoctorExitCode(RunDoctor(places, env)) == 0);
}

TEST_CASE("doctor: versions compare by their numbers") {
  CHECK(CompareVersion("2.1.197 (Claude Code)", "2.1.139") == 1);
  CHECK(CompareVersion("v2.1.139", "2.1.139") == 0);
  CHECK(CompareVersion("1.0.9", "2.1.139") == -1);
  CHECK_FALSE(CompareVersion("unknown", "2.1.139").has_value());
}

}  // namespace
}  // namespace causegate::install
