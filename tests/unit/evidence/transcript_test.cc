// Transcript readers: the real Claude Code fixtures from ../shared (skipped
// with a warning when that folder is absent, as in users' clones), then
// synthetic transcripts for each rule of turn assembly and each error.
#include "evidence/transcript.h"

#include <sys/stat.h>
#include <sys/types.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "evidence/limits.h"
#include "unit/evidence/reread_check.h"
#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using testing::json;
using testing::Meta;
using testing::Progress;
using testing::Prompt;
using testing::Result;
using testing::Snapshot;
using testing::System;
using testing::TempDir;
using testing::Text;
using testing::Thinking;
using testing::ToolUse;
using testing::UserBlocks;

std::string FixtureDir() { return std::string(CAUSEGATE_SHARED_DIR) + "/research/fixtures"; }

bool HaveFixtures() {
  std::error_code ec;
  if (std::filesystem::is_directory(FixtureDir(), ec)) return true;
  WARN("skipped: " << FixtureDir()
                   << " does not exist (the shared research folder is not part of a clone)");
  return false;
}

LastTurn MustReadLast(const std::string& path, SessionKind kind) {
  LastTurn last;
  const Status s = ReadLastTurn(path, kind, &last);
  INFO(s.message());
  REQUIRE(s.ok());
  REQUIRE(last.history != nullptr);
  return last;
}

