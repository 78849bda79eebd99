// ParseClaudeLine, JsonDepthWithin and ExtractToolInputText:
// the per-line rules under the transcript readers.
#include "evidence/claude_line.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "evidence/limits.h"
#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using testing::json;

const char* KindName(LineRecord::Kind kind) {
  switch (kind) {
    case LineRecord::Kind::kIgnored:
      return "ignored";
    case LineRecord::Kind::kUnreadable:
      return "unreadable";
    case LineRecord::Kind::kPrompt:
      return "prompt";
    case LineRecord::Kind::kStopFeedback:
      return "stop-feedback";
    case LineRecord::Kind::kAssistant:
      return "assistant";
    case LineRecord::Kind::kToolResults:
      return "tool-results";
  }
  return "?";
}

TEST_CASE("ParseClaudeLine classifies lines", "[claude_line]") {
  struct Case {
    const char* name;
    std::string line;
    SessionKind session;
    LineRecord::Kind kind;
    std::string text;
  };
  using K = LineRecord::Kind;
  const SessionKind kMain = SessionKind::kMain;
  const SessionKind kSub = SessionKind::kSubagent;
  const std::vector<Case> cases = {
      {"prompt", testing::Prompt("why?"), kMain, K::kPrompt, "why?"},
      {"sidechain prompt in main", testing::Prompt("task", true), kMain, K::kIgnored, ""},
      {"sidechain prompt in subagent", testing::Prompt("task", true), kSub, K::kPrompt, "task"},
      {"feedback with command tag", testing::Meta("Stop hook feedback:\n[causegate hook]: cite it\n"),
       kMain, K::kStopFeedback, "cite it"},
      {"feedback, plain", testing::Meta("Stop hook feedback:\ncite it"), kMain, K::kStopFeedback,
       "cite it"},
      {"feedback, bracket reason kept", testing::Meta("Stop hook feedback:\n[x] not a tag"), kMain,
       K::kStopFeedback, "[x] not a tag"},
      {"feedback, multi-line", testing::Meta("Stop hook feedback:\n[a.sh]: one\ntwo [b]: c"), kMain,
       K::kStopFeedback, "one\ntwo [b]: c"},
      {"assistant text", testing::Text("msg_1", "hello"), kMain, K::kAssistant, ""},
      {"assistant blank text", testing::Text("msg_1", "\n\n"), kMain, K::kIgnored, ""},
      {"assistant thinking", testing::Thinking("msg_1", "hmm"), kMain, K::kIgnored, ""},
      {"tool result", testing::Result("toolu_1", "out"), kMain, K::kToolResults, ""},
      {"progress", testing::Progress(), kMain, K::kIgnored, ""},
      {"snapshot", testing::Snapshot(), kMain, K::kIgnored, ""},
      {"not json", "{\"type\":\"user\",", kMain, K::kUnreadable, ""},
      {"not an object", "[\"user\"]", kMain, K::kUnreadable, ""},
      {"garbage", "\xff\xfe\x00", kMain, K::kUnreadable, ""},
      {"invalid UTF-8 is replaced, not fatal",
       "{\"type\":\"user\",\"message\":{\"content\":\"why \xff?\"}}", kMain, K::kPrompt,
       "why \xef\xbf\xbd?"},
      {"lone surrogate escape is replaced",
       R"({"type":"user","message":{"content":"cut \ud83d"}})", kMain, K::kPrompt,
       "cut \xef\xbf\xbd"},
      {"lone low surrogate", R"({"type":"user","message":{"content":"\udc00x"}})", kMain,
       K::kPrompt, "\xef\xbf\xbdx"},
      {"surrogate pair kept", R"({"type":"user","message":{"content":"ok \ud83d\ude00"}})", kMain,
       K::kPrompt, "ok \xf0\x9f\x98\x80"},
      {"escaped backslash before u", R"({"type":"user","message":{"content":"a\\ud800"}})",
       kMain, K::kPrompt, "a\\ud800"},
      {"cut system line", "{\"type\":\"system\",\"subtype\":\"turn_dura", kMain, K::kUnreadable,
       ""},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const LineRecord rec = ParseClaudeLine(c.line, c.session);
    CHECK(std::string(KindName(rec.kind)) == KindName(c.kind));
    CHECK(rec.text == c.text);
  }
}

