// Gemini CLI chat files: both formats, message updates, content shapes,
// tool output sources, tool names, feedback prompts, history and errors.
#include "evidence/gemini_transcript.h"
#include "evidence/transcript.h"

#include <catch2/catch.hpp>

#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using nlohmann::json;
using testing::TempDir;

json Call(const char* id, const char* name, const json& args, const json& result, const char* status = "success") {
  json c = {{"id", id}, {"name", name}, {"args", args}, {"status", status}, {"timestamp", "2026-03-01T10:00:01Z"}};
  if (!result.is_null()) c["result"] = result;
  return c;
}

json Response(const char* id, const char* name, const json& response) {
  return json::array({{{"functionResponse", {{"id", id}, {"name", name}, {"response", response}}}}});
}

json User(const char* id, const json& content) { return {{"id", id}, {"type", "user"}, {"content", content}}; }
json Model(const char* id, const json& content, const json& calls = json::array()) {
  return {{"id", id}, {"type", "gemini"}, {"content", content}, {"toolCalls", calls}, {"thoughts", json::array()}};
}

std::string Document(const TempDir& dir, const json& messages) {
  return dir.WriteRaw("session.json", json{{"sessionId", "s"}, {"projectHash", "p"}, {"startTime", "t"},
                                           {"lastUpdated", "t"}, {"messages", messages}}
                                          .dump(2));
}

TEST_CASE("gemini chat: the JSON document form") {
  TempDir dir;
  const std::string path = Document(
      dir, {User("u1", "first question"), Model("g1", "first answer", json::array({Call("c0", "run_shell_command", {{"command", "uptime"}},
                                                                            Response("c0", "run_shell_command", {{"output", "up 3 days"}}))})),
            User("u2", "why did the job fail?"),
            Model("g2", "Checking.",
                  json::array({Call("c1", "run_shell_command", {{"command", "dmesg | tail"}},
                        Response("c1", "run_shell_command", {{"output", "Out of memory: Killed process 4812"}})),
                   Call("c2", "read_file", {{"absolute_path", "/w/train.log"}},
                        Response("c2", "read_file", {{"output", "step 200 loss=nan"}})),
                   Call("c3", "write_file", {{"file_path", "/w/notes.md"}, {"content", "made up"}}, nullptr, "error"),
                   Call("c4", "glob", {{"pattern", "*.log"}}, nullptr)})),
            {{"id", "i1"}, {"type", "info"}, {"content", "Request cancelled."}},
            Model("g3", json::array({{{"text", "thinking"}, {"thought", true}}, {{"text", "The job was OOM-killed."}}}))});
  LastTurn last;
  REQUIRE(ReadGeminiLastTurn(path, ChatReadOptions(), &last).ok());
  const Turn& t = last.turn;
  CHECK(t.prompt == "why did the job fail?");
  CHECK(t.final_message == "The job was OOM-killed.");
  CHECK(t.narration == std::vector<std::string>{"Checking."});
  REQUIRE(t.tool_calls.size() == 4);
  CHECK(t.tool_calls[0].name == "run_shell_command");
  CHECK(t.tool_calls[0].command == "dmesg | tail");
  CHECK(t.tool_calls[0].output == "Out of memory: Killed process 4812");
  CHECK(t.tool_calls[1].name == "Read");
  CHECK(t.tool_calls[1].command == "/w/train.log");
  CHECK(t.tool_calls[2].name == "Write");
  CHECK(t.tool_calls[2].is_error);
  CHECK_FALSE(t.tool_calls[2].has_result);
  CHECK(t.tool_calls[3].name == "glob");
  PastTurn older;
  REQUIRE(last.history->LoadOlder(&older));
  CHECK(older.prompt == "first question");
  REQUIRE(older.tool_calls.size() == 1);
  CHECK(older.tool_calls[0].output == "up 3 days");
  CHECK(older.tool_calls[0].turns_back == 1);
  CHECK_FALSE(last.history->LoadOlder(&older));
}

TEST_CASE("gemini chat: the JSONL form, with updates and a cut last line") {
  TempDir dir;
  const std::string path = dir.Write(
      "session.jsonl",
      {json{{"sessionId", "s"}, {"projectHash", "p"}, {"startTime", "t"}, {"kind", "main"}}.dump(),
       User("u1", "why is it slow?").dump(), Model("g1", "looking", {}).dump(),
       json{{"$set", {{"lastUpdated", "t2"}}}}.dump(),
       // The same id again: the later version wins, in the first one's place.
       Model("g1", "Looking at the profile.",
             json::array({Call("c1", "run_shell_command", {{"command", "perf top"}},
                   Response("c1", "run_shell_command", {{"error", "perf: command not found"}}))}))
           .dump(),
       Model("g2", "It is slow because of lock contention.").dump(), R"({"id":"g3","type":"gem)"},
      /*final_newline=*/false);
  LastTurn last;
  REQUIRE(ReadGeminiLastTurn(path, ChatReadOptions(), &last).ok());
  const Turn& t = last.turn;
  CHECK(t.prompt == "why is it slow?");
  CHECK(t.truncated);
  CHECK(t.final_message == "It is slow because of lock contention.");
  CHECK(t.narration == std::vector<std::string>{"Looking at the profile."});
  REQUIRE(t.tool_calls.size() == 1);
  CHECK(t.tool_calls[0].is_error);
  CHECK(t.tool_calls[0].output == "perf: command not found");
  CHECK(t.final_line == 6);
}

