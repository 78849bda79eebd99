// Reading and writing an agent's settings file for `causegate init`:
// read whole (refusing anything but a regular file), and replaced
// atomically (a temporary file in the same folder, then rename). The file
// as it was before causegate first changed it is kept as
// FILE.causegate-backup, written once and never over an existing backup,
// so it never holds a version causegate wrote. A symbolic link is
// followed: the file it points to is replaced and the link stays. A file
// that cannot be read is an error and is never written.
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
  std::string target;       // the file a symbolic link at PATH points to ("" when PATH is no link)
  std::string text;
};

// Errors: the path is a folder or not a regular file, a symbolic link
// that cannot be followed, cannot be read (permissions), or is larger than
// kMaxSettingsBytes.
Status ReadSettings(const std::string& path, SettingsText* out);

// Writes text to path (through a symbolic link to its target): creates
// missing parent folders, copies the current file to PATH.causegate-backup
// first when there is a file and no backup yet (*backup_path set; "" when
// no backup was written now), then replaces the file atomically, keeping
// its mode.
Status WriteSettings(const std::string& path, const std::string& text, std::string* backup_path);

// Removes path: for a file causegate created and nothing else was put in
// (EditResult::remove_file), so no backup is kept.
Status RemoveSettings(const std::string& path);

}  // namespace causegate::install
