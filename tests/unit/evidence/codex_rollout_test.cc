// Codex CLI rollouts through the transcript readers: the real sample in
// research/fixtures, synthetic rollouts shaped like it (every line kind
// codex_rollout.h lists), older rollouts without user_message events, hook
// prompts, damaged lines, and format detection.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "evidence/codex_rollout.h"
#include "evidence/limits.h"
#include "evidence/line_reader.h"
#include "evidence/transcript.h"
#include "unit/evidence/reread_check.h"
#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using testing::json;
using testing::TempDir;

std::string FixtureDir() { return std::string(CAUSEGATE_SHARED_DIR) + "/research/fixtures"; }
bool HaveFixture() {
  std::ifstream in(FixtureDir() + "/codex-cli_0.77.0_rollout_sample.jsonl");
  return static_cast<bool>(in);
}

// One rollout line: {"timestamp", "type", "payload"}.
std::string Line(const char* type, const json& payload) {
  return json{{"timestamp", "2026-03-02T10:00:00.000Z"}, {"type", type}, {"payload", payload}}.dump();
}
std::string Event(const json& payload) { return Line("event_msg", payload); }
std::string Item(const json& payload) { return Line("response_item", payload); }

std::string UserMessage(const std::string& text) {
  return Event({{"type", "user_message"}, {"message", text}, {"images", json::array()}});
}
std::string UserItem(const std::string& text) {
  return Item({{"type", "message"}, {"role", "user"}, {"content", {{{"type", "input_text"}, {"text", text}}}}});
}
std::string AssistantItem(const std::string& text) {
  return Item({{"type", "message"}, {"role", "assistant"}, {"content", {{{"type", "output_text"}, {"text", text}}}}});
}
std::string FunctionCall(const std::string& id, const std::string& name, const json& arguments) {
  return Item({{"type", "function_call"}, {"name", name}, {"arguments", arguments.dump()}, {"call_id", id}});
}
std::string FunctionOutput(const std::string& id, const json& output) {
  return Item({{"type", "function_call_output"}, {"call_id", id}, {"output", output}});
}
std::string TaskComplete(const std::string& turn_id, const std::string& last) {
  return Event({{"type", "task_complete"}, {"turn_id", turn_id}, {"last_agent_message", last}});
}
std::string SessionMeta() {
  return Line("session_meta", {{"id", "019b64e5-0000-7000-8000-000000000001"},
                               {"cwd", "/srv/app"},
                               {"originator", "codex_cli_rs"},
                               {"cli_version", "0.77.0"}});
}

std::vector<Turn> AllTurns(const std::string& path) {
  std::vector<Turn> turns;
  const Status s = ForEachTurn(path, SessionKind::kMain, [&turns](const Turn& t, int index) {
    CHECK(index == static_cast<int>(turns.size()));
    turns.push_back(t);
    return true;
  });
  REQUIRE(s.ok());
  CHECK(testing::CheckRereads(path, SessionKind::kMain) == static_cast<int>(turns.size()));
  return turns;
}

TEST_CASE("fixture: the Codex CLI 0.77.0 rollout sample", "[codex]") {
  if (!HaveFixture()) {
    WARN("SKIP: ../shared/research/fixtures not present");
    return;
  }
  const std::string path = FixtureDir() + "/codex-cli_0.77.0_rollout_sample.jsonl";
  TranscriptFormat format = TranscriptFormat::kUnknown;
  REQUIRE(DetectTranscriptFormat(path, &format).ok());
  CHECK(format == TranscriptFormat::kCodexRollout);

  LastTurn last;
  const Status s = ReadLastTurn(path, SessionKind::kMain, &last);
  REQUIRE(s.ok());
  // The typed prompt is the user_message event (line 5), not the injected
  // AGENTS.md and <environment_context> messages before it.
  CHECK(last.turn.prompt.rfind("can you analyse the MD files in this directory", 0) == 0);
  CHECK(last.turn.prompt_line == 5);
  CHECK(last.turn.final_message.empty());  // the sample ends before any answer
  CHECK(last.turn.tool_calls.empty());
  CHECK(last.turn.stop_feedback.empty());
  const std::vector<Turn> turns = AllTurns(path);
  REQUIRE(turns.size() == 1);
  CHECK(turns[0].prompt == last.turn.prompt);
}