TEST_CASE("gemini chat: resultDisplay when there is no functionResponse; feedback prompts") {
  TempDir dir;
  json call = Call("c1", "search_file_content", {{"pattern", "OOM"}}, nullptr);
  call["resultDisplay"] = "train.log:12: OOM";
  const std::string path =
      Document(dir, {User("u1", "why?"), Model("g1", "", json::array({call})), Model("g2", "Because of OOM."),
                     User("u2", "causegate blocked this stop: ..."), Model("g3", "Hypothesis: OOM.")});
  ChatReadOptions options;
  options.is_feedback = [](std::string_view text) { return text.rfind("causegate", 0) == 0; };
  LastTurn last;
  REQUIRE(ReadGeminiLastTurn(path, options, &last).ok());
  CHECK(last.turn.prompt == "why?");
  CHECK(last.turn.stop_feedback == std::vector<std::string>{"causegate blocked this stop: ..."});
  CHECK(last.turn.final_message == "Hypothesis: OOM.");
  REQUIRE(last.turn.tool_calls.size() == 1);
  CHECK(last.turn.tool_calls[0].output == "train.log:12: OOM");
  CHECK(last.turn.tool_calls[0].command == "OOM");
}

TEST_CASE("gemini chat: tool output without Gemini's wrappers") {
  struct Case {
    const char* name;
    const char* tool;
    const char* raw;
    const char* output;
    bool is_error;
  };
  const Case cases[] = {
      {"0.61 shell frame", "run_shell_command",
       "<untrusted_context>\nOutput: 2026-12-01 ERROR disk full on /srv\nProcess Group PGID: 13904\n</untrusted_context>",
       "2026-12-01 ERROR disk full on /srv", false},
      {"several lines", "run_shell_command", "Output: a\nb\nProcess Group PGID: 7", "a\nb", false},
      {"older frame", "run_shell_command",
       "Command: cat build.log\nDirectory: (root)\nOutput: make: *** [all] Error 2\nError: (none)\nExit Code: 2\n"
       "Signal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 812",
       "make: *** [all] Error 2", true},
      {"empty output", "run_shell_command", "Output: (empty)\nProcess Group PGID: 9", "", false},
      {"not in the frame: kept", "run_shell_command", "Process Group PGID: 5 is the job's own line",
       "Process Group PGID: 5 is the job's own line", false},
      {"another tool: only the wrapper goes", "read_file", "<untrusted_context>\nOutput: x\n</untrusted_context>",
       "Output: x", false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    TempDir dir;
    const std::string path = Document(
        dir, {User("u1", "why?"),
              Model("g1", "Because.", json::array({Call("c1", c.tool, {{"command", "cat build.log"}},
                                                          Response("c1", c.tool, {{"output", c.raw}}))}))});
    LastTurn last;
    REQUIRE(ReadGeminiLastTurn(path, ChatReadOptions(), &last).ok());
    REQUIRE(last.turn.tool_calls.size() == 1);
    CHECK(last.turn.tool_calls[0].output == c.output);
    CHECK(last.turn.tool_calls[0].is_error == c.is_error);
  }
}

TEST_CASE("gemini chat: every turn through the transcript readers, for check and explain") {
  TempDir dir;
  const std::string path = dir.Write(
      "session-2026-12-01T10-00-ab12cd34.jsonl",
      {json{{"sessionId", "s"}, {"projectHash", "p"}, {"startTime", "t"}, {"kind", "main"}}.dump(),
       json{{"$set", {{"lastUpdated", "t2"}}}}.dump(), User("u1", json::array({{{"text", "first?"}}})).dump(),
       Model("g1", "first answer").dump(), User("u2", json::array({{{"text", "why?"}}})).dump(),
       Model("g2", "", json::array({Call("c1", "run_shell_command", {{"command", "cat build.log"}},
                                         Response("c1", "run_shell_command",
                                                  {{"output", "Output: ld: cannot find -lssl\nProcess Group PGID: 9"}}))}))
           .dump(),
       Model("g3", "It failed because libssl is missing.").dump(),
       User("u3", "causegate blocked this stop: ...").dump(), Model("g4", "Hypothesis: libssl is missing.").dump()});
  std::vector<Turn> turns;
  REQUIRE(ForEachTurn(path, SessionKind::kMain, [&turns](const Turn& t, int) {
            turns.push_back(t);
            return true;
          }).ok());
  REQUIRE(turns.size() == 2);
  CHECK(turns[0].prompt == "first?");
  CHECK(turns[1].prompt == "why?");
  REQUIRE(turns[1].tool_calls.size() == 1);
  CHECK(turns[1].tool_calls[0].output == "ld: cannot find -lssl");
  CHECK(turns[1].stop_feedback.size() == 1);
  CHECK(turns[1].final_message == "Hypothesis: libssl is missing.");
  LastTurn last;
  REQUIRE(ReadLastTurn(path, SessionKind::kMain, &last).ok());
  CHECK(last.turn.prompt == "why?");
  PastTurn past;
  REQUIRE(last.history->LoadOlder(&past));
  CHECK(past.prompt == "first?");
}

TEST_CASE("gemini chat: errors") {
  TempDir dir;
  LastTurn last;
  CHECK_FALSE(ReadGeminiLastTurn(dir.File("missing.json"), ChatReadOptions(), &last).ok());
  CHECK_FALSE(ReadGeminiLastTurn(dir.path(), ChatReadOptions(), &last).ok());
  CHECK_THAT(ReadGeminiLastTurn(dir.WriteRaw("a.json", "not json"), ChatReadOptions(), &last).message(),
             Catch::Contains("not a Gemini chat file"));
  CHECK_THAT(ReadGeminiLastTurn(Document(dir, json::array({Model("g", "hi")})), ChatReadOptions(), &last).message(),
             Catch::Contains("no user prompt"));
  CHECK_THAT(ReadGeminiLastTurn(dir.WriteRaw("b.json", R"({"messages": 3})"), ChatReadOptions(), &last).message(),
             Catch::Contains("not a list"));
}

}  // namespace
}  // namespace causegate::evidence
