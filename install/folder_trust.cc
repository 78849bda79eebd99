// Folder trust as the agents decide it. Paths are compared after
// resolving symbolic links where they exist (both agents compare real
// paths), and "under" means equal to or below, on whole path components:
// /work/a does not contain /work/ab. Files that do not parse trust
// nothing: the agent refuses them too (Gemini CLI stops with a config
// error) and doctor says so.
// Tests: tests/unit/install/folder_trust_test.cc.
#include "install/folder_trust.h"

#include <filesystem>
#include <nlohmann/json.hpp>

namespace causegate::install {
namespace {

std::string Real(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
  std::string out = ec ? std::filesystem::path(path).lexically_normal().string() : p.string();
  while (out.size() > 1 && out.back() == '/') out.pop_back();
  return out;
}

bool Contains(const std::string& outer, const std::string& inner) {
  if (outer == "/") return !inner.empty() && inner.front() == '/';
  return inner == outer ||
         (inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 && inner[outer.size()] == '/');
}

nlohmann::json Parse(const std::string& text, bool strip_comments) {
  std::string t = text;
  if (strip_comments) {  // trustedFolders.json may hold // comments (strip-json-comments)
    std::string out;
    bool in_string = false;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const char c = t[i];
      if (in_string) {
        out.push_back(c);
        if (c == '\\' && i + 1 < t.size())
          out.push_back(t[++i]);
        else if (c == '"')
          in_string = false;
      } else if (c == '"') {
        in_string = true;
        out.push_back(c);
      } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
        while (i < t.size() && t[i] != '\n') ++i;
        out.push_back('\n');
      } else if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
        const std::size_t close = t.find("*/", i + 2);
        i = close == std::string::npos ? t.size() : close + 1;
      } else {
        out.push_back(c);
      }
    }
    t = std::move(out);
  }
  return nlohmann::json::parse(t, nullptr, /*allow_exceptions=*/false);
}

}  // namespace

FolderTrust GeminiFolderTrust(const std::string& folder, const std::optional<std::string>& trust_workspace,
                              const std::optional<std::string>& restricted,
                              const std::optional<std::string>& settings_json,
                              const std::optional<std::string>& trusted_folders_json) {
  if ((restricted && *restricted == "true") || (trust_workspace && *trust_workspace == "false")) {
    return {false, "GEMINI_RESTRICTED_MODE or GEMINI_CLI_TRUST_WORKSPACE=false is set"};
  }
  if (trust_workspace && *trust_workspace == "true") return {true, "GEMINI_CLI_TRUST_WORKSPACE=true"};
  if (settings_json) {
    const nlohmann::json s = Parse(*settings_json, /*strip_comments=*/true);
    const nlohmann::json* enabled = nullptr;
    if (s.is_object() && s.contains("security") && s["security"].is_object() && s["security"].contains("folderTrust") &&
        s["security"]["folderTrust"].is_object() && s["security"]["folderTrust"].contains("enabled")) {
      enabled = &s["security"]["folderTrust"]["enabled"];
    }
    if (enabled != nullptr && enabled->is_boolean() && !enabled->get<bool>()) {
      return {true, "folder trust is off (security.folderTrust.enabled false)"};
    }
  }
  if (!trusted_folders_json) return {false, "no trustedFolders.json: no folder is trusted"};
  const nlohmann::json rules = Parse(*trusted_folders_json, /*strip_comments=*/true);
  if (!rules.is_object()) return {false, "trustedFolders.json is not a JSON object (Gemini CLI refuses it)"};
  const std::string location = Real(folder);
  std::size_t longest = 0;
  std::string level;
  std::string rule;
  for (const auto& [path, value] : rules.items()) {
    if (!value.is_string()) continue;
    const std::string v = value.get<std::string>();
    const std::string effective = v == "TRUST_PARENT" ? std::filesystem::path(path).parent_path().string() : path;
    if (!Contains(Real(effective), location)) continue;
    if (level.empty() || path.size() > longest) {
      longest = path.size();
      level = v;
      rule = path;
    }
  }
  if (level == "TRUST_FOLDER" || level == "TRUST_PARENT")
    return {true, "trustedFolders.json: \"" + rule + "\": " + level};
  if (level == "DO_NOT_TRUST") return {false, "trustedFolders.json: \"" + rule + "\": DO_NOT_TRUST"};
  return {false, "trustedFolders.json has no rule for " + location};
}

FolderTrust CopilotFolderTrust(const std::string& folder, const std::optional<std::string>& config_json) {
  if (!config_json) return {false, "no config.json: no folder is trusted"};
  const nlohmann::json config = Parse(*config_json, /*strip_comments=*/false);
  if (!config.is_object()) return {false, "config.json is not a JSON object"};
  const std::string location = Real(folder);
  for (const char* key : {"trusted_folders", "trustedFolders"}) {
    if (!config.contains(key) || !config[key].is_array()) continue;
    for (const nlohmann::json& f : config[key]) {
      if (f.is_string() && Contains(Real(f.get<std::string>()), location)) {
        return {true, std::string("config.json ") + key + ": \"" + f.get<std::string>() + "\""};
      }
    }
  }
  return {false, "config.json trusts no folder holding " + location};
}

}  // namespace causegate::install