// A two-turn rollout with every kind of line the reader uses.
std::vector<std::string> Rollout() {
  return {
      SessionMeta(),                                                                          // 1
      Event({{"type", "task_started"}, {"turn_id", "1"}}),                                    // 2
      UserItem("# AGENTS.md instructions for /srv/app\n\n<INSTRUCTIONS>be brief</INSTRUCTIONS>"),  // 3
      UserItem("<environment_context>\n  <cwd>/srv/app</cwd>\n</environment_context>"),     // 4
      UserItem("why does the export job die?"),                                               // 5
      UserMessage("why does the export job die?"),                                            // 6
      Line("turn_context", {{"cwd", "/srv/app"}, {"model", "gpt-5.2-codex"}}),                // 7
      Item({{"type", "reasoning"}, {"summary", json::array()}, {"encrypted_content", "gAAA"}}),  // 8
      FunctionCall("call_1", "shell",
                   {{"command", {"bash", "-lc", "journalctl -u export --no-pager | tail -5"}},
                    {"workdir", "/srv/app"}}),                                                // 9
      FunctionOutput("call_1", json{{"output", "Mar 02 export[812]: Out of memory: Killed process 812"},
                                    {"metadata", {{"exit_code", 1}, {"duration_seconds", 0.4}}}}
                                   .dump()),                                                  // 10
      Item({{"type", "custom_tool_call"},
            {"status", "completed"},
            {"call_id", "call_2"},
            {"name", "apply_patch"},
            {"input", "*** Begin Patch\n*** Update File: job.py\n+BATCH = 100\n*** End Patch"}}),  // 11
      Item({{"type", "custom_tool_call_output"}, {"call_id", "call_2"}, {"output", "Success. Updated job.py"}}),  // 12
      FunctionCall("call_3", "exec_command", {{"cmd", "free -m"}}),                            // 13
      FunctionOutput("call_3", "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nMem: 64000 63900"),  // 14
      AssistantItem("Checking memory next."),                                                 // 15
      AssistantItem("The job died because `Out of memory: Killed process 812`."),             // 16
      Event({{"type", "agent_message"}, {"message", "The job died because `Out of memory: Killed process 812`."}}),
      TaskComplete("1", "The job died because `Out of memory: Killed process 812`."),         // 18
      Event({{"type", "token_count"}, {"info", nullptr}}),                                    // 19
      Event({{"type", "task_started"}, {"turn_id", "2"}}),                                    // 20
      UserItem("and the nightly run?"),                                                        // 21
      UserMessage("and the nightly run?"),                                                     // 22
      AssistantItem("It died because the disk filled up."),                                   // 23
      Item({{"type", "message"},
            {"role", "user"},
            {"content",
             {{{"type", "input_text"},
               {"text", "<hook_prompt hook_run_id=\"stop:0:/home/u/.codex/hooks.json\">causegate blocked this "
                        "stop: &quot;it&quot; &amp; more</hook_prompt>"}}}}}),                 // 24
      FunctionCall("call_4", "shell_command", {{"command", "df -h /var"}}),                    // 25
      FunctionOutput("call_4", json::array({{{"type", "input_text"}, {"text", "/dev/sda1 100% /var"}}})),  // 26
      AssistantItem("The nightly run died because `/dev/sda1 100% /var`."),                   // 27
      TaskComplete("2", "The nightly run died because `/dev/sda1 100% /var`."),              // 28
  };
}