std::vector<Turn> AllTurns(const std::string& path, SessionKind kind) {
  std::vector<Turn> turns;
  const Status s = ForEachTurn(path, kind, [&turns](const Turn& turn, int index) {
    CHECK(index == static_cast<int>(turns.size()));
    turns.push_back(turn);
    return true;
  });
  INFO(s.message());
  REQUIRE(s.ok());
  CHECK(testing::CheckRereads(path, kind) == static_cast<int>(turns.size()));
  return turns;
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// ReadLastTurn and the last turn of ForEachTurn must agree.
void CheckSameTurn(const Turn& a, const Turn& b) {
  CHECK(a.prompt == b.prompt);
  CHECK(a.final_message == b.final_message);
  CHECK(a.narration == b.narration);
  CHECK(a.stop_feedback == b.stop_feedback);
  CHECK(a.truncated == b.truncated);
  REQUIRE(a.tool_calls.size() == b.tool_calls.size());
  for (std::size_t i = 0; i < a.tool_calls.size(); ++i) {
    INFO("call " << i);
    CHECK(a.tool_calls[i].id == b.tool_calls[i].id);
    CHECK(a.tool_calls[i].input == b.tool_calls[i].input);
    CHECK(a.tool_calls[i].output == b.tool_calls[i].output);
    CHECK(a.tool_calls[i].is_error == b.tool_calls[i].is_error);
  }
}

// ---------------------------------------------------------------- fixtures

TEST_CASE("fixture: 2.1.38 short session, rejected tools and an interrupt", "[transcript]") {
  if (!HaveFixtures()) return;
  const std::string path = FixtureDir() + "/claude-code_2.1.38_short.jsonl";
  const LastTurn last = MustReadLast(path, SessionKind::kMain);
  const Turn& turn = last.turn;
  CHECK(turn.prompt == "mix phx.server doesnt seem to start");
  CHECK(turn.prompt_line == 4);
  // Line 5 is a "\n\n" text block and line 6 thinking; line 7 is the text.
  CHECK(turn.final_message ==
        "Let me check the project structure and try running the server to see the error.");
  CHECK(turn.final_line == 7);
  CHECK(turn.narration.empty());
  CHECK_FALSE(turn.truncated);
  CHECK(turn.stop_feedback.empty());
  REQUIRE(turn.tool_calls.size() == 2);
  CHECK(turn.tool_calls[0].name == "Bash");
  CHECK(turn.tool_calls[0].command == "mix phx.server 2>&1 | head -80");
  CHECK(turn.tool_calls[0].line == 8);
  CHECK(turn.tool_calls[0].is_error);
  CHECK(turn.tool_calls[0].has_result);
  CHECK(StartsWith(turn.tool_calls[0].output, "The user doesn't want to proceed"));
  CHECK(turn.tool_calls[1].name == "Glob");
  CHECK(turn.tool_calls[1].command == "mix.exs");
  CHECK(turn.tool_calls[1].line == 10);
  CHECK(turn.tool_calls[1].input == R"({"path":"/home/marco/projects/spotter","pattern":"mix.exs"})");
  PastTurn past;
  CHECK_FALSE(last.history->LoadOlder(&past));

  const std::vector<Turn> turns = AllTurns(path, SessionKind::kMain);
  REQUIRE(turns.size() == 1);
  CheckSameTurn(turns[0], turn);
}

TEST_CASE("fixture: 2.1.38 tool-heavy session, local commands and history", "[transcript]") {
  if (!HaveFixtures()) return;
  const std::string path = FixtureDir() + "/claude-code_2.1.38_tool_heavy.jsonl";
  LastTurn last = MustReadLast(path, SessionKind::kMain);
  const Turn& turn = last.turn;
  CHECK(StartsWith(turn.prompt, "scrolling back in xterm.js still does not work"));
  CHECK(turn.prompt_line == 26);
  CHECK(turn.final_message.empty());  // interrupted before any text
  CHECK(turn.final_line == 0);
  REQUIRE(turn.tool_calls.size() == 4);
  const std::vector<std::string> names = {"WebSearch", "Glob", "Read", "WebFetch"};
  const std::vector<std::string> commands = {
      "xterm.js scroll not working embedded page captures scroll events", "assets/js/**/*.js",
      "/home/marco/projects/spotter/assets/js/app.js",
      "https://github.com/xtermjs/xterm.js/issues/1343"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    INFO("call " << i);
    CHECK(turn.tool_calls[i].name == names[i]);
    CHECK(turn.tool_calls[i].command == commands[i]);
    CHECK(turn.tool_calls[i].has_result);
    CHECK_FALSE(turn.tool_calls[i].is_error);
    CHECK(turn.tool_calls[i].turns_back == 0);
  }
  CHECK(turn.tool_calls[1].output == "/home/marco/projects/spotter/assets/js/app.js");
  CHECK(StartsWith(turn.tool_calls[2].output, "     1\xe2\x86\x92import \"phoenix_html\""));

  // Older turns: the /mcp command (a prompt of its own), then the first.
  PastTurn past;
  REQUIRE(last.history->LoadOlder(&past));
  CHECK(StartsWith(past.prompt, "<command-name>/mcp</command-name>"));
  CHECK(past.turns_back == 1);
  CHECK(past.tool_calls.empty());
  REQUIRE(last.history->LoadOlder(&past));
  CHECK(past.prompt == "start phoenix in background");
  CHECK(past.turns_back == 2);
  REQUIRE(past.tool_calls.size() == 2);
  CHECK(past.tool_calls[0].turns_back == 2);
  CHECK(past.tool_calls[0].line == 5);
  CHECK(StartsWith(past.tool_calls[0].output, "Command running in background with ID: bae407b"));
  CHECK(past.tool_calls[1].command ==
        "tail -5 /tmp/claude-1000/-home-marco-projects-spotter/tasks/bae407b.output");
  CHECK(StartsWith(past.tool_calls[1].output, "  Serializer: Phoenix.Socket.V2.JSONSerializer"));
  CHECK_FALSE(last.history->LoadOlder(&past));
  CHECK_FALSE(last.history->LoadOlder(&past));

  const std::vector<Turn> turns = AllTurns(path, SessionKind::kMain);
  REQUIRE(turns.size() == 3);
  CHECK(turns[0].prompt == "start phoenix in background");
  CHECK(turns[0].final_message ==
        "Phoenix server is starting in the background.\n\nLet me check the MCP servers status.");
  CHECK(turns[0].final_line == 12);
  CHECK(turns[0].tool_calls.size() == 2);
  CheckSameTurn(turns[2], turn);
}

TEST_CASE("fixture: 2.1.39 subagent file", "[transcript]") {
  if (!HaveFixtures()) return;
  const std::string path = FixtureDir() + "/claude-code_2.1.39_subagent_agent-aac57f5.jsonl";
  const LastTurn last = MustReadLast(path, SessionKind::kSubagent);
  const Turn& turn = last.turn;
  CHECK(StartsWith(turn.prompt, "Search hex.pm for the latest versions"));
  CHECK(turn.prompt_line == 1);
  CHECK(StartsWith(turn.final_message, "Perfect! I now have all the version information"));
  CHECK(turn.final_line == 40);
  REQUIRE(turn.narration.size() == 2);
  CHECK(StartsWith(turn.narration[0], "I'll search hex.pm"));
  CHECK(StartsWith(turn.narration[1], "Let me fetch more specific version information"));
  REQUIRE(turn.tool_calls.size() == 12);
  for (std::size_t i = 0; i < turn.tool_calls.size(); ++i) {
    INFO("call " << i);
    CHECK(turn.tool_calls[i].name == (i < 6 ? "WebSearch" : "WebFetch"));
    CHECK(turn.tool_calls[i].has_result);
    CHECK_FALSE(turn.tool_calls[i].output.empty());
  }
  CheckSameTurn(AllTurns(path, SessionKind::kSubagent).at(0), turn);

  // Read as a main session, every line is a sidechain line: no prompt.
  LastTurn as_main;
  const Status s = ReadLastTurn(path, SessionKind::kMain, &as_main);
  CHECK_FALSE(s.ok());
  CHECK(s.message().find("no user prompt") != std::string::npos);
}

TEST_CASE("fixture: 2.1.39 compaction subagent with meta reminders", "[transcript]") {
  if (!HaveFixtures()) return;
  const std::string path =
      FixtureDir() + "/claude-code_2.1.39_compact-subagent_agent-acompact-e1f845.jsonl";
  const LastTurn last = MustReadLast(path, SessionKind::kSubagent);
  CHECK(StartsWith(last.turn.prompt, "Your task is to create a detailed summary"));
  CHECK(last.turn.prompt_line == 4);
  CHECK(last.turn.final_line == 5);
  CHECK(last.turn.final_message.find("<analysis>") != std::string::npos);
  CHECK(last.turn.tool_calls.empty());
}

// ---------------------------------------------------------------- synthetic

TEST_CASE("a turn: prompt, calls paired with results, final text, narration", "[transcript]") {
  TempDir dir;
  const std::string path = dir.Write(
      "t.jsonl",
      {
          Snapshot(),                                                              // 1
          Prompt("old question"),                                                  // 2
          ToolUse("msg_0", "toolu_0", "Bash", {{"command", "uptime"}}),            // 3
          Result("toolu_0", "up 3 days"),                                          // 4
          Text("msg_00", "Up three days."),                                        // 5
          Progress(),                                                              // 6
          System("stop_hook_summary"),                                             // 7
          Snapshot(),                                                              // 8
          Prompt("why did the job die?"),                                          // 9
          Text("msg_1", "Let me look at dmesg."),                                  // 10
          ToolUse("msg_1", "toolu_1", "Bash", {{"command", "dmesg | tail -3"}}),   // 11
          ToolUse("msg_1", "toolu_2", "Read", {{"file_path", "/var/log/job.log"}}),// 12
          Result("toolu_2", json::array({{{"type", "text"}, {"text", "line a"}},
                                         {{"type", "image"}},
                                         {{"type", "text"}, {"text", "line b"}}})),// 13
          Result("toolu_1", "Out of memory: Killed process 4812 (python)", true),  // 14
          ToolUse("msg_2", "toolu_3", "Grep", {{"pattern", "oom"}, {"path", "."}}),// 15
          ToolUse("msg_2", "toolu_4", "WebFetch", {{"url", "https://x.test/a"}}),  // 16
          ToolUse("msg_2", "toolu_5", "TodoWrite", {{"todos", json::array()}}),    // 17
          Thinking("msg_3", "the kernel killed it"),                               // 18
          Text("msg_3", "The job was OOM-killed."),                                // 19
          Text("msg_3", "Evidence: `Out of memory: Killed process 4812`"),         // 20
      });
  const LastTurn last = MustReadLast(path, SessionKind::kMain);
  const Turn& t = last.turn;
  CHECK(t.prompt == "why did the job die?");
  CHECK(t.prompt_line == 9);
  CHECK(t.final_message ==
        "The job was OOM-killed.\n\nEvidence: `Out of memory: Killed process 4812`");
  CHECK(t.final_line == 19);
  CHECK(t.narration == std::vector<std::string>{"Let me look at dmesg."});
  CHECK_FALSE(t.truncated);
  REQUIRE(t.tool_calls.size() == 5);
  struct Want {
    const char* id;
    const char* name;
    const char* command;
    const char* output;
    bool is_error;
    bool has_result;
    std::int64_t line;
  };
  const std::vector<Want> want = {
      {"toolu_1", "Bash", "dmesg | tail -3", "Out of memory: Killed process 4812 (python)", true,
       true, 11},
      {"toolu_2", "Read", "/var/log/job.log", "line a\nline b", false, true, 12},
      {"toolu_3", "Grep", "oom", "", false, false, 15},
      {"toolu_4", "WebFetch", "https://x.test/a", "", false, false, 16},
      {"toolu_5", "TodoWrite", "", "", false, false, 17},
  };
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("call " << i << " " << want[i].id);
    const ToolCall& c = t.tool_calls[i];
    CHECK(c.id == want[i].id);
    CHECK(c.name == want[i].name);
    CHECK(c.command == want[i].command);
    CHECK(c.output == want[i].output);
    CHECK(c.is_error == want[i].is_error);
    CHECK(c.has_result == want[i].has_result);
    CHECK(c.line == want[i].line);
    CHECK(c.turns_back == 0);
  }
  CHECK(t.tool_calls[0].input == R"({"command":"dmesg | tail -3"})");

  PastTurn past;
  REQUIRE(last.history->LoadOlder(&past));
  CHECK(past.prompt == "old question");
  REQUIRE(past.tool_calls.size() == 1);
  CHECK(past.tool_calls[0].output == "up 3 days");
  CHECK(past.tool_calls[0].turns_back == 1);
  CHECK(past.tool_calls[0].line == 3);
  CHECK_FALSE(last.history->LoadOlder(&past));

  const std::vector<Turn> turns = AllTurns(path, SessionKind::kMain);
  REQUIRE(turns.size() == 2);
  CHECK(turns[0].final_message == "Up three days.");
  CHECK(turns[1].prompt_line == 9);
  CheckSameTurn(turns[1], t);
}

