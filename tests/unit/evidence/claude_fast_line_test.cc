// ParseClaudeLineFast must return exactly what ParseClaudeLine returns, line
// for line: on every line of the real fixtures and on edge cases of the
// tool-result lines it reads itself (content forms, missing and mistyped
// fields, repeated keys, sidechains, bad bytes, nesting at the limit), and
// on long strings, which it cuts out of the line before simdjson builds
// its DOM and decodes itself (evidence/simd_json.h: escapes, surrogates,
// control characters, bad bytes, strings that look like its placeholders).
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

// A tool-result line written by hand: `output` goes in as written between
// the quotes (escapes and all), in the result and in Claude Code's copy.
std::string WrittenResult(std::string_view id, std::string_view output, std::string_view tail = "") {
  std::string line = R"({"parentUuid":"p","isSidechain":false,"type":"user","message":{"role":"user","content":[)";
  line += R"({"tool_use_id":")" + std::string(id) + R"(","type":"tool_result","content":")" + std::string(output) +
          R"(","is_error":false}]},"uuid":"u","toolUseResult":{"stdout":")" + std::string(output) +
          R"(","stderr":"","interrupted":false})" + std::string(tail) + "}";
  return line;
}

TEST_CASE("fast tool results: long strings read the same", "[fast]") {
  const std::string filler(1500, 'x');
  const std::string log = [] {
    std::string out;
    for (int i = 0; out.size() < 5000; ++i) {
      out += "2026-03-01 09:00:0" + std::to_string(i % 10) + " ERROR [svc] \\\"quoted\\\" \\t tab\\n";
    }
    return out;
  }();
  std::vector<std::pair<const char*, std::string>> cases = {
      {"plain", WrittenResult("toolu_1", filler)},
      {"escapes",
       WrittenResult("toolu_1", filler + R"(\" \\ \/ \b \f \n \r \t \u00e9 \u00E9 \u4e2d \ud83d\ude00 \u0000 end)")},
      {"a log", WrittenResult("toolu_1", log)},
      {"escaped backslash before the quote", WrittenResult("toolu_1", filler + R"(\\\\)")},
      {"escaped quote before the quote", WrittenResult("toolu_1", filler + R"(\")")},
      {"a lone high surrogate", WrittenResult("toolu_1", filler + R"(\ud83d tail)")},
      {"a lone low surrogate", WrittenResult("toolu_1", filler + R"(\ude00 tail)")},
      {"a high surrogate before a letter", WrittenResult("toolu_1", filler + R"(\ud83d\u0041)")},
      {"a high surrogate at the end", WrittenResult("toolu_1", filler + R"(\ud83d)")},
      {"a short \\u escape", WrittenResult("toolu_1", filler + R"(\u12)")},
      {"a bad hex digit", WrittenResult("toolu_1", filler + R"(\u12g4)")},
      {"a bad escape", WrittenResult("toolu_1", filler + R"(\x41)")},
      {"a raw tab", WrittenResult("toolu_1", filler + "\t")},
      {"a raw newline", WrittenResult("toolu_1", filler + "\n")},
      {"a bad byte", WrittenResult("toolu_1", filler + "\xff")},
      {"a cut-off sequence", WrittenResult("toolu_1", filler + "\xe4\xb8")},
      {"UTF-8", WrittenResult("toolu_1", filler + "\xe4\xb8\xad\xe6\x96\x87 \xf0\x9f\x98\x80")},
      {"the placeholder inside a long string", WrittenResult("toolu_1", filler + R"(\u0000\u00010)")},
      {"a short string like a placeholder", WrittenResult(R"(\u0000\u00010)", filler)},
      {"a short string like a placeholder, no long one", WrittenResult(R"(\u0000\u00010)", "x")},
      {"a long id", WrittenResult(filler, "out")},
      {"a long key", WrittenResult("toolu_1", filler, ",\"" + filler + "\":1")},
      {"a long string last", WrittenResult("toolu_1", "x", ",\"z\":\"" + filler + "\"")},
      {"just under the cut", WrittenResult("toolu_1", std::string(1023, 'y'))},
      {"just at the cut", WrittenResult("toolu_1", std::string(1024, 'y'))},
      {"a trailing comma", WrittenResult("toolu_1", filler, ",")},
      {"unterminated", WrittenResult("toolu_1", filler).substr(0, 200 + filler.size())},
      {"a long string outside a string", WrittenResult("toolu_1", filler, ",\"n\":" + filler)},
      {"repeated content",
       R"({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","content":")" + filler +
           R"(","content":"second"}]}})"},
      {"repeated content, the long one last",
       R"({"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","content":"first","content":")" +
           filler + R"("}]}})"},
      {"long text parts",
       R"({"type":"user","message":{"content":[{"tool_use_id":"a","content":[{"text":")" + filler +
           R"(","type":"text"},{"type":"image","text":")" + filler + R"("},{"type":"text","text":")" + log +
           R"("}],"type":"tool_result"}]}})"},
      {"a long type", R"({"type":"user","message":{"content":[{"type":")" + filler +
                          R"(","tool_use_id":"a","content":"x"}]}})"},
      {"a long sidechain line", WrittenResult("toolu_1", filler, ",\"isSidechain\":true")},
  };
  for (const auto& [name, line] : cases) {
    INFO(name);
    CheckSame(line, SessionKind::kMain);
    CheckSame(line, SessionKind::kSubagent);
  }
}

}  // namespace
}  // namespace causegate::evidence