TEST_CASE("a rollout: prompts, calls, outputs, final text and hook feedback", "[codex]") {
  TempDir dir;
  const std::string path = dir.Write("rollout-2026-03-02T10-00-00-x.jsonl", Rollout());
  TranscriptFormat format = TranscriptFormat::kUnknown;
  REQUIRE(DetectTranscriptFormat(path, &format).ok());
  CHECK(format == TranscriptFormat::kCodexRollout);

  const std::vector<Turn> turns = AllTurns(path);
  REQUIRE(turns.size() == 2);
  const Turn& first = turns[0];
  CHECK(first.prompt == "why does the export job die?");
  CHECK(first.prompt_line == 6);
  REQUIRE(first.tool_calls.size() == 3);
  struct Expect {
    const char* id;
    const char* name;
    const char* command;
    const char* output;
    bool is_error;
  };
  const std::vector<Expect> expected = {
      {"call_1", "shell", "journalctl -u export --no-pager | tail -5",
       "Mar 02 export[812]: Out of memory: Killed process 812", true},
      {"call_2", "apply_patch", "", "Success. Updated job.py", false},
      {"call_3", "exec_command", "free -m", "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nMem: 64000 63900", false},
  };
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("call " << i);
    const ToolCall& call = first.tool_calls[i];
    CHECK(call.id == expected[i].id);
    CHECK(call.name == expected[i].name);
    CHECK(call.command == expected[i].command);
    CHECK(call.has_result);
    CHECK(call.output == expected[i].output);
    CHECK(call.is_error == expected[i].is_error);
    CHECK(call.line == static_cast<std::int64_t>(i == 0 ? 9 : i == 1 ? 11 : 13));
  }
  CHECK(json::parse(first.tool_calls[1].input)["input"].get<std::string>().find("+BATCH = 100") != std::string::npos);
  CHECK(first.final_message == "The job died because `Out of memory: Killed process 812`.");
  CHECK(first.final_line == 18);  // task_complete
  CHECK(first.narration.size() == 2);
  CHECK(first.stop_feedback.empty());

  const Turn& second = turns[1];
  CHECK(second.prompt == "and the nightly run?");
  REQUIRE(second.stop_feedback.size() == 1);
  CHECK(second.stop_feedback[0] == "causegate blocked this stop: \"it\" & more");
  REQUIRE(second.tool_calls.size() == 1);
  CHECK(second.tool_calls[0].name == "shell");
  CHECK(second.tool_calls[0].command == "df -h /var");
  CHECK(second.tool_calls[0].output == "/dev/sda1 100% /var");
  CHECK(second.final_message == "The nightly run died because `/dev/sda1 100% /var`.");

  // The hook's reader: the same last turn, and the earlier one as history.
  LastTurn last;
  REQUIRE(ReadLastTurn(path, SessionKind::kMain, &last).ok());
  CHECK(last.turn.prompt == second.prompt);
  CHECK(last.turn.final_message == second.final_message);
  CHECK(last.turn.final_line == 28);
  CHECK(last.turn.stop_feedback == second.stop_feedback);
  REQUIRE(last.turn.tool_calls.size() == 1);
  CHECK(last.turn.tool_calls[0].output == second.tool_calls[0].output);
  PastTurn past;
  REQUIRE(last.history->LoadOlder(&past));
  CHECK(past.prompt == first.prompt);
  CHECK(past.turns_back == 1);
  REQUIRE(past.tool_calls.size() == 3);
  CHECK(past.tool_calls[0].turns_back == 1);
  CHECK_FALSE(last.history->LoadOlder(&past));
}

TEST_CASE("an older rollout without user_message events", "[codex]") {
  TempDir dir;
  const std::string path = dir.Write(
      "old.jsonl", {SessionMeta(), UserItem("<user_instructions>\nbe brief\n</user_instructions>"),
                    UserItem("<environment_context>\n<cwd>/x</cwd>\n</environment_context>"), UserItem("first question"),
                    AssistantItem("first answer"), UserItem("second question"), FunctionCall("c1", "shell", {{"command", {"ls"}}}),
                    FunctionOutput("c1", "a.txt"), AssistantItem("second answer")});
  const std::vector<Turn> turns = AllTurns(path);
  REQUIRE(turns.size() == 2);
  CHECK(turns[0].prompt == "first question");
  CHECK(turns[0].final_message == "first answer");
  CHECK(turns[1].prompt == "second question");
  CHECK(turns[1].tool_calls.size() == 1);
  CHECK(turns[1].tool_calls[0].command == "ls");
  LastTurn last;
  REQUIRE(ReadLastTurn(path, SessionKind::kMain, &last).ok());
  CHECK(last.turn.prompt == "second question");
  CHECK(last.turn.final_message == "second answer");
}