TEST_CASE("user lines that are not prompts do not start a turn", "[transcript]") {
  struct Case {
    const char* name;
    std::string line;
  };
  const std::vector<Case> cases = {
      {"interrupt marker string", Prompt("[Request interrupted by user]")},
      {"interrupt marker block",
       UserBlocks({{{"type", "text"}, {"text", "[Request interrupted by user for tool use]"}}})},
      {"meta line", Meta("Caveat: the messages below were generated by the user")},
      {"local command caveat", Prompt("<local-command-caveat>Caveat: ...</local-command-caveat>")},
      {"local command stdout", Prompt("<local-command-stdout>Reconnected</local-command-stdout>")},
      {"bash mode input", Prompt("<bash-input>ls</bash-input>")},
      {"bash mode output", Prompt("<bash-stdout>a b</bash-stdout><bash-stderr></bash-stderr>")},
      {"task notification", Prompt("<task-notification>\n<task-id>b1</task-id>")},
      {"system reminder only",
       UserBlocks({{{"type", "text"}, {"text", "<system-reminder>\nctx\n</system-reminder>"}}})},
      {"compact summary", [] {
         json j = json::parse(Prompt("This session is being continued from a previous one."));
         j["isCompactSummary"] = true;
         return j.dump();
       }()},
      {"empty prompt", Prompt("   ")},
      {"tool result without tool_result block", [] {
         json j = json::parse(Prompt("User rejected tool use"));
         j["toolUseResult"] = "User rejected tool use";
         return j.dump();
       }()},
      {"stop hook feedback", Meta("Stop hook feedback:\n[causegate hook]: cite the output")},
      {"stop hook feedback, not meta", Prompt("Stop hook feedback:\nplease cite")},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    TempDir dir;
    const std::string path = dir.Write("t.jsonl", {Prompt("the real prompt"),
                                                   Text("msg_1", "first answer"), c.line,
                                                   Text("msg_2", "second answer")});
    const LastTurn last = MustReadLast(path, SessionKind::kMain);
    CHECK(last.turn.prompt == "the real prompt");
    CHECK(last.turn.final_message == "second answer");
    CHECK(last.turn.narration == std::vector<std::string>{"first answer"});
    CHECK(AllTurns(path, SessionKind::kMain).size() == 1);
  }
}

