// Transcript write lag (gate/transcript_wait.h): a stop whose transcript
// the agent is still writing is judged on the whole turn once it lands,
// within the bound, and a whole transcript is read once. Each lag test
// writes the turn as the hook finds it, has a thread append the rest
// after kLag, and runs RunGate on the first part; the margins are wide
// (the appended rest is awaited up to kGenerousWaitMs) so a loaded
// machine cannot make them flaky.
#include "gate/transcript_wait.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <optional>
#include <thread>

#include "evidence/limits.h"
#include "gate/adapters.h"
#include "unit/gate/agent_test_util.h"

namespace causegate::gate {
namespace {

using evidence::testing::Meta;
using evidence::testing::Prompt;
using evidence::testing::Result;
using evidence::testing::Text;
using evidence::testing::ToolUse;
using nlohmann::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How late the rest of the turn lands: more than Claude Code's flush
// interval and Copilot's measured lag (about 100 ms each).
constexpr milliseconds kLag{150};
// The wait given to tests that expect the rest to be found.
constexpr const char* kGenerousWaitMs = "10000";
// Time beyond a bound that a test allows for scheduling.
constexpr milliseconds kSlack{1500};

// Sets CAUSEGATE_TRANSCRIPT_WAIT_MS for the scope's lifetime.
class WaitScope {
 public:
  explicit WaitScope(const char* ms) {
    const char* old = std::getenv(kTranscriptWaitEnv);
    had_old_ = old != nullptr;
    if (had_old_) old_ = old;
    if (ms != nullptr) {
      setenv(kTranscriptWaitEnv, ms, 1);
    } else {
      unsetenv(kTranscriptWaitEnv);
    }
  }
  ~WaitScope() {
    if (had_old_) {
      setenv(kTranscriptWaitEnv, old_.c_str(), 1);
    } else {
      unsetenv(kTranscriptWaitEnv);
    }
  }
  WaitScope(const WaitScope&) = delete;
  WaitScope& operator=(const WaitScope&) = delete;

 private:
  std::string old_;
  bool had_old_ = false;
};

// Appends lines to a file after a delay, as the agent's writer would;
// joined when the scope ends.
class LateWriter {
 public:
  LateWriter(std::string path, std::vector<std::string> lines)
      : thread_([path = std::move(path), lines = std::move(lines)] {
          std::this_thread::sleep_for(kLag);
          std::string text;
          for (const std::string& line : lines) text += line + "\n";
          std::ofstream out(path, std::ios::binary | std::ios::app);
          out << text;  // one write on close: the reader sees all or nothing
        }) {}
  ~LateWriter() { thread_.join(); }
  LateWriter(const LateWriter&) = delete;
  LateWriter& operator=(const LateWriter&) = delete;

