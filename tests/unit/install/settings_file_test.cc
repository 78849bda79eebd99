#include "install/settings_file.h"

#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include "unit/evidence/test_util.h"

namespace causegate::install {
namespace {

TEST_CASE("settings file: read, backed up, replaced") {
  evidence::testing::TempDir dir;
  SettingsText s;
  REQUIRE(ReadSettings(dir.File("missing.json"), &s).ok());
  CHECK_FALSE(s.exists);

  const std::string path = dir.WriteRaw("settings.json", "{\"a\": 1}\n");
  chmod(path.c_str(), 0640);
  std::string backup;
  REQUIRE(WriteSettings(path, "{}\n", &backup).ok());
  CHECK(backup == path + kBackupSuffix);
  REQUIRE(ReadSettings(backup, &s).ok());
  CHECK(s.text == "{\"a\": 1}\n");
  REQUIRE(ReadSettings(path, &s).ok());
  CHECK(s.text == "{}\n");
  CHECK(s.has_backup);
  struct stat st {};
  REQUIRE(stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);

  const std::string nested = dir.File("a/b/hooks.json");
  REQUIRE(WriteSettings(nested, "{}\n", &backup).ok());
  CHECK(backup.empty());
  REQUIRE(RemoveSettings(nested).ok());
  REQUIRE(ReadSettings(nested, &s).ok());
  CHECK_FALSE(s.exists);
}

TEST_CASE("settings file: the backup is written once; a symbolic link is followed") {
  evidence::testing::TempDir dir;
  const std::string target = dir.WriteRaw("dotfile-settings.json", "{\"mine\": 1}\n");
  const std::string link = dir.File("settings.json");
  REQUIRE(symlink("dotfile-settings.json", link.c_str()) == 0);
  SettingsText s;
  REQUIRE(ReadSettings(link, &s).ok());
  CHECK(s.text == "{\"mine\": 1}\n");
  CHECK(s.target == target);
  std::string backup;
  REQUIRE(WriteSettings(link, "{\"mine\": 1, \"ours\": 2}\n", &backup).ok());
  CHECK(backup == link + kBackupSuffix);
  struct stat st {};
  REQUIRE(lstat(link.c_str(), &st) == 0);
  CHECK(S_ISLNK(st.st_mode));
  REQUIRE(ReadSettings(target, &s).ok());
  CHECK(s.text == "{\"mine\": 1, \"ours\": 2}\n");
  // A second write keeps the first backup: it holds the user's file, never ours.
  REQUIRE(WriteSettings(link, "{\"mine\": 1, \"ours\": 3}\n", &backup).ok());
  CHECK(backup.empty());
  REQUIRE(ReadSettings(link + kBackupSuffix, &s).ok());
  CHECK(s.text == "{\"mine\": 1}\n");
  // A link to nothing is an error, and nothing is written through it.
  const std::string dangling = dir.File("gone.json");
  REQUIRE(symlink("nowhere/settings.json", dangling.c_str()) == 0);
  CHECK_THAT(ReadSettings(dangling, &s).message(), Catch::Contains("a symbolic link to nowhere/settings.json"));
  CHECK_FALSE(WriteSettings(dangling, "{}\n", &backup).ok());
}

TEST_CASE("settings file: what cannot be read is an error") {
  evidence::testing::TempDir dir;
  SettingsText s;
  CHECK_THAT(ReadSettings(dir.path(), &s).message(), Catch::Contains("not a regular file"));
  const std::string fifo = dir.File("fifo");
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THAT(ReadSettings(fifo, &s).message(), Catch::Contains("not a regular file"));
  if (geteuid() != 0) {  // root reads anything
    const std::string locked = dir.WriteRaw("locked.json", "{}");
    chmod(locked.c_str(), 0);
    CHECK_THAT(ReadSettings(locked, &s).message(), Catch::Contains("Permission denied"));
  }
}

}  // namespace
}  // namespace causegate::install