TEST_CASE("prompt content forms", "[transcript]") {
  struct Case {
    const char* name;
    std::string line;
    std::string prompt;
  };
  const std::vector<Case> cases = {
      {"string", Prompt("why is GPU use 0?"), "why is GPU use 0?"},
      {"text blocks", UserBlocks({{{"type", "text"}, {"text", "part one"}},
                                  {{"type", "text"}, {"text", "part two"}}}),
       "part one\npart two"},
      {"reminder block dropped",
       UserBlocks({{{"type", "text"}, {"text", "<system-reminder>x</system-reminder>"}},
                   {{"type", "text"}, {"text", "debug the crash"}}}),
       "debug the crash"},
      {"image only", UserBlocks({{{"type", "image"}, {"source", json::object()}}}), ""},
      {"slash command", Prompt("<command-name>/review</command-name>"),
       "<command-name>/review</command-name>"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    TempDir dir;
    const std::string path =
        dir.Write("t.jsonl", {Prompt("earlier"), Text("msg_0", "a"), c.line, Text("msg_1", "b")});
    const LastTurn last = MustReadLast(path, SessionKind::kMain);
    CHECK(last.turn.prompt == c.prompt);
    CHECK(last.turn.prompt_line == 3);
    CHECK(last.turn.final_message == "b");
  }
}

TEST_CASE("stop hook feedback after the prompt, oldest first", "[transcript]") {
  TempDir dir;
  const std::string path = dir.Write(
      "t.jsonl",
      {
          Prompt("why did the build fail?"),
          ToolUse("msg_1", "toolu_1", "Bash", {{"command", "make 2>&1 | tail"}}),
          Result("toolu_1", "error: missing ;"),
          Text("msg_2", "The build fails because of a typo."),
          Progress(),
          Meta("Stop hook feedback:\n[causegate hook]: causegate: first reason\n"),
          System("stop_hook_summary"),
          Text("msg_3", "Still a typo."),
          Progress(),
          Meta("Stop hook feedback:\nsecond reason"),
          ToolUse("msg_4", "toolu_2", "Bash", {{"command", "make 2>&1 | grep error"}}),
          Result("toolu_2", "main.c:3: error: missing ;"),
          Text("msg_5", "Cause: `main.c:3: error: missing ;`"),
      });
  const LastTurn last = MustReadLast(path, SessionKind::kMain);
  CHECK(last.turn.prompt == "why did the build fail?");
  CHECK(last.turn.stop_feedback ==
        std::vector<std::string>{"causegate: first reason", "second reason"});
  CHECK(last.turn.final_message == "Cause: `main.c:3: error: missing ;`");
  CHECK(last.turn.narration == std::vector<std::string>{"The build fails because of a typo.",
                                                        "Still a typo."});
  CHECK(last.turn.tool_calls.size() == 2);
  CheckSameTurn(AllTurns(path, SessionKind::kMain).at(0), last.turn);
}

TEST_CASE("a turn read again from its place is the turn read before", "[transcript]") {
  TempDir dir;
  // Blank lines, "\r\n" ends, lines that do not parse, a split message,
  // stop feedback and a last line cut short: each turn's place holds them.
  std::string text = Prompt("why did it crash?") + "\r\n\n  \n" +
                     ToolUse("m1", "toolu_1", "Bash", {{"command", "dmesg"}}) + "\n{not json\n" +
                     Result("toolu_1", "Out of memory: Killed process 4812") + "\r\n" + Text("m2", "It ran out") +
                     "\n" + Text("m2", "of memory.") + "\n\n" + Prompt("and now?") + "\n" +
                     ToolUse("m3", "toolu_2", "Read", {{"file_path", "/a"}}) + "\n" + Result("toolu_2", "x") + "\n" +
                     Text("m4", "Done.") + "\n" + Prompt("Stop hook feedback:\ncausegate: cite it") + "\n" +
                     Text("m5", "Cited.");
  const std::string path = dir.WriteRaw("t.jsonl", text.substr(0, text.size() - 3));
  const std::vector<Turn> turns = AllTurns(path, SessionKind::kMain);  // reads each again, too
  REQUIRE(turns.size() == 2);

  std::shared_ptr<const TurnRereader> rereader;
  std::vector<TurnPlace> places;
  REQUIRE(ForEachTurnAt(
              path, SessionKind::kMain,
              [&places](const Turn&, int, const TurnPlace& place) {
                places.push_back(place);
                return true;
              },
              &rereader)
              .ok());
  REQUIRE(rereader != nullptr);
  REQUIRE(places.size() == 2);
  CHECK(places[0].begin == 0);
  CHECK(places[0].end == places[1].begin);
  CHECK(places[1].end == static_cast<std::int64_t>(text.size() - 3));
  CHECK(rereader->file_bytes() == places[1].end);

  // A place that no longer starts at a prompt: the file was rewritten.
  Turn again;
  const Status moved = rereader->Read(TurnPlace{places[0].begin + 1, places[0].end, 1}, &again);
  CHECK_FALSE(moved.ok());
  CHECK(moved.message().find("rewritten") != std::string::npos);
}

TEST_CASE("a truncated last line marks the turn and is skipped", "[transcript]") {
  TempDir dir;
  const std::string full = Text("msg_2", "second");
  const std::vector<std::string> lines = {Prompt("q"), Text("msg_1", "first"),
                                          full.substr(0, full.size() / 2)};
  const std::string path = dir.Write("t.jsonl", lines, /*final_newline=*/false);
  const LastTurn last = MustReadLast(path, SessionKind::kMain);
  CHECK(last.turn.truncated);
  CHECK(last.turn.final_message == "first");
  const std::vector<Turn> turns = AllTurns(path, SessionKind::kMain);
  REQUIRE(turns.size() == 1);
  CHECK(turns[0].truncated);

  // A bad line in the middle is skipped and does not mark the turn.
  const std::string mid =
      dir.Write("m.jsonl", {Prompt("q"), "{not json", "\x01\xff garbage", Text("msg_1", "ok")});
  const LastTurn middle = MustReadLast(mid, SessionKind::kMain);
  CHECK_FALSE(middle.turn.truncated);
  CHECK(middle.turn.final_message == "ok");
}

TEST_CASE("lines nested deeper than kMaxJsonDepth are unreadable", "[transcript]") {
  TempDir dir;
  auto nested = [](int depth) {
    json j = json::parse(Text("msg_x", "deep"));
    json value = 1;
    for (int i = 0; i < depth - 1; ++i) value = json::array({value});  // + the root object
    j["extra"] = value;
    return j.dump();
  };
  // At the limit: the line is read (its text counts).
  const std::string at = dir.Write(
      "at.jsonl", {Prompt("q"), Text("msg_1", "before"), nested(limits::kMaxJsonDepth)});
  CHECK(MustReadLast(at, SessionKind::kMain).turn.final_message == "deep");
  // Past it: skipped as unreadable, and as the last line it marks truncation.
  const std::string past = dir.Write(
      "past.jsonl", {Prompt("q"), Text("msg_1", "before"), nested(limits::kMaxJsonDepth + 1)});
  const LastTurn last = MustReadLast(past, SessionKind::kMain);
  CHECK(last.turn.final_message == "before");
  CHECK(last.turn.truncated);
  // Far past it: no crash (nlohmann would recurse).
  const std::string deep = dir.Write(
      "deep.jsonl",
      {Prompt("q"), Text("msg_1", "before"), std::string(200000, '[') + std::string(200000, ']')});
  CHECK(MustReadLast(deep, SessionKind::kMain).turn.final_message == "before");
}

TEST_CASE("split assistant messages are joined by message id", "[transcript]") {
  TempDir dir;
  const std::string path = dir.Write(
      "t.jsonl",
      {
          Prompt("why is the loss NaN?"),
          Text("msg_A", "\n\n"),  // white space only: not text
          Thinking("msg_A", "hmm"),
          Text("msg_A", "Checking the log."),
          ToolUse("msg_A", "toolu_1", "Bash", {{"command", "tail train.log"}}),
          Result("toolu_1", "step 10 loss nan"),
          Text("msg_B", "Part one."),
          Thinking("msg_B", "more"),
          Text("msg_B", "Part two."),
          ToolUse("msg_C", "toolu_2", "Bash", {{"command", "ls"}}),  // tool-only message
          Result("toolu_2", "a b"),
      });
  const LastTurn last = MustReadLast(path, SessionKind::kMain);
  CHECK(last.turn.final_message == "Part one.\n\nPart two.");
  CHECK(last.turn.final_line == 7);
  CHECK(last.turn.narration == std::vector<std::string>{"Checking the log."});
  CHECK(last.turn.tool_calls.size() == 2);

  // Without message ids, each line is a message of its own.
  json a = json::parse(Text("", "no id one"));
  a["message"].erase("id");
  json b = json::parse(Text("", "no id two"));
  b["message"].erase("id");
  const std::string noid = dir.Write("noid.jsonl", {Prompt("q"), a.dump(), b.dump()});
  const LastTurn n = MustReadLast(noid, SessionKind::kMain);
  CHECK(n.turn.final_message == "no id two");
  CHECK(n.turn.narration == std::vector<std::string>{"no id one"});
  CheckSameTurn(AllTurns(noid, SessionKind::kMain).at(0), n.turn);
}

TEST_CASE("sidechain lines in a main session are not the session's", "[transcript]") {
  TempDir dir;
  const bool side = true;
  const std::string path = dir.Write(
      "t.jsonl",
      {
          Prompt("investigate the timeout"),
          ToolUse("msg_1", "toolu_1", "Task", {{"prompt", "look"}}),
          Prompt("subagent task prompt", side),
          ToolUse("msg_s", "toolu_s", "Bash", {{"command", "curl -v x"}}, side),
          Result("toolu_s", "connection refused", false, side),
          Text("msg_s2", "subagent answer", side),
          Result("toolu_1", "subagent answer"),
          Text("msg_2", "main answer"),
      });
  const LastTurn main = MustReadLast(path, SessionKind::kMain);
  CHECK(main.turn.prompt == "investigate the timeout");
  CHECK(main.turn.final_message == "main answer");
  REQUIRE(main.turn.tool_calls.size() == 1);
  CHECK(main.turn.tool_calls[0].name == "Task");
  CHECK(main.turn.tool_calls[0].output == "subagent answer");

  // Read as a subagent file, every line counts: the last prompt is the
  // sidechain one.
  const LastTurn sub = MustReadLast(path, SessionKind::kSubagent);
  CHECK(sub.turn.prompt == "subagent task prompt");
  CHECK(sub.turn.final_message == "main answer");
  CHECK(sub.turn.tool_calls.size() == 1);
}

TEST_CASE("a subagent file: the task prompt is its prompt", "[transcript]") {
  TempDir dir;
  const bool side = true;
  const std::string path = dir.Write(
      "agent-a1b2c3.jsonl",
      {
          Prompt("Find out why job 88301 died.", side),
          ToolUse("msg_1", "toolu_1", "Bash", {{"command", "sacct -j 88301"}}, side),
          Result("toolu_1", "88301 OUT_OF_ME+", false, side),
          Text("msg_2", "It ran out of memory: `88301 OUT_OF_ME+`.", side),
      });
  const LastTurn last = MustReadLast(path, SessionKind::kSubagent);
  CHECK(last.turn.prompt == "Find out why job 88301 died.");
  CHECK(last.turn.prompt_line == 1);
  REQUIRE(last.turn.tool_calls.size() == 1);
  CHECK(last.turn.tool_calls[0].output == "88301 OUT_OF_ME+");
  CHECK(last.turn.final_message == "It ran out of memory: `88301 OUT_OF_ME+`.");
  LastTurn as_main;
  CHECK_FALSE(ReadLastTurn(path, SessionKind::kMain, &as_main).ok());
}

TEST_CASE("unknown line types and records are skipped", "[transcript]") {
  TempDir dir;
  const std::string path = dir.Write(
      "t.jsonl",
      {
          R"({"type":"summary","summary":"Session title","leafUuid":"x"})",
          Prompt("q"),
          R"({"type":"queue-operation","operation":"enqueue","content":"user words"})",
          R"({"type":"brand-new-type","message":{"role":"user","content":"not a prompt"}})",
          R"({"type":"attachment","attachment":{"type":"hook_blocking_error"}})",
          R"([1,2,3])",
          R"("just a string")",
          R"({"type":"user"})",
          R"({"type":"user","message":{"role":"user","content":42}})",
          R"({"type":"assistant","message":{"content":[{"type":"tool_use"}]}})",
          R"({"type":"assistant","message":{"content":[{"type":"mystery","text":"x"}]}})",
          "",
          "   ",
          Text("msg_1", "answer"),
          System("turn_duration"),
      });
  const LastTurn last = MustReadLast(path, SessionKind::kMain);
  CHECK(last.turn.prompt == "q");
  CHECK(last.turn.final_message == "answer");
  CHECK_FALSE(last.turn.truncated);
  REQUIRE(last.turn.tool_calls.size() == 1);  // the tool_use without id or name
  CHECK(last.turn.tool_calls[0].input == "{}");
  CHECK_FALSE(last.turn.tool_calls[0].has_result);
  CHECK(AllTurns(path, SessionKind::kMain).size() == 1);
}

TEST_CASE("history reads older turns lazily, newest first", "[transcript]") {
  TempDir dir;
  std::vector<std::string> lines = {Snapshot(), Progress()};
  for (int t = 1; t <= 5; ++t) {
    const std::string n = std::to_string(t);
    lines.push_back(Prompt("prompt " + n));
    lines.push_back(ToolUse("msg_a" + n, "toolu_" + n, "Bash", {{"command", "cmd " + n}}));
    lines.push_back(Result("toolu_" + n, "output " + n));
    lines.push_back(Text("msg_b" + n, "answer " + n));
    lines.push_back(Progress());
  }
  const std::string path = dir.Write("t.jsonl", lines);
  LastTurn last = MustReadLast(path, SessionKind::kMain);
  CHECK(last.turn.prompt == "prompt 5");
  for (int back = 1; back <= 4; ++back) {
    INFO("turns back " << back);
    PastTurn past;
    REQUIRE(last.history->LoadOlder(&past));
    CHECK(past.turns_back == back);
    CHECK(past.prompt == "prompt " + std::to_string(5 - back));
    REQUIRE(past.tool_calls.size() == 1);
    CHECK(past.tool_calls[0].output == "output " + std::to_string(5 - back));
    CHECK(past.tool_calls[0].turns_back == back);
  }
  PastTurn past;
  CHECK_FALSE(last.history->LoadOlder(&past));

  int visited = 0;
  const Status s = ForEachTurn(path, SessionKind::kMain, [&visited](const Turn& turn, int index) {
    CHECK(turn.prompt == "prompt " + std::to_string(index + 1));
    ++visited;
    return index < 2;  // stop after the third
  });
  CHECK(s.ok());
  CHECK(visited == 3);
}

TEST_CASE("bounds: long outputs are cut, over-long lines skipped, calls capped", "[transcript]") {
  TempDir dir;
  SECTION("tool output is cut at kMaxToolOutputBytes on a character boundary") {
    // "é" is two bytes; an odd limit would split one if cut blindly.
    std::string big;
    while (big.size() < limits::kMaxToolOutputBytes + 10) big += "\xc3\xa9";
    const std::string path = dir.Write(
        "t.jsonl", {Prompt("q"), ToolUse("m1", "toolu_1", "Bash", {{"command", "cat big"}}),
                    Result("toolu_1", "x" + big), Text("m2", "done")});
    const LastTurn last = MustReadLast(path, SessionKind::kMain);
    REQUIRE(last.turn.tool_calls.size() == 1);
    const std::string& out = last.turn.tool_calls[0].output;
    CHECK(out.size() <= limits::kMaxToolOutputBytes);
    CHECK(out.size() >= limits::kMaxToolOutputBytes - 3);
    CHECK((static_cast<unsigned char>(out.back()) == 0xa9));
  }
  SECTION("a line over kMaxTranscriptLineBytes is skipped without failing") {
    const std::string huge = Text("m_huge", std::string(limits::kMaxTranscriptLineBytes, 'z'));
    const std::string path =
        dir.Write("t.jsonl", {Prompt("q"), Text("m1", "kept"), huge, Text("m2", "last")});
    const LastTurn last = MustReadLast(path, SessionKind::kMain);
    CHECK(last.turn.final_message == "last");
    CHECK(last.turn.narration == std::vector<std::string>{"kept"});
    CHECK(AllTurns(path, SessionKind::kMain).at(0).final_message == "last");
  }
  SECTION("at most kMaxToolCallsPerTurn calls, the latest kept") {
    std::vector<std::string> lines = {Prompt("q")};
    const std::size_t n = limits::kMaxToolCallsPerTurn + 5;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string id = "toolu_" + std::to_string(i);
      lines.push_back(ToolUse("m" + std::to_string(i), id, "Bash", {{"command", "c"}}));
      lines.push_back(Result(id, "out " + std::to_string(i)));
    }
    const std::string path = dir.Write("t.jsonl", lines);
    const LastTurn last = MustReadLast(path, SessionKind::kMain);
    REQUIRE(last.turn.tool_calls.size() == limits::kMaxToolCallsPerTurn);
    CHECK(last.turn.tool_calls.front().output == "out 5");
    CHECK(last.turn.tool_calls.back().output == "out " + std::to_string(n - 1));
    CheckSameTurn(AllTurns(path, SessionKind::kMain).at(0), last.turn);
  }
}