// Codex 0.171 writes the typed prompt as a completed UserMessage item.
std::string UserMessageItem(const std::string& turn_id, const std::string& text) {
  return Event({{"type", "item_completed"},
                {"thread_id", "t"},
                {"turn_id", turn_id},
                {"item", {{"type", "UserMessage"}, {"id", "i-" + turn_id}, {"content", {{{"type", "text"}, {"text", text}}}}}}});
}
std::string TaskStarted(const std::string& turn_id) {
  return Event({{"type", "task_started"}, {"turn_id", turn_id}, {"model_context_window", 272000}});
}
std::string HookPromptItem(const std::string& reason) {
  return UserItem("<hook_prompt hook_run_id=\"stop:0:/h/.codex/hooks.json\">" + reason + "</hook_prompt>");
}

TEST_CASE("a rollout resumed across Codex versions is read turn by turn", "[codex]") {
  TempDir dir;
  const std::string path = dir.Write(
      "rollout-mixed.jsonl",
      {SessionMeta(), UserItem("<environment_context>\n<cwd>/srv/app</cwd>\n</environment_context>"),
       // Turn 1, written by Codex 0.77: user_message events.
       UserItem("why does the export job die?"), UserMessage("why does the export job die?"),
       FunctionCall("c1", "shell", {{"command", {"bash", "-lc", "tail -1 export.log"}}}),
       FunctionOutput("c1", "Out of memory: Killed process 812"), AssistantItem("It died because it ran out of memory."),
       HookPromptItem("causegate blocked this stop: ..."),
       TaskComplete("", "The job died because `Out of memory: Killed process 812`."),
       // Turn 2, after `codex exec resume` with Codex 0.171: no user_message.
       Line("session_meta", {{"id", "019b64e5-0000-7000-8000-000000000001"}, {"cli_version", "0.171.0"}}),
       TaskStarted("turn-2"), UserItem("and the nightly run?"), UserMessageItem("turn-2", "and the nightly run?"),
       FunctionCall("c2", "exec_command", {{"cmd", "df -h /var"}}), FunctionOutput("c2", "/dev/sda1 100% /var"),
       AssistantItem("The nightly run died because the disk is full."),
       TaskComplete("turn-2", "The nightly run died because the disk is full.")});

  const std::vector<Turn> turns = AllTurns(path);
  REQUIRE(turns.size() == 2);
  CHECK(turns[0].prompt == "why does the export job die?");
  CHECK(turns[0].stop_feedback.size() == 1);
  REQUIRE(turns[0].tool_calls.size() == 1);
  CHECK(turns[0].tool_calls[0].command == "tail -1 export.log");
  CHECK(turns[1].prompt == "and the nightly run?");
  CHECK(turns[1].prompt_line == 13);
  CHECK(turns[1].stop_feedback.empty());
  REQUIRE(turns[1].tool_calls.size() == 1);
  CHECK(turns[1].tool_calls[0].command == "df -h /var");
  CHECK(turns[1].final_message == "The nightly run died because the disk is full.");

  LastTurn last;
  REQUIRE(ReadLastTurn(path, SessionKind::kMain, &last).ok());
  CHECK(last.turn.prompt == "and the nightly run?");
  CHECK(last.turn.stop_feedback.empty());
  CHECK(last.turn.tool_calls.size() == 1);
  PastTurn past;
  REQUIRE(last.history->LoadOlder(&past));
  CHECK(past.prompt == "why does the export job die?");
  CHECK_FALSE(last.history->LoadOlder(&past));
}

