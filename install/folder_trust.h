// Whether Gemini CLI and Copilot CLI trust a folder, read from their own
// files the way they read them, for `causegate doctor`: Gemini CLI loads
// every hook (user-level too) only in a trusted folder; Copilot CLI runs a
// project's .github/hooks only there (its user-level hooks need no trust).
// Tests: tests/unit/install/folder_trust_test.cc.
#pragma once

#include <optional>
#include <string>

namespace causegate::install {

struct FolderTrust {
  bool trusted = false;
  std::string why;  // "~/.gemini/trustedFolders.json: \"/w\": TRUST_FOLDER", "no rule for /w", ...
};

// Gemini CLI 0.61's rule (packages/core/src/utils/trust.ts):
// GEMINI_CLI_TRUST_WORKSPACE=true trusts and =false (or
// GEMINI_RESTRICTED_MODE=true) does not; security.folderTrust.enabled false
// in settings trusts every folder; else the rule in trustedFolders.json
// with the longest path that contains folder decides (TRUST_FOLDER: that
// folder, TRUST_PARENT: its parent, DO_NOT_TRUST), and no rule is untrusted.
// trust_workspace / restricted: those variables' values (nullopt: unset).
// settings_json, trusted_folders_json: the files' texts (nullopt: no file).
FolderTrust GeminiFolderTrust(const std::string& folder, const std::optional<std::string>& trust_workspace,
                              const std::optional<std::string>& restricted,
                              const std::optional<std::string>& settings_json,
                              const std::optional<std::string>& trusted_folders_json);

// Copilot CLI: folder is trusted when it is, or is under, a folder listed
// in config.json's "trusted_folders" (or "trustedFolders").
FolderTrust CopilotFolderTrust(const std::string& folder, const std::optional<std::string>& config_json);

}  // namespace causegate::install
