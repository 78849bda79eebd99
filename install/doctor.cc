// The checks behind `causegate doctor`. Each agent's line is built from
// its settings file as ListHooks reads it, then one check per reason the
// agent could still skip the hook; a check that finds such a reason clears
// will_run and names the fix. Only what stops the hook makes the exit code
// 1: a daemon a command hook names is optional (the hook judges locally
// without it), so a silent one is a note; for an http hook the daemon is
// the hook, so it is not.
// Tests: tests/unit/install/doctor_test.cc, tests/e2e/doctor_codex.py.
#include "install/doctor.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "install/codex_trust.h"
#include "install/folder_trust.h"
#include "install/hook_state_toml.h"
#include "install/init.h"
#include "install/settings_file.h"
#include "install/toml_scan.h"

namespace causegate::install {
namespace {

std::optional<std::string> ReadIfThere(const std::string& path) {
  SettingsText t;
  if (!ReadSettings(path, &t).ok() || !t.exists) return std::nullopt;
  return t.text;
}

std::string InitFix(Agent agent, Scope scope) {
  return std::string("causegate init --agent ") + AgentName(agent) +
         (scope == Scope::kProject ? " --scope project" : "");
}

void Stop(DoctorLine* line, std::string check, std::string fix) {
  line->checks.push_back(std::move(check));
  line->will_run = false;
  if (line->fix.empty()) line->fix = std::move(fix);
}

// An http hook on causegate's /hook route (examples/claude-settings-http.json).
bool IsDaemonHook(const HookEntry& e) {
  const std::string suffix = "/hook";
  return e.type == "http" && e.url.size() > suffix.size() &&
         e.url.compare(e.url.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A bare name (`init --scope project` registers `causegate`) is looked up
// on PATH as the agent's shell would; "" when no folder on it has one.
std::string OnPath(const std::string& name, const DoctorEnv& env) {
  const std::string dirs = env.Getenv("PATH").value_or("");
  for (std::size_t start = 0; start <= dirs.size();) {
    const std::size_t colon = std::min(dirs.find(':', start), dirs.size());
    const std::string file = (colon == start ? std::string(".") : dirs.substr(start, colon - start)) + "/" + name;
    struct stat st {};
    if (stat(file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(file.c_str(), X_OK) == 0) return file;
    start = colon + 1;
  }
  return "";
}

void CheckBinaries(const std::vector<const HookEntry*>& ours, const DoctorEnv& env, DoctorLine* line) {
  std::vector<std::string> seen;
  for (const HookEntry* e : ours) {
    if (e->type == "http" || std::find(seen.begin(), seen.end(), e->program) != seen.end()) continue;
    seen.push_back(e->program);
    const bool bare = !e->program.empty() && e->program.find('/') == std::string::npos;
    const std::string file = bare ? OnPath(e->program, env) : e->program;
    struct stat st {};
    if (bare && file.empty()) {
      Stop(line, "binary " + e->program + " is not on PATH", "put causegate on PATH, or " + InitFix(line->agent, line->scope));
    } else if (stat(file.c_str(), &st) != 0) {
      Stop(line, "binary " + e->program + " does not exist", InitFix(line->agent, line->scope));
    } else if (!S_ISREG(st.st_mode) || access(file.c_str(), X_OK) != 0) {
      Stop(line, "binary " + e->program + " is not executable", InitFix(line->agent, line->scope));
    } else {
      line->checks.push_back("binary " + e->program + (bare ? " (" + file + ") ok" : " ok"));
    }
  }
}

// Claude Code fills a header's $VAR only when allowedEnvVars lists it;
// otherwise the token goes out empty, the daemon answers 401, and Claude
// Code lets the stop through with only "Stop hook error occurred".
void CheckHeaderVariables(const HookEntry& e, DoctorLine* line) {
  for (const std::string& var : e.header_vars) {
    if (std::find(e.allowed_env_vars.begin(), e.allowed_env_vars.end(), var) != e.allowed_env_vars.end()) continue;
    Stop(line, "the http hook's headers use $" + var + " but its allowedEnvVars does not list it: the daemon gets no token, answers 401, and every stop goes through unjudged",
         "add \"allowedEnvVars\": [\"" + var + "\"] to the hook (examples/claude-settings-http.json)");
  }
}

void CheckDaemons(const std::vector<const HookEntry*>& ours, DoctorEnv& env, DoctorLine* line) {
  for (const HookEntry* e : ours) {
    std::string base;
    const bool http = IsDaemonHook(*e);
    if (http) {
      base = e->url.substr(0, e->url.size() - 5);
    } else {
      const auto flag = std::find(e->words.begin(), e->words.end(), "--server");
      if (flag == e->words.end() || flag + 1 == e->words.end()) continue;
      base = *(flag + 1);
    }
    if (http) CheckHeaderVariables(*e, line);
    const Status health = env.DaemonHealth(base);
    if (health.ok()) {
      line->checks.push_back("daemon " + base + " answers");
    } else if (http) {
      Stop(line, "daemon " + base + " does not answer (" + health.message() + "): every stop goes through unjudged",
           "start it: causegate serve --listen " + base.substr(base.find("//") + 2));
    } else {
      line->checks.push_back("daemon " + base + " does not answer (" + health.message() + "): the hook judges locally");
    }
  }
}

void CheckCodex(const Places& places, const std::vector<const HookEntry*>& ours, DoctorLine* line) {
  const HookEntry* stop = nullptr;
  for (const HookEntry* e : ours) {
    if (e->event == "Stop" && e->type != "http") {
      stop = e;
      break;
    }
  }
  if (stop == nullptr) return;
  const std::string config_path = CodexConfigPath(places);
  const std::string key = CodexTrustKey(line->path, *stop);
  const std::string fix = InitFix(Agent::kCodex, line->scope);
  const std::optional<std::string> config = ReadIfThere(config_path);
  HookState state;
  if (config) {
    if (Status s = ReadHookState(*config, key, &state); !s.ok()) {
      Stop(line, config_path + ": " + s.message(), "fix " + config_path + " by hand");
      return;
    }
  }
  if (!state.found || state.trusted_hash.empty()) {
    Stop(line, "untrusted: no trusted_hash in " + config_path + " (codex exec skips it without a word)", fix);
  } else if (state.trusted_hash != CodexHookHash(*stop)) {
    Stop(line, "modified since trusted: " + config_path + " holds another hash than the hook's", fix);
  } else if (state.disabled) {
    Stop(line, "disabled in " + config_path + " (enabled = false)", "enable it in Codex (/hooks)");
  } else {
    line->checks.push_back("trusted (" + config_path + ")");
  }
  if (line->scope != Scope::kProject) return;
  // A project's hooks load only when Codex trusts the project.
  bool trusted = false;
  for (std::filesystem::path p = places.project; !trusted; p = p.parent_path()) {
    bool found = false;
    std::string level;
    if (config && TomlStringAt(*config, {"projects", p.string(), "trust_level"}, &found, &level).ok() && found) {
      trusted = level == "trusted";
    }
    if (p == p.parent_path()) break;
  }
  if (trusted) {
    line->checks.push_back("project trusted");
  } else {
    Stop(line, "project " + places.project + " is not trusted in Codex: its hooks are not loaded",
         "trust the project in Codex, or add [projects.\"" + places.project + "\"] trust_level = \"trusted\" to " +
             config_path);
  }
}

void CheckGemini(const Places& places, const DoctorEnv& env, DoctorLine* line) {
  const FolderTrust trust = GeminiFolderTrust(
      places.project, env.Getenv("GEMINI_CLI_TRUST_WORKSPACE"), env.Getenv("GEMINI_RESTRICTED_MODE"),
      ReadIfThere(places.home + "/.gemini/settings.json"), ReadIfThere(places.home + "/.gemini/trustedFolders.json"));
  if (trust.trusted) {
    line->checks.push_back(places.project + " is trusted (" + trust.why + ")");
  } else {
    Stop(line, "hooks do not load here: " + places.project + " is not a trusted folder (" + trust.why + ")",
         "trust the folder in Gemini CLI (/permissions), or add \"" + places.project + "\": \"TRUST_FOLDER\" to " +
             places.home + "/.gemini/trustedFolders.json");
  }
}

void CheckCopilot(const Places& places, DoctorLine* line) {
  if (line->scope == Scope::kUser) {
    line->checks.push_back("user hooks run without folder trust");
    return;
  }
  const FolderTrust trust = CopilotFolderTrust(places.project, ReadIfThere(places.home + "/.copilot/config.json"));
  if (trust.trusted) {
    line->checks.push_back("folder trusted (" + trust.why + ")");
  } else {
    Stop(line, "project hooks run only in a trusted folder (" + trust.why + ")",
         "trust the folder when Copilot CLI asks (this and future sessions), or use " +
             InitFix(Agent::kCopilot, Scope::kUser));
  }
}

void CheckClaudeVersion(const std::vector<const HookEntry*>& ours, DoctorEnv& env, DoctorLine* line) {
  const bool exec_form = std::any_of(ours.begin(), ours.end(), [](const HookEntry* e) { return e->exec_form; });
  if (!exec_form) return;
  const std::optional<std::string> version = env.ClaudeVersion();
  const std::string need =
      std::string("exec form (\"args\") needs Claude Code ") + kClaudeExecFormVersion + " or later";
  const std::optional<int> cmp = version ? CompareVersion(*version, kClaudeExecFormVersion) : std::nullopt;
  if (!cmp) {
    line->checks.push_back("claude version unknown (" + std::string(version ? "unreadable" : "not on PATH") + "); " +
                           need);
  } else if (*cmp < 0) {
    Stop(line, "claude " + *version + " is too old: " + need, "update Claude Code (claude update)");
  } else {
    line->checks.push_back("claude " + *version + " runs exec-form hooks");
  }
}

DoctorLine Check(Agent agent, Scope scope, const Places& places, DoctorEnv& env) {
  DoctorLine line;
  line.agent = agent;
  line.scope = scope;
  line.path = SettingsPath(agent, scope, places);
  SettingsText text;
  if (Status s = ReadSettings(line.path, &text); !s.ok()) {
    line.checks.push_back("cannot read: " + s.message());
    line.fix = "fix the file by hand";
    return line;
  }
  std::vector<HookEntry> entries;
  if (Status s = ListHooks(agent, text.text, &entries); !s.ok()) {
    line.registered = true;  // unknown; the agent may well refuse the file
    line.checks.push_back("cannot read: " + s.message());
    line.fix = "fix the file by hand";
    return line;
  }
  std::vector<const HookEntry*> ours;
  std::vector<std::string> events;
  for (const HookEntry& e : entries) {
    if (!e.ours && !IsDaemonHook(e)) continue;
    ours.push_back(&e);
    if (std::find(events.begin(), events.end(), e.event) == events.end()) events.push_back(e.event);
  }
  if (ours.empty()) {
    line.checks.push_back(text.exists ? "causegate is not registered"
                                      : "no settings file: causegate is not registered");
    line.fix = InitFix(agent, scope);
    return line;
  }
  line.registered = true;
  line.will_run = true;
  std::string registered = "registered (";
  for (std::size_t i = 0; i < events.size(); ++i) registered += (i ? ", " : "") + events[i];
  line.checks.push_back(registered + ")");
  for (const std::string& event : HookEvents(agent)) {
    if (std::find(events.begin(), events.end(), event) == events.end()) line.checks.push_back("not on " + event);
  }
  CheckBinaries(ours, env, &line);
  switch (agent) {
    case Agent::kCodex:
      CheckCodex(places, ours, &line);
      break;
    case Agent::kGemini:
      CheckGemini(places, env, &line);
      break;
    case Agent::kCopilot:
      CheckCopilot(places, &line);
      break;
    case Agent::kClaudeCode:
      CheckClaudeVersion(ours, env, &line);
      break;
    case Agent::kCursor:
      break;
  }
  CheckDaemons(ours, env, &line);
  return line;
}

// Whether the project settings file registers causegate (so a line is worth printing).
bool ProjectRegisters(Agent agent, const Places& places) {
  const std::optional<std::string> text = ReadIfThere(SettingsPath(agent, Scope::kProject, places));
  std::vector<HookEntry> entries;
  if (!text || !ListHooks(agent, *text, &entries).ok()) return false;
  return std::any_of(entries.begin(), entries.end(), [](const HookEntry& e) { return e.ours || IsDaemonHook(e); });
}

}  // namespace

std::string DoctorLine::Text() const {
  std::string out = std::string(AgentName(agent)) + (scope == Scope::kProject ? " (project)" : "") + ": " + path + ": ";
  for (std::size_t i = 0; i < checks.size(); ++i) out += (i ? "; " : "") + checks[i];
  if (registered) out += will_run ? " -> will run" : " -> will not run";
  if (!fix.empty()) out += "; fix: " + fix;
  return out;
}

std::vector<DoctorLine> RunDoctor(const Places& places, DoctorEnv& env) {
  std::vector<DoctorLine> lines;
  for (const Agent agent : AgentsInUse(Scope::kUser, places)) lines.push_back(Check(agent, Scope::kUser, places, env));
  if (places.project != places.home) {
    for (const Agent agent : kAllAgents) {
      if (ProjectRegisters(agent, places)) lines.push_back(Check(agent, Scope::kProject, places, env));
    }
  }
  return lines;
}

int DoctorExitCode(const std::vector<DoctorLine>& lines) {
  return std::any_of(lines.begin(), lines.end(), [](const DoctorLine& l) { return l.registered && !l.will_run; }) ? 1
                                                                                                                  : 0;
}

std::optional<int> CompareVersion(const std::string& version, const std::string& minimum) {
  auto parse = [](const std::string& s) -> std::optional<std::vector<int>> {
    int a = 0, b = 0, c = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] < '0' || s[i] > '9') continue;
      if (std::sscanf(s.c_str() + i, "%d.%d.%d", &a, &b, &c) == 3) return std::vector<int>{a, b, c};
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    }
    return std::nullopt;
  };
  const auto v = parse(version);
  const auto m = parse(minimum);
  if (!v || !m) return std::nullopt;
  return *v < *m ? -1 : *v == *m ? 0 : 1;
}

}  // namespace causegate::install