TEST_CASE("a prompt written as both event shapes is one turn", "[codex]") {
  TempDir dir;
  const std::string path = dir.Write(
      "rollout-both.jsonl",
      {SessionMeta(), UserMessageItem("u1", "first question"), UserMessage("first question"),
       AssistantItem("first answer"), UserMessageItem("u2", "second question"), UserMessage("second question"),
       FunctionCall("c1", "shell", {{"command", {"ls"}}}), FunctionOutput("c1", "a.txt"), AssistantItem("second answer")});
  const std::vector<Turn> turns = AllTurns(path);
  REQUIRE(turns.size() == 2);
  CHECK(turns[0].prompt == "first question");
  CHECK(turns[0].final_message == "first answer");
  CHECK(turns[1].prompt == "second question");
  CHECK(turns[1].prompt_line == 6);
  CHECK(turns[1].tool_calls.size() == 1);
  LastTurn last;
  REQUIRE(ReadLastTurn(path, SessionKind::kMain, &last).ok());
  CHECK(last.turn.prompt == "second question");
  CHECK(last.turn.prompt_line == 6);
  PastTurn past;
  REQUIRE(last.history->LoadOlder(&past));
  CHECK(past.prompt == "first question");
  CHECK_FALSE(last.history->LoadOlder(&past));
}

TEST_CASE("commands from a call's arguments", "[codex]") {
  struct Case {
    const char* name;
    json arguments;
    const char* command;
  };
  const std::vector<Case> cases = {
      {"bash -lc script", {{"command", {"bash", "-lc", "grep -n OOM /var/log/app.log"}}}, "grep -n OOM /var/log/app.log"},
      {"/bin/sh -c script", {{"command", {"/bin/sh", "-c", "ls -la"}}}, "ls -la"},
      {"argv joined", {{"command", {"rg", "-n", "out of memory", "logs/"}}}, "rg -n 'out of memory' logs/"},
      {"quote in a word", {{"command", {"echo", "it's"}}}, "echo 'it'\\''s'"},
      {"command string", {{"command", "git status"}}, "git status"},
      {"cmd string", {{"cmd", "pytest -x"}, {"yield_time_ms", 1000}}, "pytest -x"},
      {"a path", {{"path", "src/job.py"}}, "src/job.py"},
      {"nothing", {{"limit", 3}}, ""},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const LineRecord rec = ParseCodexLine(FunctionCall("x", "shell", c.arguments), CodexPrompts::kEvents);
    REQUIRE(rec.kind == LineRecord::Kind::kAssistant);
    REQUIRE(rec.blocks.size() == 1);
    CHECK(rec.blocks[0].call.command == c.command);
    CHECK(json::parse(rec.blocks[0].call.input) == c.arguments);
  }
}

