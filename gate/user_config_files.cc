#include "gate/user_config_files.h"

#include <fnmatch.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

namespace causegate::gate {
namespace {

namespace fs = std::filesystem;

template <typename T>
void Override(const std::optional<T>& value, const std::string& path, Sourced<T>* out) {
  if (!value) return;
  out->value = *value;
  out->source = path;
}

}  // namespace

std::string UserConfigPath() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg == '/') {
    return (fs::path(xdg) / "causegate" / "config.json").string();
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return (fs::path(home) / ".config" / "causegate" / "config.json").string();
  }
  return "";
}

std::string ProjectConfigPath(const std::string& cwd) {
  if (cwd.empty()) return "";
  std::error_code ec;
  for (fs::path dir = fs::path(cwd).lexically_normal(); !dir.empty(); dir = dir.parent_path()) {
    const fs::path candidate = dir / ".causegate.json";
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
    // A project ends at its git root: a file above it belongs to no project.
    if (fs::exists(dir / ".git", ec) || dir == dir.parent_path()) break;
  }
  return "";
}

LoadedConfig LoadUserConfig(const std::string& cwd) {
  LoadedConfig loaded;
  for (const std::string& path : {UserConfigPath(), ProjectConfigPath(cwd)}) {
    if (path.empty()) continue;
    ConfigFile file;
    bool present = false;
    if (Status s = ReadConfigFile(path, &file, &present); !s.ok()) {
      loaded.errors.push_back(s.message());
    } else if (present) {
      loaded.files.push_back(std::move(file));
    }
  }
  return loaded;
}

RuleSwitch MergedConfig::SwitchFor(const std::string& rule_id) const {
  for (auto it = rules.rbegin(); it != rules.rend(); ++it) {
    if (RulePatternMatches(it->setting.pattern, rule_id)) return it->setting.value;
  }
  return RuleSwitch::kOn;
}

MergedConfig MergeConfig(const std::vector<ConfigFile>& files) {
  MergedConfig merged;
  for (const ConfigFile& file : files) {
    Override(file.values.mode, file.path, &merged.mode);
    Override(file.values.max_blocks, file.path, &merged.max_blocks);
    Override(file.values.guess_fix, file.path, &merged.guess_fix);
    Override(file.values.packs, file.path, &merged.packs);
    Override(file.values.exclude, file.path, &merged.exclude);
    for (const RuleSetting& setting : file.values.rules) {
      SourcedRule rule;
      rule.setting = setting;
      rule.source = file.path;
      merged.rules.push_back(rule);
    }
  }
  return merged;
}

bool RulePatternMatches(const std::string& pattern, const std::string& rule_id) {
  return pattern == rule_id || fnmatch(pattern.c_str(), rule_id.c_str(), 0) == 0;
}

bool ExcludedPath(const std::vector<std::string>& globs, const std::string& path, const std::string& cwd) {
  // Discovery gives paths as the user wrote them ("scratch/a.jsonl" for
  // `check .`); globs are matched against that and the absolute path.
  std::error_code ec;
  const std::string absolute = fs::absolute(fs::path(cwd) / path, ec).lexically_normal().string();
  for (const std::string& glob : globs) {
    if (fnmatch(glob.c_str(), path.c_str(), 0) == 0) return true;
    if (!ec && fnmatch(glob.c_str(), absolute.c_str(), 0) == 0) return true;
  }
  return false;
}

std::string RenderMergedConfig(const MergedConfig& config) {
  using Json = nlohmann::json;
  const auto entry = [](Json value, const std::string& source) {
    Json out = Json::object();
    out["value"] = std::move(value);
    out["from"] = source;
    return out;
  };
  Json doc = Json::object();
  doc["mode"] = entry(GateModeName(config.mode.value), config.mode.source);
  doc["max_blocks"] = entry(config.max_blocks.value, config.max_blocks.source);
  doc["guess_fix"] = entry(rules::GuessFixModeName(config.guess_fix.value), config.guess_fix.source);
  doc["packs"] = entry(config.packs.value, config.packs.source);
  doc["exclude"] = entry(config.exclude.value, config.exclude.source);
  Json rules = Json::object();
  for (const SourcedRule& rule : config.rules) {
    rules[rule.setting.pattern] = entry(RuleSwitchName(rule.setting.value),
                                        rule.source + ":" + std::to_string(rule.setting.line) + ":" +
                                            std::to_string(rule.setting.column));
  }
  doc["rules"] = std::move(rules);
  return doc.dump(2) + "\n";
}

}  // namespace causegate::gate
