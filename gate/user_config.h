// The user's configuration files (`~/.config/causegate/config.json`, a
// project's `.causegate.json`): one file's text read into typed values, every
// problem with its file:line:column. A file with any problem is used not at
// all (the caller keeps the defaults and the other file): a broken config
// must never switch the gate off silently, nor half-apply. Keys and their
// values: README.md, "Configuration".
// Tests: tests/unit/gate/user_config_test.cc.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/status.h"
#include "rules/loop_policy.h"

namespace causegate::gate {

// What the gate does with a turn it would block.
enum class GateMode {
  kBlock,  // send the agent back (the default)
  kWarn,   // let it stop, tell the user what would have blocked
  kOff,    // judge nothing
};
const char* GateModeName(GateMode mode);  // "block", "warn", "off"
bool ParseGateMode(std::string_view name, GateMode* mode);

// A "rules" entry's value.
enum class RuleSwitch {
  kOff,   // the rule is dropped before the rule set is compiled
  kWarn,  // its claims never block; the user is told instead
  kOn,    // as shipped (to undo a glob of another entry or file)
};
const char* RuleSwitchName(RuleSwitch value);

struct RuleSetting {
  std::string pattern;  // a rule id or an fnmatch glob ("en.claim.past-*")
  RuleSwitch value = RuleSwitch::kOn;
  int line = 0;         // of its key in the file
  int column = 0;
};

// One file's values; a key the file does not set is empty.
struct ConfigValues {
  std::vector<RuleSetting> rules;          // in the file's order
  std::optional<GateMode> mode;
  std::optional<int> max_blocks;           // 0..100, as hook --max-blocks
  std::optional<rules::GuessFixMode> guess_fix;
  std::optional<std::vector<std::string>> packs;    // absolute (relative ones
                                                    // taken from the file's folder)
  std::optional<std::vector<std::string>> exclude;  // globs for `check`
  // The resident gate (hook/resident.h); read from the user file only: a
  // background process is the user's choice, not a repository's.
  std::optional<bool> resident;
  std::optional<int> resident_idle_seconds;         // 1..86400
};

struct ConfigFile {
  std::string path;
  ConfigValues values;
};

// Parses one config file's text. path names it in errors and anchors
// relative "packs". The error is "path:line:column: what" for the first
// problem: not JSON, not an object, an unknown key, a value of the wrong
// type or out of range.
Status ParseConfigFile(std::string_view text, const std::string& path, ConfigFile* out);

// Reads and parses the file at path; *present is false (and the status ok)
// when there is no file there.
Status ReadConfigFile(const std::string& path, ConfigFile* out, bool* present);

}  // namespace causegate::gate
