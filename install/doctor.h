// `causegate doctor`, as a library: for each agent in use (the same
// detection as init: its settings folder exists under HOME), and for each
// project settings file in the working folder that registers causegate,
// whether causegate is registered and whether the agent will really run
// it: the agent's own trust (Codex's trusted_hash, Gemini CLI's trusted
// folders, Copilot CLI's project folder trust, Claude Code's version for
// exec-form hooks), the registered binary, and a daemon the hook names.
// Tests: tests/unit/install/doctor_test.cc, tests/e2e/doctor_codex.py.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "evidence/status.h"
#include "install/registration.h"

namespace causegate::install {

// What the checks read besides files, behind an interface so tests fake it.
class DoctorEnv {
 public:
  virtual ~DoctorEnv() = default;
  virtual std::optional<std::string> Getenv(const std::string& name) const = 0;
  // The first line `claude --version` prints; nullopt when claude is not on
  // PATH or does not answer.
  virtual std::optional<std::string> ClaudeVersion() = 0;
  // GET <base_url>/healthz with a short timeout: ok when it answers 200.
  virtual Status DaemonHealth(const std::string& base_url) = 0;
};

// Exec-form command hooks ("args") need this Claude Code or later.
inline constexpr const char* kClaudeExecFormVersion = "2.1.139";

struct DoctorLine {
  Agent agent = Agent::kClaudeCode;
  Scope scope = Scope::kUser;
  std::string path;                 // the settings file
  bool registered = false;          // causegate's hook is in it
  bool will_run = false;            // registered and nothing found that stops the agent running it
  std::vector<std::string> checks;  // what was found, in order
  std::string fix;                  // how to fix what stops it ("" when nothing does)

  // "codex: PATH: registered (Stop); binary ... ok; trusted (...) -> will run".
  std::string Text() const;
};

// One line per agent and scope checked, in kAllAgents order, user scope
// first. Never fails: what cannot be read is a check that says so.
std::vector<DoctorLine> RunDoctor(const Places& places, DoctorEnv& env);

// 1 when a registered hook will not run, else 0.
int DoctorExitCode(const std::vector<DoctorLine>& lines);

// "2.1.197 (Claude Code)" against "2.1.139": -1, 0 or 1; nullopt when
// version holds no X.Y.Z.
std::optional<int> CompareVersion(const std::string& version, const std::string& minimum);

}  // namespace causegate::install
