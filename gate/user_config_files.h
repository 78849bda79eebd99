// Which config files apply, and their values merged: defaults < user file
// (`$XDG_CONFIG_HOME/causegate/config.json`, else
// `~/.config/causegate/config.json`) < project file (the nearest
// `.causegate.json` from the working directory up to the git root) <
// command-line flags, each later one winning key by key. "rules" entries
// merge by pattern; among the patterns a rule id matches, the last one
// written wins (project after user, later keys after earlier ones).
// Tests: tests/unit/gate/user_config_files_test.cc.
#pragma once

#include <string>
#include <vector>

#include "gate/user_config.h"

namespace causegate::gate {

// The user file's path ("" when neither XDG_CONFIG_HOME nor HOME is set).
std::string UserConfigPath();
// The nearest .causegate.json from cwd up to the folder holding .git (or
// the root when there is none); "" when there is none.
std::string ProjectConfigPath(const std::string& cwd);

struct LoadedConfig {
  std::vector<ConfigFile> files;    // the files used, user first
  std::vector<std::string> errors;  // files left out, "path:line:column: what"
};

// Reads the user file and the project file for cwd. A file with a problem
// is left out and its error kept; an absent file is no problem.
LoadedConfig LoadUserConfig(const std::string& cwd);

// One key's merged value and where it came from.
template <typename T>
struct Sourced {
  T value;
  std::string source = "default";  // a file's path, "default" or "command line"
};

struct SourcedRule {
  RuleSetting setting;
  std::string source;  // the file's path
};

struct MergedConfig {
  Sourced<GateMode> mode{GateMode::kBlock, "default"};
  Sourced<int> max_blocks{2, "default"};
  Sourced<rules::GuessFixMode> guess_fix{rules::GuessFixMode::kWarn, "default"};
  Sourced<std::vector<std::string>> packs{{}, "default"};
  Sourced<std::vector<std::string>> exclude{{}, "default"};
  std::vector<SourcedRule> rules;  // every entry, in merge order (later wins)

  // What the entries say of the rule with this id: the last matching one.
  RuleSwitch SwitchFor(const std::string& rule_id) const;
};

// The files' values over the defaults, in order (later files win).
MergedConfig MergeConfig(const std::vector<ConfigFile>& files);

// True when pattern (an id or fnmatch glob) matches rule_id.
bool RulePatternMatches(const std::string& pattern, const std::string& rule_id);

// True when path matches one of the "exclude" globs (fnmatch, where "*"
// also crosses "/": "*/scratch/*" matches any scratch folder's files), as
// given (relative to cwd, as the user wrote it) or made absolute.
bool ExcludedPath(const std::vector<std::string>& globs, const std::string& path, const std::string& cwd);

// `causegate config show`: every key, its merged value and its source.
std::string RenderMergedConfig(const MergedConfig& config);

}  // namespace causegate::gate
