#include "server/rule_store.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <thread>

#include "unit/evidence/test_util.h"

namespace causegate::server {
namespace {

using evidence::testing::TempDir;

std::string Pack(const std::string& name, const std::string& pattern) {
  return R"({"format": "causegate-pack/1", "pack": ")" + name + R"(", "version": "1",
  "rules": [
    {"id": ")" + name + R"(.claim.x", "kind": "claim", "pattern": ")" + pattern + R"("}
  ]})";
}

TEST_CASE("rule store: a good reload swaps, a bad one keeps the last good set", "[server][reload]") {
  TempDir dir;
  RuleStore store(dir.path());
  CHECK(store.Current() == nullptr);
  REQUIRE(store.Reload().ok());
  const auto defaults = store.Current();
  REQUIRE(defaults != nullptr);

  dir.WriteRaw("extra.json", Pack("extra", "\\\\bxyzzy\\\\b"));
  REQUIRE(store.Reload().ok());
  const auto with_extra = store.Current();
  CHECK(with_extra != defaults);
  CHECK(with_extra->FindRule("extra.claim.x") >= 0);

  dir.WriteRaw("extra.json", Pack("extra", "(unclosed"));
  const Status bad = store.Reload();
  REQUIRE_FALSE(bad.ok());
  INFO(bad.message());
  CHECK(bad.message().find("extra.json:3:46: rule \"extra.claim.x\": pattern: missing )") != std::string::npos);
  CHECK(store.Current() == with_extra);  // kept
  // A request that took the old set keeps it after a swap.
  dir.WriteRaw("extra.json", Pack("extra", "plugh"));
  REQUIRE(store.Reload().ok());
  CHECK(with_extra->FindRule("extra.claim.x") >= 0);
  CHECK(store.Current() != with_extra);
}

TEST_CASE("rule store: readers during reloads always see a whole set", "[server][reload]") {
  TempDir dir;
  dir.WriteRaw("extra.json", Pack("extra", "xyzzy"));
  RuleStore store(dir.path());
  REQUIRE(store.Reload().ok());
  std::atomic<bool> done{false};
  std::atomic<int> bad{0};
  std::thread reader([&] {
    while (!done) {
      const auto set = store.Current();
      if (!set || set->FindRule("extra.claim.x") < 0) ++bad;
    }
  });
  for (int i = 0; i < 5; ++i) REQUIRE(store.Reload().ok());
  done = true;
  reader.join();
  CHECK(bad == 0);
}

TEST_CASE("pack folder signature changes with the packs", "[server][reload]") {
  TempDir dir;
  CHECK(PackFolderSignature("").empty());
  CHECK(PackFolderSignature(dir.File("missing")).empty());
  const std::string empty = PackFolderSignature(dir.path());
  dir.WriteRaw("notes.txt", "not a pack");
  CHECK(PackFolderSignature(dir.path()) == empty);
  dir.WriteRaw("a.json", "{}");
  const std::string one = PackFolderSignature(dir.path());
  CHECK(one != empty);
  CHECK(PackFolderSignature(dir.path()) == one);
  dir.WriteRaw("a.json", "{ }");  // size changes
  CHECK(PackFolderSignature(dir.path()) != one);
}

TEST_CASE("pack signature of one pack file (--rules FILE)", "[server][reload]") {
  TempDir dir;
  const std::string file = dir.WriteRaw("team.json", "{}");
  const std::string one = PackFolderSignature(file);
  CHECK_FALSE(one.empty());
  dir.WriteRaw("other.json", "{}");  // beside it, not part of it
  CHECK(PackFolderSignature(file) == one);
  dir.WriteRaw("team.json", "{ }");
  CHECK(PackFolderSignature(file) != one);
  std::filesystem::remove(file);
  CHECK(PackFolderSignature(file).empty());
}

}  // namespace
}  // namespace causegate::server