 private:
  std::thread thread_;
};

struct Timed {
  GateResult result;
  milliseconds elapsed;
};

Timed TimedGate(const json& input, Agent agent) {
  const auto start = Clock::now();
  GateResult r = RunGate(input.dump(), agent, testing::BuiltinRules(), GateOptions());
  return {std::move(r), std::chrono::duration_cast<milliseconds>(Clock::now() - start)};
}

bool AnyFinding(const rules::Verdict& verdict, rules::Finding finding) {
  for (const rules::Claim& claim : verdict.claims) {
    if (claim.finding == finding) return true;
  }
  return false;
}

// ---- the wait itself ----

TEST_CASE("ReadWhileLagging: a whole first read is the only read, with no wait") {
  WaitScope wait(kGenerousWaitMs);
  int reads = 0;
  ReadState state = ReadState::kLagging;
  double waited_ms = -1;
  const Status s = ReadWhileLagging(
      Agent::kCopilot, TranscriptWait::kWhileLagging,
      [&reads](ReadState* st) {
        ++reads;
        *st = ReadState::kWhole;
        return Status::Ok();
      },
      &state, &waited_ms);
  CHECK(s.ok());
  CHECK(reads == 1);
  CHECK(state == ReadState::kWhole);
  CHECK(waited_ms == 0);
}

TEST_CASE("ReadWhileLagging reads again until the read is whole, and not with kNever") {
  WaitScope wait(kGenerousWaitMs);
  int reads = 0;
  const auto read = [&reads](ReadState* st) {
    ++reads;
    *st = reads < 4 ? ReadState::kLagging : ReadState::kWhole;
    return Status::Ok();
  };
  ReadState state = ReadState::kLagging;
  double waited_ms = 0;
  REQUIRE(ReadWhileLagging(Agent::kClaudeCode, TranscriptWait::kWhileLagging, read, &state, &waited_ms).ok());
  CHECK(reads == 4);
  CHECK(state == ReadState::kWhole);
  CHECK(waited_ms >= 3 * kTranscriptPoll.count());

  reads = 0;
  REQUIRE(ReadWhileLagging(Agent::kClaudeCode, TranscriptWait::kNever, read, &state, &waited_ms).ok());
  CHECK(reads == 1);
  CHECK(state == ReadState::kLagging);
  CHECK(waited_ms == 0);
}

TEST_CASE("TranscriptWaitBound: per agent, replaced by CAUSEGATE_TRANSCRIPT_WAIT_MS when valid") {
  {
    WaitScope wait(nullptr);
    CHECK(TranscriptWaitBound(Agent::kClaudeCode) == kClaudeCodeTranscriptWait);
    CHECK(TranscriptWaitBound(Agent::kCopilot) == kCopilotTranscriptWait);
    for (Agent agent : {Agent::kCodex, Agent::kGemini, Agent::kCursor}) {
      INFO(AgentName(agent));
      CHECK(TranscriptWaitBound(agent) == milliseconds(0));
    }
  }
  for (const auto& [value, claude, copilot] : std::vector<std::tuple<const char*, milliseconds, milliseconds>>{
           {"0", milliseconds(0), milliseconds(0)},
           {"250", milliseconds(250), milliseconds(250)},
           {"20000", kMaxTranscriptWait, kMaxTranscriptWait},
           {"20001", kClaudeCodeTranscriptWait, kCopilotTranscriptWait},
           {"-5", kClaudeCodeTranscriptWait, kCopilotTranscriptWait},
           {"1s", kClaudeCodeTranscriptWait, kCopilotTranscriptWait},
           {"", kClaudeCodeTranscriptWait, kCopilotTranscriptWait},
       }) {
    INFO(kTranscriptWaitEnv << "=\"" << value << "\"");
    WaitScope wait(value);
    CHECK(TranscriptWaitBound(Agent::kClaudeCode) == claude);
    CHECK(TranscriptWaitBound(Agent::kCopilot) == copilot);
    CHECK(TranscriptWaitBound(Agent::kCodex) == milliseconds(0));
  }
}

// ---- Claude Code ----

TEST_CASE("claude-code: what makes a turn read from the file incomplete") {
  evidence::Turn turn;
  turn.final_message = "The cause:\n\nthe disk is full.";
  evidence::ToolCall call;
  call.has_result = true;
  turn.tool_calls = {call};
  struct Case {
    const char* name;
    std::optional<std::string> last;
    bool result;
    bool subagent_without_file;
    bool lagging;
  };
  for (const Case& c : std::vector<Case>{
           {"whole, no last_assistant_message", std::nullopt, true, false, false},
           {"the same text", "The cause:\n\nthe disk is full.", true, false, false},
           {"the same text, joined and padded differently", "  The cause:\nthe disk is full.\n", true, false, false},
           {"an empty last_assistant_message", "", true, false, false},
           {"another text", "The cause: a full disk.", true, false, true},
           {"the file's text is only the start", "The cause:\n\nthe disk is full. And more.", true, false, true},
           {"the last call has no result", std::nullopt, false, false, true},
           {"a SubagentStop read from the main file", "Other text.", false, true, false},
       }) {
    INFO(c.name);
    HookRequest request;
    request.last_assistant_message = c.last;
    request.is_subagent = c.subagent_without_file;
    turn.tool_calls[0].has_result = c.result;
    CHECK((adapters::ClaudeTurnLag(request, turn) != nullptr) == c.lagging);
  }
  // A final message cut at kMaxMessageBytes is the start of the agent's.
  evidence::Turn cut;
  cut.final_message = std::string(limits::kMaxMessageBytes, 'a');
  HookRequest request;
  request.last_assistant_message = cut.final_message + "bbb";
  CHECK(adapters::ClaudeTurnLag(request, cut) == nullptr);
}

const std::string kQuote =
    std::string("The export failed because the disk is full: `") + testing::kDfOutput + "`.";

json ClaudeInput(const std::string& path, const std::string& last, bool active = false) {
  return {{"session_id", "s1"}, {"hook_event_name", "Stop"}, {"transcript_path", path},
          {"stop_hook_active", active}, {"last_assistant_message", last}};
}

TEST_CASE("claude-code: a tool result written after the hook fired supports the quote") {
  WaitScope wait(kGenerousWaitMs);
  evidence::testing::TempDir dir;
  // At hook time: the call, no result, no final text (research F1).
  const std::string path =
      dir.Write("t.jsonl", {Prompt(testing::kPrompt), ToolUse("m1", "t1", "Bash", {{"command", "df -h /srv"}})});
  LateWriter rest(path, {Result("t1", testing::kDfOutput), Text("m2", kQuote)});
  const Timed t = TimedGate(ClaudeInput(path, kQuote), Agent::kClaudeCode);
  REQUIRE(t.result.judged);
  CHECK(t.elapsed >= kLag);
  CHECK(t.elapsed < milliseconds(10000));
  REQUIRE(t.result.turn.tool_calls.size() == 1);
  CHECK(t.result.turn.tool_calls[0].has_result);
  CHECK_FALSE(AnyFinding(t.result.verdict, rules::Finding::kFabricated));
  CHECK(AnyFinding(t.result.verdict, rules::Finding::kSupported));
  CHECK(t.result.outcome.action == rules::Action::kAllow);
}

TEST_CASE("claude-code: an earlier block's feedback line written after the hook fired is counted") {
  WaitScope wait(kGenerousWaitMs);
  evidence::testing::TempDir dir;
  const std::string claim = testing::kClaim;
  const std::string feedback = "Stop hook feedback:\ncausegate blocked this stop: 1 causal claim ... block ";
  // Third stop after two blocks; the second block's feedback line and the
  // answer after it are not written yet.
  const std::string path = dir.Write(
      "t.jsonl", {Prompt(testing::kPrompt), ToolUse("m1", "t1", "Bash", {{"command", "df -h /srv"}}),
                  Result("t1", testing::kDfOutput), Text("m2", claim), Meta(feedback + "1"), Text("m3", claim + " Really.")});
  const std::string last = claim + " Definitely.";
  LateWriter rest(path, {Meta(feedback + "2"), Text("m4", last)});
  const Timed t = TimedGate(ClaudeInput(path, last, /*active=*/true), Agent::kClaudeCode);
  REQUIRE(t.result.judged);
  CHECK(t.elapsed >= kLag);
  CHECK(t.result.prior_blocks == 2);
  CHECK(t.result.outcome.action == rules::Action::kAllowUnproven);
}

TEST_CASE("claude-code: a whole transcript is judged at once, a lagging one within the bound") {
  evidence::testing::TempDir dir;
  const std::string whole = dir.Write("whole.jsonl", {Prompt(testing::kPrompt),
                                                      ToolUse("m1", "t1", "Bash", {{"command", "df -h /srv"}}),
                                                      Result("t1", testing::kDfOutput), Text("m2", kQuote)});
  {
    WaitScope wait(kGenerousWaitMs);
    const Timed t = TimedGate(ClaudeInput(whole, kQuote), Agent::kClaudeCode);
    REQUIRE(t.result.judged);
    CHECK(t.result.outcome.action == rules::Action::kAllow);
    CHECK(t.elapsed < milliseconds(1000));  // a wait would take 10 s
  }
  // Never completed: judged as read once the bound has passed.
  WaitScope wait("400");
  const std::string stuck =
      dir.Write("stuck.jsonl", {Prompt(testing::kPrompt), ToolUse("m1", "t1", "Bash", {{"command", "df -h /srv"}})});
  const Timed t = TimedGate(ClaudeInput(stuck, kQuote), Agent::kClaudeCode);
  REQUIRE(t.result.judged);
  CHECK(t.elapsed >= milliseconds(400));
  CHECK(t.elapsed < milliseconds(400) + kSlack);
  CHECK(AnyFinding(t.result.verdict, rules::Finding::kFabricated));
}

// A turn quicker than one flush: at hook time the file holds only the
// bookkeeping Claude Code writes before the prompt, or does not exist.
std::string QueueLine() {
  return json{{"type", "queue-operation"}, {"operation", "enqueue"}, {"timestamp", "2026-03-01T10:00:00.000Z"},
              {"sessionId", "s1"}}
      .dump();
}

std::vector<std::string> WholeTurn() {
  return {Prompt(testing::kPrompt), ToolUse("m1", "t1", "Bash", {{"command", "df -h /srv"}}),
          Result("t1", testing::kDfOutput), Text("m2", testing::kClaim)};
}

TEST_CASE("claude-code: a turn not yet flushed at all is judged once it lands, and its claim blocks") {
  WaitScope wait(kGenerousWaitMs);
  evidence::testing::TempDir dir;
  const std::string queued = dir.Write("queued.jsonl", {QueueLine(), QueueLine()});
  const std::string missing = dir.File("missing.jsonl");
  for (const std::string& path : {queued, missing}) {
    INFO(path);
    LateWriter rest(path, WholeTurn());
    const Timed t = TimedGate(ClaudeInput(path, testing::kClaim), Agent::kClaudeCode);
    REQUIRE(t.result.judged);
    CHECK(t.elapsed >= kLag);
    REQUIRE(t.result.turn.tool_calls.size() == 1);
    CHECK(t.result.outcome.action == rules::Action::kBlock);
  }
}

TEST_CASE("claude-code: a transcript never written fails open after the bound and says it waited") {
  evidence::testing::TempDir dir;
  const std::string queued = dir.Write("queued.jsonl", {QueueLine()});
  const std::string missing = dir.File("missing.jsonl");
  for (const std::string& path : {queued, missing}) {
    INFO(path);
    WaitScope wait("400");
    const Timed t = TimedGate(ClaudeInput(path, testing::kClaim), Agent::kClaudeCode);
    CHECK_FALSE(t.result.judged);
    CHECK(t.result.output.empty());
    CHECK_THAT(t.result.fail_open_reason, Catch::Contains("after waiting") && Catch::Contains(kTranscriptWaitEnv));
    CHECK(t.elapsed >= milliseconds(400));
    CHECK(t.elapsed < milliseconds(400) + kSlack);
  }
  // A folder is not a file being written: no wait.
  WaitScope wait(kGenerousWaitMs);
  const Timed t = TimedGate(ClaudeInput(dir.path(), testing::kClaim), Agent::kClaudeCode);
  CHECK_FALSE(t.result.judged);
  CHECK(t.elapsed < milliseconds(1000));
}

// ---- Copilot CLI ----

std::string Event(const char* type, const json& data) {
  return json{{"type", type}, {"data", data}, {"id", "e"}, {"timestamp", "2026-03-01T10:00:00.000Z"},
              {"parentId", nullptr}}
      .dump();
}

// The session file up to where agentStop finds it (research D1): the
// prompt, the tool call and its result, the next assistant turn started.
std::vector<std::string> EventsBeforeAnswer() {
  return {Event("session.start", {{"sessionId", "01HW"}, {"version", 1}, {"producer", "copilot-agent"}}),
          Event("user.message", {{"content", testing::kPrompt}, {"attachments", json::array()}}),
          Event("assistant.turn_start", {{"turnId", "0"}}),
          Event("assistant.message",
                {{"messageId", "m1"}, {"content", ""},
                 {"toolRequests", {{{"toolCallId", "c1"}, {"name", "bash"}, {"arguments", {{"command", "df -h /srv"}}}}}}}),
          Event("tool.execution_complete", {{"toolCallId", "c1"}, {"success", true}}),
          Event("assistant.turn_end", {{"turnId", "0"}}),
          Event("assistant.turn_start", {{"turnId", "1"}})};
}

std::string Answer(const std::string& text) {
  return Event("assistant.message", {{"messageId", "m2"}, {"content", text}, {"toolRequests", json::array()}});
}

// Logs the prompt and the tool call through the observe-only hooks, and
// returns the agentStop input for the session file at path.
json CopilotStop(const std::string& path) {
  const json base = {{"timestamp", 1704614750000}, {"cwd", "/home/u/src"}, {"sessionId", "01HW"}};
  json prompt = base;
  prompt["prompt"] = testing::kPrompt;
  REQUIRE(RunGate(prompt.dump(), Agent::kCopilot, testing::BuiltinRules(), GateOptions()).recorded);
  json tool = base;
  tool["toolName"] = "bash";
  tool["toolArgs"] = {{"command", "df -h /srv"}};
  tool["toolResult"] = {{"resultType", "success"}, {"textResultForLlm", testing::kDfOutput}};
  REQUIRE(RunGate(tool.dump(), Agent::kCopilot, testing::BuiltinRules(), GateOptions()).recorded);
  json stop = base;
  stop["transcriptPath"] = path;
  stop["stopReason"] = "end_turn";
  return stop;
}

TEST_CASE("copilot: an answer written after agentStop is judged, and an unsupported claim blocks") {
  WaitScope wait(kGenerousWaitMs);
  testing::StateScope state;
  struct Case {
    const char* name;
    bool file_at_hook_time;
  };
  for (const Case& c : {Case{"file ends at assistant.turn_start", true}, Case{"file not created yet", false}}) {
    INFO(c.name);
    const std::string path = state.dir().File(std::string("events-") + (c.file_at_hook_time ? "a" : "b") + ".jsonl");
    std::vector<std::string> rest = EventsBeforeAnswer();
    if (c.file_at_hook_time) {
      state.dir().Write(path.substr(path.rfind('/') + 1), rest);
      rest.clear();
    }
    rest.push_back(Answer(testing::kClaim));
    const json stop = CopilotStop(path);
    LateWriter writer(path, rest);
    const Timed t = TimedGate(stop, Agent::kCopilot);
    REQUIRE(t.result.judged);
    CHECK(t.elapsed >= kLag);
    CHECK(t.result.turn.final_message == testing::kClaim);
    CHECK(t.result.outcome.action == rules::Action::kBlock);
    CHECK(json::parse(t.result.output)["decision"] == "block");
  }
}

TEST_CASE("copilot: after a block, the blocked answer still last in the file is not the retry's") {
  WaitScope wait(kGenerousWaitMs);
  testing::StateScope state;
  std::vector<std::string> events = EventsBeforeAnswer();
  events.push_back(Answer(testing::kClaim));
  const std::string path = state.dir().Write("events.jsonl", events);
  const json stop = CopilotStop(path);
  const GateResult first = RunGate(stop.dump(), Agent::kCopilot, testing::BuiltinRules(), GateOptions());
  REQUIRE(first.outcome.action == rules::Action::kBlock);
  // Copilot enqueues the reason as the next prompt: userPromptSubmitted
  // logs it at once, the session file gets it (and the retry) late.
  json prompt = {{"timestamp", 1704614760000}, {"cwd", "/home/u/src"}, {"sessionId", "01HW"},
                 {"prompt", first.outcome.reason}};
  REQUIRE(RunGate(prompt.dump(), Agent::kCopilot, testing::BuiltinRules(), GateOptions()).recorded);
  const std::string retry = "Hypothesis: the volume may be full; next I will compare df with du to test it.";
  LateWriter writer(path, {Event("user.message", {{"content", first.outcome.reason}}),
                           Event("assistant.turn_start", {{"turnId", "2"}}), Answer(retry)});
  json again = stop;
  again["stopHookActive"] = true;
  const Timed t = TimedGate(again, Agent::kCopilot);
  REQUIRE(t.result.judged);
  CHECK(t.elapsed >= kLag);
  CHECK(t.result.turn.final_message == retry);
  CHECK(t.result.prior_blocks == 1);
}

TEST_CASE("copilot: narration before a tool call is not the answer") {
  WaitScope wait(kGenerousWaitMs);
  testing::StateScope state;
  std::vector<std::string> events = EventsBeforeAnswer();
  events.push_back(Event("assistant.message",
                         {{"messageId", "m2"}, {"content", "Let me look at the disk."},
                          {"toolRequests", {{{"toolCallId", "c2"}, {"name", "bash"}, {"arguments", {{"command", "df"}}}}}}}));
  const std::string path = state.dir().Write("events.jsonl", events);
  const json stop = CopilotStop(path);
  LateWriter writer(path, {Event("tool.execution_complete", {{"toolCallId", "c2"}, {"success", true}}),
                           Answer(testing::kClaim)});
  const Timed t = TimedGate(stop, Agent::kCopilot);
  REQUIRE(t.result.judged);
  CHECK(t.result.turn.final_message == testing::kClaim);
  CHECK(t.result.outcome.action == rules::Action::kBlock);
}

TEST_CASE("copilot: no answer within the bound fails open and says it timed out waiting") {
  testing::StateScope state;
  const std::string stuck = state.dir().Write("events.jsonl", EventsBeforeAnswer());
  const std::string missing = state.dir().File("missing.jsonl");
  for (const std::string& path : {stuck, missing}) {
    INFO(path);
    const json stop = CopilotStop(path);
    WaitScope wait("400");
    const Timed t = TimedGate(stop, Agent::kCopilot);
    CHECK_FALSE(t.result.judged);
    CHECK(t.result.output.empty());
    CHECK_THAT(t.result.fail_open_reason, Catch::Contains("timed out after") && Catch::Contains("waiting for") &&
                                               Catch::Contains(kTranscriptWaitEnv));
    CHECK(t.elapsed >= milliseconds(400));
    CHECK(t.elapsed < milliseconds(400) + kSlack);
  }
  // A whole session file is read once.
  WaitScope wait(kGenerousWaitMs);
  std::vector<std::string> events = EventsBeforeAnswer();
  events.push_back(Answer(testing::kClaim));
  const json stop = CopilotStop(state.dir().Write("whole.jsonl", events));
  const Timed t = TimedGate(stop, Agent::kCopilot);
  REQUIRE(t.result.judged);
  CHECK(t.result.outcome.action == rules::Action::kBlock);
  CHECK(t.elapsed < milliseconds(1000));
}

}  // namespace
}  // namespace causegate::gate
