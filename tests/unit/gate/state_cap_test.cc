// The state folder's total bound: least recently written files go first.
#include "gate/state_cap.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "gate/session_log.h"
#include "gate/state_dir.h"
#include "unit/gate/agent_test_util.h"

namespace causegate::gate {
namespace {

namespace fs = std::filesystem;

// A file of `bytes` bytes written `age_s` seconds ago.
std::string Aged(const std::string& path, std::size_t bytes, int age_s) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
  fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::seconds(age_s));
  return path;
}

TEST_CASE("state cap: over the byte total, the least recently written files go first") {
  evidence::testing::TempDir dir;
  const std::string state = dir.path();
  const std::string oldest = Aged(state + "/sessions/cursor/a.jsonl", 400, 50);
  const std::string older = Aged(state + "/loop/cursor-b.json", 400, 40);
  const std::string newer = Aged(state + "/sessions/copilot/c.jsonl", 400, 30);
  const std::string newest = Aged(state + "/sessions/cursor/d.jsonl", 400, 20);
  const std::string other = Aged(state + "/sessions/cursor/notes.txt", 5000, 60);  // not ours: never counted

  StateCap cap;
  cap.max_bytes = 1000;
  CHECK(EvictOldestState(state, newest, cap) == 2);
  CHECK_FALSE(fs::exists(oldest));
  CHECK_FALSE(fs::exists(older));
  CHECK(fs::exists(newer));
  CHECK(fs::exists(newest));
  CHECK(fs::exists(other));
  CHECK(EvictOldestState(state, newest, cap) == 0);  // within the cap now
}

TEST_CASE("state cap: the file just written is kept even when it is the oldest") {
  evidence::testing::TempDir dir;
  const std::string state = dir.path();
  const std::string kept = Aged(state + "/sessions/cursor/kept.jsonl", 800, 90);
  const std::string young = Aged(state + "/sessions/cursor/young.jsonl", 800, 10);
  StateCap cap;
  cap.max_bytes = 1000;
  CHECK(EvictOldestState(state, kept, cap) == 1);
  CHECK(fs::exists(kept));
  CHECK_FALSE(fs::exists(young));
}

TEST_CASE("state cap: over the file count, the oldest go first") {
  evidence::testing::TempDir dir;
  const std::string state = dir.path();
  for (int i = 0; i < 10; ++i) Aged(state + "/loop/codex-" + std::to_string(i) + ".json", 10, 100 - i);
  StateCap cap;
  cap.max_files = 4;
  CHECK(EvictOldestState(state, "", cap) == 6);
  for (int i = 0; i < 10; ++i) CHECK(fs::exists(state + "/loop/codex-" + std::to_string(i) + ".json") == (i >= 6));
}

TEST_CASE("state cap: a session log append evicts other conversations past the total") {
  testing::StateScope scope;
  const std::string state = StateDir();
  // Older conversations filling the folder to its cap.
  const std::size_t each = static_cast<std::size_t>(kMaxStateBytes / 4);
  for (int i = 0; i < 4; ++i) Aged(state + "/sessions/cursor/old-" + std::to_string(i) + ".jsonl", each, 100 - i);
  HookRequest r;
  r.agent = Agent::kCursor;
  r.kind = HookKind::kObserve;
  r.session_id = "new-conversation";
  ObservedEvent ev;
  ev.kind = ObservedEvent::Kind::kPrompt;
  ev.text = "why did the deploy fail?";
  r.observed = ev;
  REQUIRE(AppendToSessionLog(r).ok());
  CHECK_FALSE(fs::exists(state + "/sessions/cursor/old-0.jsonl"));
  CHECK(fs::exists(state + "/sessions/cursor/old-1.jsonl"));
  CHECK(fs::exists(state + "/sessions/cursor/old-3.jsonl"));
  CHECK(fs::exists(SessionLogPath(StateDir(), Agent::kCursor, "new-conversation", "")));
}

}  // namespace
}  // namespace causegate::gate
