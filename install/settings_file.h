// Reading and writing an agent's settings file for `causegate init`:
// read whole (refusing anything but a regular file), and replaced
// atomically (a temporary file in the same folder, then rename) after the
// previous version is kept as FILE.causegate-backup. A file that cannot be
// read is an error and is never written.
// Tests: tests/unit/install/settings_file_test.cc.
#pragma once

#include <string>

#include "evidence/status.h"

namespace causegate::install {

inline constexpr const char* kBackupSuffix = ".causegate-backup";
// Settings files are small; a larger one is refused rather than rewritten.
inline constexpr std::size_t kMaxSettingsBytes = 16u << 20;

struct SettingsText {
  bool exists = false;      // false: no file at the path (text is "")
  bool has_backup = false;  // PATH.causegate-backup exists
  std::string text;
};

// Errors: the path is a folder or not a regular file, cannot be read
// (permissions), or is larger than kMaxSettingsBytes.
Status ReadSettings(const std::string& path, SettingsText* out);

// Writes text to path: creates missing parent folders, copies the current
// file (if any) to PATH.causegate-backup first (*backup_path set; "" when
// there was no file), then replaces the file atomically, keeping its mode.
Status WriteSettings(const std::string& path, const std::string& text, std::string* backup_path);

// Removes path: for a file causegate created and nothing else was put in
// (EditResult::remove_file), so no backup is kept.
Status RemoveSettings(const std::string& path);

}  // namespace causegate::install
