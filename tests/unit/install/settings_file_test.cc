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