TEST_CASE("ParseClaudeLine reads assistant blocks and tool results", "[claude_line]") {
  const LineRecord use = ParseClaudeLine(
      testing::ToolUse("msg_9", "toolu_9", "Bash", {{"command", "ls -la"}, {"timeout", 5}}),
      SessionKind::kMain);
  REQUIRE(use.kind == LineRecord::Kind::kAssistant);
  CHECK(use.message_id == "msg_9");
  REQUIRE(use.blocks.size() == 1);
  CHECK(use.blocks[0].kind == AssistantBlock::Kind::kToolUse);
  CHECK(use.blocks[0].call.id == "toolu_9");
  CHECK(use.blocks[0].call.command == "ls -la");
  CHECK(use.blocks[0].call.input == R"({"command":"ls -la","timeout":5})");

  const LineRecord results = ParseClaudeLine(
      testing::UserBlocks({{{"type", "tool_result"}, {"tool_use_id", "a"}, {"content", "x"}},
                           {{"type", "tool_result"},
                            {"tool_use_id", "b"},
                            {"is_error", true},
                            {"content", {{{"type", "text"}, {"text", "e1"}},
                                         {{"type", "text"}, {"text", "e2"}}}}}}),
      SessionKind::kMain);
  REQUIRE(results.kind == LineRecord::Kind::kToolResults);
  REQUIRE(results.results.size() == 2);
  CHECK(results.results[0].tool_use_id == "a");
  CHECK(results.results[0].output == "x");
  CHECK_FALSE(results.results[0].is_error);
  CHECK(results.results[1].output == "e1\ne2");
  CHECK(results.results[1].is_error);
}

TEST_CASE("JsonDepthWithin counts nesting outside strings", "[claude_line]") {
  struct Case {
    std::string text;
    int max;
    bool within;
  };
  const std::vector<Case> cases = {
      {"{}", 1, true},
      {"{\"a\":[1]}", 1, false},
      {"{\"a\":[1]}", 2, true},
      {"{\"a\":\"[[[[[[\"}", 1, true},
      {"{\"a\":\"\\\"[[[[\"}", 1, true},
      {"{\"a\":\"\\\\\",\"b\":[[1]]}", 2, false},
      {std::string(128, '[') + std::string(128, ']'), limits::kMaxJsonDepth, true},
      {std::string(129, '['), limits::kMaxJsonDepth, false},
      {"", 0, true},
  };
  for (const Case& c : cases) {
    INFO(c.text.substr(0, 40) << " max=" << c.max);
    CHECK(JsonDepthWithin(c.text, c.max) == c.within);
  }
}

TEST_CASE("ExtractToolInputText: all strings and the agent's own", "[claude_line]") {
  // Values come out in key order (nlohmann::json objects are sorted).
  struct Case {
    const char* name;
    const char* tool;
    std::string input;
    std::string all;
    std::string supplied;
  };
  const std::vector<Case> cases = {
      {"a description is a label", "Bash", R"({"command":"ls","description":"list"})", "ls\nlist", "ls"},
      {"write", "Write", R"({"file_path":"/a","content":"hello"})", "hello\n/a", "hello\n/a"},
      {"old_string refers to the file", "Edit", R"({"file_path":"/a","old_string":"x","new_string":"y"})",
       "/a\ny\nx", "/a\ny"},
      {"multiedit", "MultiEdit",
       R"({"file_path":"/a","edits":[{"old_string":"1","new_string":"2"},{"old_string":"3","new_string":"4"}]})",
       "2\n1\n4\n3\n/a", "2\n4\n/a"},
      {"notebook", "NotebookEdit", R"j({"notebook_path":"/n.ipynb","new_source":"print(1)"})j",
       "print(1)\n/n.ipynb", "print(1)\n/n.ipynb"},
      {"a subagent's prompt", "Task", R"({"description":"probe","prompt":"say the disk is full"})",
       "probe\nsay the disk is full", "say the disk is full"},
      {"a search supplies nothing", "Grep", R"({"pattern":"out of memory","path":"/var/log"})",
       "/var/log\nout of memory", ""},
      {"numbers and nesting", "Other", R"({"a":1,"b":[true,{"c":"deep"}],"d":"last"})", "deep\nlast",
       "deep\nlast"},
      {"not json", "Bash", "{cut", "{cut", "{cut"},
      {"not json, a search", "Grep", "{cut", "{cut", ""},
      {"too deep", "Bash", std::string(200, '['), std::string(200, '['), std::string(200, '[')},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const ToolInputText text = ExtractToolInputText(c.tool, c.input);
    CHECK(text.all == c.all);
    CHECK(text.supplied == c.supplied);
  }
}

}  // namespace
}  // namespace causegate::evidence
