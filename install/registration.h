// causegate's hook registration in each agent's settings file: where the
// file is, which events causegate is registered on, and the edit that adds
// or removes exactly those entries while leaving everything else as it was
// (other hooks, other keys, key order). The shapes are those of
// gate/HOOKS.md; the registration commands carry `hook --agent NAME`.
//
// An entry is causegate's when its command is the causegate binary (any
// path whose file name starts with "causegate") followed by "hook": in exec
// form command + args ["hook", ...], in shell form the first two words of
// the command string. That mark is what --uninstall removes, so an entry
// written by an older install, or with another --binary, is found too.
// Tests: tests/unit/install/registration_test.cc.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

#include "evidence/status.h"

namespace causegate::install {

enum class Agent { kClaudeCode, kCodex, kGemini, kCursor, kCopilot };
inline constexpr Agent kAllAgents[] = {Agent::kClaudeCode, Agent::kCodex, Agent::kGemini, Agent::kCursor,
                                       Agent::kCopilot};

const char* AgentName(Agent agent);  // as `causegate hook --agent` spells it
bool ParseAgent(std::string_view name, Agent* agent);

enum class Scope {
  kUser,     // the user's own settings (~/.claude, ~/.codex, ...)
  kProject,  // the project's settings, under the project folder
};

struct Places {
  // A constructor, not an aggregate: most callers name only the first two.
  Places(std::string home_folder = {}, std::string project_folder = {}, std::string codex_home_folder = {})
      : home(std::move(home_folder)), project(std::move(project_folder)), codex_home(std::move(codex_home_folder)) {}
  std::string home;     // $HOME
  std::string project;  // the project folder (the working folder)
  // $CODEX_HOME, which Codex reads instead of ~/.codex when set ("": unset).
  std::string codex_home;
};

// Places from the environment: HOME (or home_override when not empty),
// CODEX_HOME, and the working folder.
Places PlacesFromEnvironment(const std::string& home_override);

// The git root of folder: the nearest folder from it upwards that holds
// .git (a folder, or a file in a worktree); folder itself when none does.
// Project settings go there, where the agents look for them.
std::string ProjectRoot(const std::string& folder);

// The settings file that holds the agent's hooks for scope.
std::string SettingsPath(Agent agent, Scope scope, const Places& places);
// The folder whose presence shows the agent is in use (init with no --agent).
std::string AgentFolder(Agent agent, Scope scope, const Places& places);
// The hook events causegate registers for the agent, in the order written.
std::vector<std::string> HookEvents(Agent agent);

enum class Edit { kAdd, kRemove };

struct EditResult {
  std::string after;                 // the new file text ("" with remove_file)
  std::vector<std::string> added;    // events that got an entry
  std::vector<std::string> updated;  // events whose entry was brought up to date (binary path, --args)
  std::vector<std::string> removed;  // events whose entry was removed
  bool remove_file = false;          // nothing but causegate's entries was left
};

// The hook command init registers.
struct HookCommand {
  // The causegate binary: an absolute path, or a bare name found on PATH
  // when the agent runs the hook ("causegate", for settings in git).
  std::string binary;
  // Arguments after `hook --agent NAME` (`init --args`); nullopt keeps the
  // ones the registered entry already has, so flags added by hand survive.
  std::optional<std::vector<std::string>> extra_args;
};

// Applies edit to the settings text `before` (exists: whether the file was
// there; a missing or empty file is an empty object). The edit is made in
// the text (install/jsonc_edit.h): only the bytes of causegate's entries,
// and the commas and containers they need, are added or removed; the rest
// of the file stays byte for byte, comments too where the agent reads
// JSONC (Gemini CLI). An entry of causegate's already there is brought to
// command field by field: its program and arguments; the user's other
// fields (a timeout changed by hand) stay.
// had_backup: a FILE.causegate-backup exists, i.e. the file was there
// before causegate first touched it; removing every entry then keeps the
// file (as "{}") instead of deleting it.
// Errors: `before` is not JSON ("line L, column C: what"), or not an
// object, or a hooks section has an unexpected shape (the file is then
// left untouched by the caller).
Status EditSettings(Agent agent, Edit edit, const HookCommand& command, const std::string& before, bool exists,
                    bool had_backup, EditResult* out);

// One handler on one of causegate's events in a settings file, as written.
struct HookEntry {
  std::string event;
  std::size_t group = 0;  // grouped layout: index in the event's list (flat layout: 0)
  std::size_t index = 0;  // index in the group's "hooks" (flat layout: in the event's list)
  bool ours = false;      // carries causegate's mark (see the top of this file)
  std::string type;       // "command", "http", ... ("" when absent)
  std::string command;    // "command" (Copilot: "bash") as written
  bool exec_form = false; // "args" present: command is the program, args its arguments
  std::string program;    // the program run: command (exec form) or the command line's first word
  std::vector<std::string> words;  // the arguments after the program (exec form: args)
  std::string url;        // http hooks
  // http hooks: the variables the headers name ($VAR or ${VAR}) and the
  // ones "allowedEnvVars" lets Claude Code fill in; a named variable not
  // allowed is sent empty, and the daemon answers 401.
  std::vector<std::string> header_vars;
  std::vector<std::string> allowed_env_vars;
  std::optional<long long> timeout;  // "timeout" (Copilot: "timeoutSec"), when an integer
  bool async = false;
};

// Every handler on the agent's causegate events (HookEvents) in text, in
// file order, causegate's and others'. A missing or blank text has none.
// Errors: as EditSettings for text that is not a JSON object or whose
// hooks section has an unexpected shape.
Status ListHooks(Agent agent, const std::string& text, std::vector<HookEntry>* out);

// The words of a command line as a POSIX shell splits them (single and
// double quotes, no expansion): `init --args "--server URL"`.
std::vector<std::string> SplitShellWords(std::string_view line);

// The words of a shell command line for a registration: word quoted with
// single quotes when it holds anything but [A-Za-z0-9_./=:-].
std::string ShellQuote(std::string_view word);

}  // namespace causegate::install