TEST_CASE("hook prompts", "[codex]") {
  struct Case {
    const char* text;
    bool is_hook;
    const char* reason;
  };
  const std::vector<Case> cases = {
      {"<hook_prompt hook_run_id=\"stop:1\">retry</hook_prompt>", true, "retry"},
      {"  <hook_prompt hook_run_id='a'>a &lt; b &amp;&amp; c &#x4e2d;&#25991;</hook_prompt>\n", true, "a < b && c 中文"},
      {"<hook_prompt>bare</hook_prompt>", true, "bare"},
      {"<hook_prompts x=\"1\">no</hook_prompts>", false, ""},
      {"<hook_prompt hook_run_id=\"1\">unclosed", false, ""},
      {"please look at <hook_prompt> tags", false, ""},
      {"<hook_prompt hook_run_id=\"1\">&bogus; &#xD800; kept</hook_prompt>", true, "&bogus; &#xD800; kept"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    std::string reason;
    CHECK(ParseHookPrompt(c.text, &reason) == c.is_hook);
    if (c.is_hook) CHECK(reason == c.reason);
  }
}

TEST_CASE("damaged rollout lines", "[codex]") {
  SECTION("a bad byte in a tool output is read as U+FFFD") {
    std::string line = FunctionOutput("c1", "killed process 812 XX");
    line.replace(line.find("XX"), 2, "\xff");
    const LineRecord rec = ParseCodexLine(line, CodexPrompts::kEvents);
    REQUIRE(rec.kind == LineRecord::Kind::kToolResults);
    CHECK(rec.results[0].output == "killed process 812 \xef\xbf\xbd");
  }
  SECTION("nesting past kMaxJsonDepth is unreadable, at the limit is read") {
    auto nested = [](int depth) {
      std::string value = "1";
      for (int i = 0; i < depth; ++i) value = "[" + value + "]";
      return R"({"type":"response_item","payload":{"type":"reasoning","x":)" + value + "}}";
    };
    // The envelope and payload objects are two levels.
    CHECK(ParseCodexLine(nested(limits::kMaxJsonDepth - 2), CodexPrompts::kEvents).kind == LineRecord::Kind::kIgnored);
    CHECK(ParseCodexLine(nested(limits::kMaxJsonDepth - 1), CodexPrompts::kEvents).kind ==
          LineRecord::Kind::kUnreadable);
  }
  SECTION("not JSON, not an object, no payload") {
    CHECK(ParseCodexLine("{\"type\":\"event_msg\",\"payl", CodexPrompts::kEvents).kind == LineRecord::Kind::kUnreadable);
    CHECK(ParseCodexLine("[1,2]", CodexPrompts::kEvents).kind == LineRecord::Kind::kUnreadable);
    CHECK(ParseCodexLine(R"({"type":"event_msg"})", CodexPrompts::kEvents).kind == LineRecord::Kind::kIgnored);
    CHECK(ParseCodexLine(R"({"type":"event_msg","payload":{"type":"user_message","message":7}})",
                         CodexPrompts::kEvents)
              .kind == LineRecord::Kind::kIgnored);
  }
  SECTION("a cut-off last line marks the turn") {
    TempDir dir;
    std::vector<std::string> lines = {SessionMeta(), UserMessage("why?"), AssistantItem("Because `x y z w v u`."),
                                      R"({"timestamp":"2026-03-02T10:00:00.000Z","type":"event_msg","payload":{"ty)"};
    const std::string path = dir.Write("cut.jsonl", lines, /*final_newline=*/false);
    LastTurn last;
    REQUIRE(ReadLastTurn(path, SessionKind::kMain, &last).ok());
    CHECK(last.turn.truncated);
    CHECK(last.turn.final_message == "Because `x y z w v u`.");
  }
  SECTION("tool output is cut at kMaxToolOutputBytes") {
    const std::string big(limits::kMaxToolOutputBytes + 100, 'a');
    const LineRecord rec = ParseCodexLine(FunctionOutput("c1", big), CodexPrompts::kEvents);
    REQUIRE(rec.kind == LineRecord::Kind::kToolResults);
    CHECK(rec.results[0].output.size() == limits::kMaxToolOutputBytes);
  }
}

TEST_CASE("format detection", "[codex][format]") {
  TempDir dir;
  struct Case {
    const char* name;
    std::string path;
    bool ok;
    TranscriptFormat format;
    const char* error;
  };
  const std::vector<Case> cases = {
      {"claude code session", dir.Write("a.jsonl", {testing::Snapshot(), testing::Prompt("q")}), true,
       TranscriptFormat::kClaudeCode, ""},
      {"claude code summary first", dir.Write("b.jsonl", {R"({"type":"summary","summary":"t","leafUuid":"x"})"}),
       true, TranscriptFormat::kClaudeCode, ""},
      {"codex rollout", dir.Write("c.jsonl", {SessionMeta(), UserMessage("q")}), true,
       TranscriptFormat::kCodexRollout, ""},
      {"a cut-off first line", dir.Write("d.jsonl", {R"({"timestamp":"x","ty)", UserMessage("q")}), true,
       TranscriptFormat::kCodexRollout, ""},
      {"empty", dir.WriteRaw("e.jsonl", ""), true, TranscriptFormat::kUnknown, ""},
      {"blank lines", dir.WriteRaw("f.jsonl", "\n  \n\n"), true, TranscriptFormat::kUnknown, ""},
      {"other JSON lines", dir.Write("g.jsonl", {R"({"level":"info","msg":"started"})", R"({"level":"warn"})"}), false,
       TranscriptFormat::kUnknown, "unknown transcript format"},
      {"plain text", dir.Write("h.jsonl", {"hello", "world"}), false, TranscriptFormat::kUnknown,
       "unknown transcript format"},
      // Its header carries Claude Code's sessionId: Gemini is looked for first.
      {"gemini chat JSONL", dir.Write("session-1.jsonl", {R"({"sessionId":"s","projectHash":"p","startTime":"t","kind":"main"})",
                                                          R"({"$set":{"lastUpdated":"t"}})"}),
       true, TranscriptFormat::kGeminiChat, ""},
      {"gemini chat JSONL, message first", dir.Write("session-2.jsonl", {R"({"id":"g","type":"gemini","content":"x"})"}),
       true, TranscriptFormat::kGeminiChat, ""},
      {"gemini chat document on one line",
       dir.Write("session-3.json", {R"({"sessionId":"s","projectHash":"p","messages":[]})"}), true,
       TranscriptFormat::kGeminiChat, ""},
      {"gemini chat document, indented",
       dir.WriteRaw("session-4.json", "{\n  \"sessionId\": \"s\",\n  \"projectHash\": \"p\",\n  \"messages\": []\n}\n"),
       true, TranscriptFormat::kGeminiChat, ""},
      {"copilot events", dir.Write("events.jsonl", {R"({"type":"session.start","data":{"sessionId":"s"},"id":"e","timestamp":"t"})"}),
       true, TranscriptFormat::kCopilotEvents, ""},
      {"another agent's chat lines", dir.Write("i.jsonl", {R"({"role":"user","text":"hi"})", R"({"role":"model","text":"yo"})"}),
       false, TranscriptFormat::kUnknown, "unknown transcript format"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    TranscriptFormat format = TranscriptFormat::kClaudeCode;
    const Status s = DetectTranscriptFormat(c.path, &format);
    CHECK(s.ok() == c.ok);
    CHECK(format == c.format);
    // The peek on a file already open (ReadLastTurn's) says the same.
    std::unique_ptr<TranscriptFile> opened;
    REQUIRE(TranscriptFile::Open(c.path, &opened).ok());
    const std::shared_ptr<const TranscriptFile> file(std::move(opened));
    TranscriptFormat peeked = TranscriptFormat::kClaudeCode;
    const Status on_file = DetectTranscriptFormat(file, &peeked);
    CHECK(on_file.ok() == s.ok());
    CHECK(on_file.message() == s.message());
    CHECK(peeked == format);
    if (!c.ok) {
      CHECK(s.message().rfind(c.path + ": ", 0) == 0);
      CHECK(s.message().find(c.error) != std::string::npos);
      // The readers refuse the file with the same error.
      LastTurn last;
      CHECK(ReadLastTurn(c.path, SessionKind::kMain, &last).message() == s.message());
      CHECK(ForEachTurn(c.path, SessionKind::kMain, [](const Turn&, int) { return true; }).message() == s.message());
    }
  }
  TranscriptFormat format;
  CHECK_FALSE(DetectTranscriptFormat(dir.File("missing.jsonl"), &format).ok());
  CHECK(std::string(TranscriptFormatName(TranscriptFormat::kCodexRollout)) == "codex-rollout");
  CHECK(std::string(TranscriptFormatName(TranscriptFormat::kGeminiChat)) == "gemini-chat");
  CHECK(std::string(TranscriptFormatName(TranscriptFormat::kCopilotEvents)) == "copilot-events");
}

}  // namespace
}  // namespace causegate::evidence
