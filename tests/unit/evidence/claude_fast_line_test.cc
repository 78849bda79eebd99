// ParseClaudeLineFast must return exactly what ParseClaudeLine returns, line
// for line: on every line of the real fixtures and on edge cases of the
// tool-result lines it reads itself (content forms, missing and mistyped
// fields, repeated keys, sidechains, bad bytes, nesting at the limit).
#include <catch2/catch.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "evidence/claude_fast_line.h"
#include "evidence/limits.h"
#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using testing::json;

void CheckSame(std::string_view line, SessionKind kind) {
  const LineRecord slow = ParseClaudeLine(line, kind);
  const LineRecord fast = ParseClaudeLineFast(line, kind);
  CHECK(static_cast<int>(fast.kind) == static_cast<int>(slow.kind));
  CHECK(fast.text == slow.text);
  CHECK(fast.message_id == slow.message_id);
  REQUIRE(fast.blocks.size() == slow.blocks.size());
  for (std::size_t i = 0; i < fast.blocks.size(); ++i) {
    CHECK(fast.blocks[i].text == slow.blocks[i].text);
    CHECK(fast.blocks[i].call.id == slow.blocks[i].call.id);
    CHECK(fast.blocks[i].call.input == slow.blocks[i].call.input);
  }
  REQUIRE(fast.results.size() == slow.results.size());
  for (std::size_t i = 0; i < fast.results.size(); ++i) {
    CHECK(fast.results[i].tool_use_id == slow.results[i].tool_use_id);
    CHECK(fast.results[i].output == slow.results[i].output);
    CHECK(fast.results[i].is_error == slow.results[i].is_error);
  }
}

TEST_CASE("fast tool results: every fixture line reads the same", "[fast]") {
  const std::string dir = std::string(CAUSEGATE_SHARED_DIR) + "/research/fixtures/";
  int lines = 0;
  for (const char* name : {"claude-code_2.1.38_short.jsonl", "claude-code_2.1.38_tool_heavy.jsonl",
                           "claude-code_2.1.39_subagent_agent-aac57f5.jsonl",
                           "claude-code_2.1.39_compact-subagent_agent-acompact-e1f845.jsonl"}) {
    std::ifstream in(dir + name);
    if (!in) continue;
    std::string line;
    while (std::getline(in, line)) {
      INFO(name << " line " << lines);
      CheckSame(line, SessionKind::kMain);
      CheckSame(line, SessionKind::kSubagent);
      ++lines;
    }
  }
  if (lines == 0) WARN("SKIP: ../shared/research/fixtures not present");
}

std::string ResultLine(const json& blocks, const json& extra = json::object()) {
  json j = testing::Envelope("user");
  j["message"] = {{"role", "user"}, {"content", blocks}};
  for (const auto& [k, v] : extra.items()) j[k] = v;
  return j.dump();
}

TEST_CASE("fast tool results: edge cases read the same", "[fast]") {
  const json text_block = {{"type", "text"}, {"text", "line one"}};
  std::vector<std::pair<const char*, std::string>> cases = {
      {"string content", testing::Result("toolu_1", "Out of memory: Killed process 812")},
      {"block content", testing::Result("toolu_1", json::array({text_block, {{"type", "image"}}, text_block}))},
      {"error result", testing::Result("toolu_1", "permission denied", /*is_error=*/true)},
      {"no content", ResultLine(json::array({{{"type", "tool_result"}, {"tool_use_id", "t"}}}))},
      {"no id", ResultLine(json::array({{{"type", "tool_result"}, {"content", "x"}}}))},
      {"text not a string", ResultLine(json::array(
                                {{{"type", "tool_result"}, {"tool_use_id", "t"},
                                  {"content", json::array({{{"type", "text"}, {"text", 5}}, text_block})}}}))},
      {"content a number", ResultLine(json::array({{{"type", "tool_result"}, {"tool_use_id", "t"}, {"content", 7}}}))},
      {"is_error a string", ResultLine(json::array(
                                {{{"type", "tool_result"}, {"tool_use_id", "t"}, {"content", "x"}, {"is_error", "yes"}}}))},
      {"two results and text", ResultLine(json::array({{{"type", "tool_result"}, {"tool_use_id", "a"}, {"content", "1"}},
                                                       text_block,
                                                       {{"type", "tool_result"}, {"tool_use_id", "b"}, {"content", "2"}}}))},
      {"not objects in content", ResultLine(json::array({1, "x", nullptr,
                                                         {{"type", "tool_result"}, {"tool_use_id", "a"}, {"content", "1"}}}))},
      {"a sidechain result", testing::Result("toolu_1", "x", false, /*sidechain=*/true)},
      {"a prompt", testing::Prompt("why did it fail?")},
      {"a prompt with blocks", testing::UserBlocks(json::array({text_block}))},
      {"an assistant line", testing::ToolUse("m1", "toolu_1", "Bash", {{"command", "ls"}})},
      {"a progress line", testing::Progress()},
      {"repeated keys",
       R"({"type":"assistant","type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","tool_use_id":"b","content":"first","content":"second"}]}})"},
      {"a lone surrogate", R"({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","content":"x\ud83dy"}]}})"},
      {"a bad byte", "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"a\","
                     "\"content\":\"x\xff\"}]}}"},
      {"cut off", R"({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","conte)"},
  };
  // Nesting around the limit, inside a tool result line.
  for (const int depth : {limits::kMaxJsonDepth - 5, limits::kMaxJsonDepth - 4, limits::kMaxJsonDepth - 3,
                          limits::kMaxJsonDepth + 3}) {
    std::string value = "1";
    for (int i = 0; i < depth; ++i) value = "[" + value + "]";
    cases.emplace_back("nested",
                       R"({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","content":"x","deep":)" +
                           value + "}]}}");
  }
  // An output past the per-call limit, cut on a character boundary.
  std::string big(limits::kMaxToolOutputBytes - 1, 'a');
  big += "\xe4\xb8\xad\xe6\x96\x87";
  cases.emplace_back("over the output limit", testing::Result("toolu_1", big));
  cases.emplace_back("blocks over the limit",
                     testing::Result("toolu_1", json::array({{{"type", "text"}, {"text", big}}, text_block})));
  for (const auto& [name, line] : cases) {
    INFO(name);
    CheckSame(line, SessionKind::kMain);
    CheckSame(line, SessionKind::kSubagent);
  }
}

}  // namespace
}  // namespace causegate::evidence