TEST_CASE("line numbers are 0 when the file's start was not read", "[transcript]") {
  TempDir dir;
  // Enough earlier turns that the last turn lies beyond the first block.
  std::vector<std::string> lines;
  const std::string padding(1000, 'p');
  for (int t = 0; t < 200; ++t) {
    lines.push_back(Prompt("old " + std::to_string(t)));
    lines.push_back(Text("m" + std::to_string(t), padding));
  }
  lines.push_back(Prompt("new"));
  lines.push_back(ToolUse("mx", "toolu_x", "Bash", {{"command", "ls"}}));
  lines.push_back(Text("my", "final"));
  const std::string path = dir.Write("t.jsonl", lines);
  LastTurn last = MustReadLast(path, SessionKind::kMain);
  CHECK(last.turn.prompt == "new");
  CHECK(last.turn.prompt_line == 0);
  CHECK(last.turn.final_line == 0);
  CHECK(last.turn.tool_calls.at(0).line == 0);
  // ForEachTurn always knows them.
  const std::vector<Turn> turns = AllTurns(path, SessionKind::kMain);
  CHECK(turns.back().prompt_line == 401);
  CHECK(turns.back().tool_calls.at(0).line == 402);
  CHECK(turns.back().final_line == 403);
}

TEST_CASE("errors: missing, directory, FIFO, empty, no prompt", "[transcript]") {
  TempDir dir;
  REQUIRE(::mkfifo(dir.File("fifo").c_str(), 0600) == 0);
  const std::string empty = dir.WriteRaw("empty.jsonl", "");
  const std::string no_prompt =
      dir.Write("noprompt.jsonl", {Snapshot(), Text("m1", "hello"), Meta("meta only")});
  struct Case {
    const char* name;
    std::string path;
    const char* what;
  };
  const std::vector<Case> cases = {
      {"missing", dir.File("missing.jsonl"), "No such file"},
      {"directory", dir.path(), "is a directory"},
      {"fifo", dir.File("fifo"), "not a regular file"},
      {"empty file", empty, "no user prompt"},
      {"no prompt", no_prompt, "no user prompt"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    LastTurn last;
    const Status s = ReadLastTurn(c.path, SessionKind::kMain, &last);
    CHECK_FALSE(s.ok());
    CHECK(s.message().find(c.what) != std::string::npos);
    CHECK(s.message().rfind(c.path, 0) == 0);  // "path: what"
    bool called = false;
    const Status f = ForEachTurn(c.path, SessionKind::kMain, [&called](const Turn&, int) {
      called = true;
      return true;
    });
    CHECK_FALSE(f.ok());
    CHECK(f.message().find(c.what) != std::string::npos);
    CHECK_FALSE(called);
  }
}

}  // namespace
}  // namespace causegate::evidence

