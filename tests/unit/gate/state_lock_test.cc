// Locks on the state folder: one session's counter excludes a second
// holder (another descriptor, as another thread or process has), waits are
// bounded, and counting under the lock loses no increment however many
// threads count at once.
#include "gate/state_lock.h"

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <unistd.h>

#include <ctime>
#include <set>
#include <thread>
#include <vector>

#include "gate/loop_state.h"
#include "unit/evidence/test_util.h"

namespace causegate::gate {
namespace {

using std::chrono::milliseconds;

TEST_CASE("state lock: one stripe file per name, spread over the stripes") {
  const std::string a = StateLockPath("/s", "codex-s1.json");
  CHECK(a == StateLockPath("/s", "codex-s1.json"));
  CHECK(a.rfind("/s/locks/", 0) == 0);
  CHECK(a.size() == std::string("/s/locks/NN.lock").size());
  std::set<std::string> stripes;
  for (int i = 0; i < 1000; ++i) stripes.insert(StateLockPath("/s", "codex-session-" + std::to_string(i) + ".json"));
  CHECK(stripes.size() == static_cast<std::size_t>(kStateLockStripes));
}

TEST_CASE("state lock: a held session lock keeps a second holder out until it is let go") {
  evidence::testing::TempDir dir;
  SessionStateLock first;
  REQUIRE(SessionStateLock::Acquire(dir.path(), "codex-s1.json", &first).ok());
  CHECK(first.held());
  SessionStateLock second;
  const Status s = SessionStateLock::Acquire(dir.path(), "codex-s1.json", &second, milliseconds(30));
  CHECK_THAT(s.message(), Catch::Contains("not had within 30 ms"));
  CHECK_FALSE(second.held());
  first = SessionStateLock();  // let go
  CHECK(SessionStateLock::Acquire(dir.path(), "codex-s1.json", &second, milliseconds(30)).ok());
  CHECK(second.held());
}

TEST_CASE("state lock: no state folder is an error, not a lock") {
  SessionStateLock lock;
  CHECK_FALSE(SessionStateLock::Acquire("", "codex-s1.json", &lock).ok());
  CHECK_FALSE(lock.held());
}

TEST_CASE("state lock: shared readers wait for an exclusive writer of the same file") {
  evidence::testing::TempDir dir;
  const std::string path = dir.WriteRaw("s.jsonl", "{}\n");
  const int writer = open(path.c_str(), O_RDWR | O_CLOEXEC);
  const int reader = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(writer >= 0);
  REQUIRE(reader >= 0);
  REQUIRE(LockWithin(writer, LockMode::kExclusive, milliseconds(30), path).ok());
  CHECK_FALSE(LockWithin(reader, LockMode::kShared, milliseconds(30), path).ok());
  close(writer);
  CHECK(LockWithin(reader, LockMode::kShared, milliseconds(30), path).ok());
  close(reader);
}

TEST_CASE("state lock: counting one session's blocks from many threads loses none") {
  evidence::testing::TempDir dir;
  const std::string counter = LoopStatePath(dir.path(), Agent::kCodex, "s1", "");
  constexpr int kThreads = 8;
  constexpr int kEach = 25;
  const long long now = std::time(nullptr);
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) {
        SessionStateLock lock;
        if (!SessionStateLock::Acquire(dir.path(), "codex-s1.json", &lock, milliseconds(10000)).ok()) {
          ++failures[t];
          continue;
        }
        const int blocks = LoadLoopBlocks(counter, "turn", now);
        if (!StoreLoopBlocks(counter, "turn", blocks + 1, now).ok()) ++failures[t];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < kThreads; ++t) CHECK(failures[t] == 0);
  CHECK(LoadLoopBlocks(counter, "turn", now) == kThreads * kEach);
}

}  // namespace
}  // namespace causegate::gate
