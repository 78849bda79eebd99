// The per-session block counter and the one loop policy across agents:
// every agent's signal becomes prior blocks, the largest wins, and a turn
// let through unproven leaves the same audit record whatever the agent.
#include "gate/loop_state.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <ctime>

#include "gate/state_dir.h"
#include "unit/gate/agent_test_util.h"

namespace causegate::gate {
namespace {

using nlohmann::json;

TEST_CASE("loop counter: stored per turn, forgotten when stale or for another turn") {
  testing::StateScope state;
  const std::string path = LoopStatePath(StateDir(), Agent::kCodex, "s/../1", "/w");
  CHECK(path.find("/loop/codex-h") != std::string::npos);  // an unsafe id is hashed, never a path
  CHECK(LoadLoopBlocks(path, "turnA", 1000) == 0);
  REQUIRE(StoreLoopBlocks(path, "turnA", 2, 1000).ok());
  CHECK(LoadLoopBlocks(path, "turnA", 1000) == 2);
  CHECK(LoadLoopBlocks(path, "turnB", 1000) == 0);
  CHECK(LoadLoopBlocks(path, "turnA", 1000 + kLoopStateTtlSeconds) == 2);
  CHECK(LoadLoopBlocks(path, "turnA", 1000 + kLoopStateTtlSeconds + 1) == 0);
  REQUIRE(StoreLoopBlocks(path, "turnA", 0, 1000).ok());
  CHECK(LoadLoopBlocks(path, "turnA", 1000) == 0);
  CHECK(StoreLoopBlocks(path, "turnA", 0, 1000).ok());  // removing twice is fine
}

TEST_CASE("loop counter: the text judged at a block, for Gemini's growing prompt_response") {
  testing::StateScope state;
  const std::string path = LoopStatePath(StateDir(), Agent::kGemini, "s1", "/w");
  REQUIRE(StoreLoopBlocks(path, "turnA", 1, 1000, "The disk is full.").ok());
  LoopState kept = LoadLoopState(path, "turnA", 1000);
  CHECK(kept.blocks == 1);
  CHECK(kept.judged_bytes == 17);
  CHECK(kept.judged_hash == HashHex("The disk is full."));
  CHECK(LoadLoopState(path, "turnB", 1000).judged_bytes == 0);
  REQUIRE(StoreLoopBlocks(path, "turnA", 2, 1000).ok());
  kept = LoadLoopState(path, "turnA", 1000);
  CHECK(kept.blocks == 2);
  CHECK(kept.judged_bytes == 0);
  CHECK(kept.judged_hash.empty());
}

TEST_CASE("loop counter: a corrupt file counts as none") {
  testing::StateScope state;
  const std::string path = LoopStatePath(StateDir(), Agent::kGemini, "s1", "");
  REQUIRE(EnsureDir(path.substr(0, path.rfind('/'))).ok());
  for (const char* text : {"", "{", "[]", R"({"turn":"t","blocks":"2","updated":1})", R"({"turn":"t","blocks":2})"}) {
    INFO(text);
    FILE* f = std::fopen(path.c_str(), "w");
    REQUIRE(f != nullptr);
    std::fputs(text, f);
    std::fclose(f);
    CHECK(LoadLoopBlocks(path, "t", 1) == 0);
  }
}

TEST_CASE("prior blocks: the largest of every signal the agent gives") {
  testing::StateScope state;
  evidence::Turn turn;
  turn.prompt = "why?";
  struct Case {
    Agent agent;
    bool active;
    std::optional<int> loop_count;
    int feedback_lines;
    int counter;
    int expected;
  };
  const std::vector<Case> cases = {
      {Agent::kClaudeCode, false, {}, 0, 5, 0},  // Claude Code ignores the counter
      {Agent::kClaudeCode, true, {}, 0, 0, 1},
      {Agent::kClaudeCode, true, {}, 2, 0, 2},
      {Agent::kCodex, false, {}, 0, 2, 2},
      {Agent::kCodex, true, {}, 0, 0, 1},
      {Agent::kGemini, false, {}, 1, 0, 1},
      {Agent::kCursor, false, 4, 0, 0, 1},  // loop_count is only a floor of 1
      {Agent::kCursor, false, 0, 0, 1, 1},
      {Agent::kCopilot, true, {}, 0, 2, 2},
  };
  for (const Case& c : cases) {
    INFO(AgentName(c.agent) << " active " << c.active << " feedback " << c.feedback_lines << " counter " << c.counter);
    HookRequest r;
    r.agent = c.agent;
    r.session_id = "s1";
    r.stop_hook_active = c.active;
    r.loop_count = c.loop_count;
    turn.stop_feedback.assign(static_cast<std::size_t>(c.feedback_lines), "causegate blocked this stop");
    REQUIRE(StoreLoopBlocks(LoopStatePath(StateDir(), c.agent, "s1", ""), TurnKey(turn), c.counter, std::time(nullptr)).ok());
    CHECK(PriorBlocksFor(r, turn) == c.expected);
  }
}

TEST_CASE("the audit record of an unproven turn is the same for every agent") {
  rules::Verdict verdict;
  rules::Sentence s;
  s.text = testing::kClaim;
  verdict.message.sentences.push_back(s);
  rules::Claim claim;
  claim.sentence = 0;
  claim.finding = rules::Finding::kNoCitation;
  verdict.claims.push_back(claim);
  verdict.decision = rules::Decision::kBlock;
  for (const Agent agent : {Agent::kClaudeCode, Agent::kCodex, Agent::kGemini, Agent::kCursor, Agent::kCopilot}) {
    INFO(AgentName(agent));
    HookRequest r;
    r.agent = agent;
    r.event = "Stop";
    r.session_id = "s1";
    const json record = json::parse(UnprovenAuditRecord(r, verdict, 2));
    CHECK(record["audit"] == "allow-unproven");
    CHECK(record["agent"] == AgentName(agent));
    CHECK(record["session_id"] == "s1");
    CHECK(record["prior_blocks"] == 2);
    CHECK(record["unsupported"] == 1);
    CHECK(record["claims"] == json::array({{{"finding", "no-citation"}, {"sentence", testing::kClaim}}}));
  }
}

TEST_CASE("state folder: XDG_STATE_HOME, then HOME; ids made safe") {
  testing::StateScope state;
  CHECK(StateDir() == state.dir().path() + "/causegate");
  CHECK(SafeFileName("0199a213-81c0-7800-8aa1-bbab2a035a53") == "0199a213-81c0-7800-8aa1-bbab2a035a53");
  for (const char* unsafe : {"", "../x", ".hidden", "a/b", "a b"}) {
    INFO(unsafe);
    const std::string name = SafeFileName(unsafe);
    CHECK(name.size() == 17);
    CHECK(name[0] == 'h');
  }
  CHECK(SafeFileName("a/b") != SafeFileName("a b"));
}

}  // namespace
}  // namespace causegate::gate