namespace causegate::evidence {
namespace {

TEST_CASE("a tool output cut inside a surrogate pair is kept", "[transcript]") {
  // JSON.stringify writes a lone surrogate as an escape; nlohmann refuses
  // it. The line must still be read, or its evidence would be lost.
  testing::TempDir dir;
  std::string result = testing::Result("toolu_1", "Killed process 4812 XX");
  const std::size_t at = result.find("XX");
  REQUIRE(at != std::string::npos);
  result.replace(at, 2, "\\ud83d");
  const std::string path = dir.Write(
      "t.jsonl", {testing::Prompt("why?"),
                  testing::ToolUse("m1", "toolu_1", "Bash", {{"command", "dmesg | tail -1"}}),
                  result, testing::Text("m2", "done")});
  LastTurn last;
  REQUIRE(ReadLastTurn(path, SessionKind::kMain, &last).ok());
  REQUIRE(last.turn.tool_calls.size() == 1);
  CHECK(last.turn.tool_calls[0].has_result);
  CHECK(last.turn.tool_calls[0].output == "Killed process 4812 \xef\xbf\xbd");
  CheckSameTurn(AllTurns(path, SessionKind::kMain).at(0), last.turn);
}

TEST_CASE("compaction summaries are marked, by agent id and by file name", "[transcript]") {
  struct IdCase {
    std::string id;
    bool compaction;
  };
  for (const IdCase& c : std::vector<IdCase>{{"acompact-e1f845", true},
                                             {"agent-acompact-e1f845", true},
                                             {"aac57f5", false},
                                             {"", false},
                                             {"acompact", false},
                                             {"x-acompact-1", false}}) {
    INFO(c.id);
    CHECK(IsCompactionAgent(c.id) == c.compaction);
  }
  CHECK(IsCompactionTranscript("/home/u/.claude/projects/p/s/subagents/agent-acompact-e1f845.jsonl"));
  CHECK(IsCompactionTranscript("agent-acompact-1.jsonl"));
  CHECK_FALSE(IsCompactionTranscript("/x/agent-acompact-1/agent-aac57f5.jsonl"));
  CHECK_FALSE(IsCompactionTranscript("/x/agent-aac57f5.jsonl"));

  auto lines = [](const std::string& agent_id) {
    json prompt = json::parse(Prompt("Your task is to create a detailed summary of the conversation so far."));
    prompt["isSidechain"] = true;
    prompt["agentId"] = agent_id;
    return std::vector<std::string>{prompt.dump(), Text("m1", "<analysis>...</analysis> Summary: ...")};
  };
  TempDir dir;
  struct FileCase {
    const char* name;
    std::string path;
    bool compaction;
  };
  const std::vector<FileCase> files = {
      {"agentId on the prompt line", dir.Write("agent-a1.jsonl", lines("acompact-a1")), true},
      {"file name", dir.Write("agent-acompact-b2.jsonl", lines("b2")), true},
      {"an ordinary subagent", dir.Write("agent-c3.jsonl", lines("c3")), false},
  };
  for (const FileCase& f : files) {
    INFO(f.name);
    LastTurn last;
    REQUIRE(ReadLastTurn(f.path, SessionKind::kSubagent, &last).ok());
    CHECK(last.turn.compaction_summary == f.compaction);
    const std::vector<Turn> all = AllTurns(f.path, SessionKind::kSubagent);
    REQUIRE(all.size() == 1);
    CHECK(all[0].compaction_summary == f.compaction);
  }
}

}  // namespace
}  // namespace causegate::evidence
