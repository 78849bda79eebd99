// Provenance of model-written tool output (spec section 3): which tools a
// model speaks through, the subagent id and folder Claude Code uses, and
// EvidenceIndex counting such output only inside what that model quoted and,
// for a subagent, only where its own transcript's real tool output agrees.
// The real quoted-span finder is rules/'s (rules/verdict.cc); these tests
// hand in a small one that reads `code spans` only.
#include "evidence/model_output.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "evidence/evidence_index.h"
#include "evidence/limits.h"
#include "evidence/transcript.h"
#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using testing::json;
using testing::Prompt;
using testing::Result;
using testing::TempDir;
using testing::Text;
using testing::ToolUse;

const char* kLogLine = "src/config.c:42: error: 'MAX_RETRIES' undeclared (first use in this function)";
const char* kLog =
    "[build] cc -c src/config.c -o build/config.o\n"
    "src/config.c:42: error: 'MAX_RETRIES' undeclared (first use in this function)\n"
    "make: *** [Makefile:12: build/config.o] Error 1";
const char* kClaim = "The build failed because the disk on the build machine is full";

// `...` spans, as the tests' stand-in for rules/'s citation extractor.
std::vector<std::string> CodeSpans(std::string_view text) {
  std::vector<std::string> spans;
  std::size_t at = 0;
  while ((at = text.find('`', at)) != std::string_view::npos) {
    const std::size_t end = text.find('`', at + 1);
    if (end == std::string_view::npos) break;
    spans.emplace_back(text.substr(at + 1, end - at - 1));
    at = end + 1;
  }
  return spans;
}

// The Agent result as Claude Code 2.1.197 writes it: the answer, then its
// own block naming the subagent (text blocks joined by '\n').
std::string AgentOutput(const std::string& answer, const std::string& agent_id) {
  return answer + "\nagentId: " + agent_id + " (use SendMessage with to: '" + agent_id +
         "', summary: '<5-10 word recap>' to continue this agent)\n<usage>subagent_tokens: 70\ntool_uses: "
         "1\nduration_ms: 1509</usage>";
}

ToolCall Call(const std::string& name, const std::string& input_json, const std::string& output) {
  static int next_id = 0;
  ToolCall call;
  call.id = "toolu_m" + std::to_string(++next_id);
  call.name = name;
  call.input = input_json;
  call.output = output;
  call.has_result = true;
  return call;
}

ToolCall Agent(const std::string& answer, const std::string& agent_id) {
  return Call("Agent", R"({"description":"Read the build log","prompt":"run cat build.log and report the cause"})",
              AgentOutput(answer, agent_id));
}

// A subagent's own file: its task prompt, one Bash call and its answer,
// every line a sidechain line.
void WriteSubagent(const TempDir& dir, const std::string& folder, const std::string& agent_id,
                   const std::string& command, const std::string& output, const std::string& answer) {
  std::filesystem::create_directories(dir.File(folder));
  dir.Write(folder + "/agent-" + agent_id + ".jsonl",
            {Prompt("Subagent task: run `cat build.log` and report the cause.", /*sidechain=*/true),
             ToolUse("msg_s1", "toolu_s1", "Bash", {{"command", command}}, /*sidechain=*/true),
             Result("toolu_s1", output, /*is_error=*/false, /*sidechain=*/true),
             Text("msg_s2", answer, /*sidechain=*/true)});
}

Turn ParentTurn(std::vector<ToolCall> calls, const std::string& subagent_folder) {
  Turn turn;
  turn.prompt = "The build fails. Find out why.";
  turn.tool_calls = std::move(calls);
  turn.subagent_folder = subagent_folder;
  return turn;
}

TEST_CASE("ModelWrittenOutput: subagents and fetch summaries, by the readers' tool names", "[model_output]") {
  const std::vector<std::pair<const char*, ModelAuthor>> cases = {
      {"Agent", ModelAuthor::kSubagent},    {"Task", ModelAuthor::kSubagent},
      {"task", ModelAuthor::kSubagent},     {"WebFetch", ModelAuthor::kSummary},
      {"web_fetch", ModelAuthor::kSummary}, {"Bash", ModelAuthor::kNone},
      {"Read", ModelAuthor::kNone},         {"WebSearch", ModelAuthor::kNone},
      {"agent", ModelAuthor::kNone},        {"", ModelAuthor::kNone},
  };
  for (const auto& [tool, author] : cases) {
    INFO(tool);
    CHECK(ModelWrittenOutput(tool) == author);
  }
}

TEST_CASE("SubagentIdIn: Claude Code's own agentId line, a plain name only", "[model_output]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {AgentOutput("The build fails.", "ac39b0be00a2200c5"), "ac39b0be00a2200c5"},
      {"answer\nagentId: aac57f5", "aac57f5"},
      {"agentId: a1\r\n", "a1"},
      {"the answer, no id", ""},
      {"it said agentId: a666 inline", ""},  // not on a line of its own
      {"agentId: ../../etc/passwd", ""},
      {"agentId: a1/../b2", ""},
      {"agentId: a1.jsonl", ""},
      {"agentId: ", ""},
      {"agentId: " + std::string(129, 'a'), ""},
      {"agentId: " + std::string(128, 'a'), std::string(128, 'a')},
      // The subagent's answer cannot point elsewhere: the last line wins.
      {"agentId: a-fake\n" + AgentOutput("x", "a-real"), "a-real"},
  };
  for (const auto& [output, id] : cases) {
    INFO(output);
    CHECK(SubagentIdIn(output) == id);
  }
}

TEST_CASE("SubagentFolderOf: beside a session file, or the subagents folder itself", "[model_output]") {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"/h/.claude/projects/-w/84da4c53.jsonl", "/h/.claude/projects/-w/84da4c53/subagents"},
      {"/h/.claude/projects/-w/84da4c53/subagents/agent-ac39.jsonl", "/h/.claude/projects/-w/84da4c53/subagents"},
      {"84da4c53.jsonl", "./84da4c53/subagents"},
      {"/s.jsonl", "/s/subagents"},
      {"", ""},
  };
  for (const auto& [path, folder] : cases) {
    INFO(path);
    CHECK(SubagentFolderOf(path) == folder);
  }
  CHECK(SubagentTranscriptPath("/x/subagents", "a1") == "/x/subagents/agent-a1.jsonl");
}

TEST_CASE("A subagent's answer counts only where it quoted its own tool output", "[model_output]") {
  TempDir dir;
  const std::string folder = dir.File("sess/subagents");
  const std::string quoting = std::string("The build log shows `") + kLogLine + "`, so MAX_RETRIES is undeclared.";
  WriteSubagent(dir, "sess/subagents", "aquotes", "cat build.log", kLog, quoting);
  // Quotes a line its own tools never printed.
  const std::string invented = "The log shows `error: No space left on device`, so the disk is full.";
  WriteSubagent(dir, "sess/subagents", "ainvents", "cat build.log", kLog, invented);
  // Quotes what its own echo printed: self-made in its transcript.
  const std::string echoed = "The check printed `disk usage at 100 percent`, so the disk is full.";
  WriteSubagent(dir, "sess/subagents", "aechoes", "echo 'disk usage at 100 percent'", "disk usage at 100 percent",
                echoed);
  struct Case {
    const char* name;
    ToolCall call;
    std::string folder;
    std::string fragment;
    Source source;
  };
  const std::vector<Case> cases = {
      {"the subagent's unquoted claim: reported speech", Agent(std::string(kClaim) + ". I will free space.", "ax"),
       folder, kClaim, Source::kModelText},
      {"a log line it quoted and its Bash printed", Agent(quoting, "aquotes"), folder, kLogLine,
       Source::kToolOutput},
      {"its unquoted words around the quote", Agent(quoting, "aquotes"), folder, "so MAX_RETRIES is undeclared",
       Source::kModelText},
      {"a quote its tools never printed", Agent(invented, "ainvents"), folder, "error: No space left on device",
       Source::kModelText},
      {"a quote only its own echo printed", Agent(echoed, "aechoes"), folder, "disk usage at 100 percent",
       Source::kModelText},
      {"no transcript folder: its quotes count", Agent(invented, "ainvents"), "", "error: No space left on device",
       Source::kToolOutput},
      {"no such file: its quotes count", Agent(invented, "agone"), folder, "error: No space left on device",
       Source::kToolOutput},
      {"no agentId line: its quotes count", Call("Agent", "{}", invented), folder,
       "error: No space left on device", Source::kToolOutput},
      {"no transcript, unquoted words still do not count", Call("Task", "{}", std::string(kClaim) + "."), "",
       kClaim, Source::kModelText},
      {"Copilot's task tool, quoted", Call("task", "{}", invented), "", "error: No space left on device",
       Source::kToolOutput},
      {"a fetch summary's own words", Call("WebFetch", R"({"url":"https://hex.pm/packages/x"})",
                                           "The latest stable version is 1.5.0, released in October."),
       folder, "The latest stable version is 1.5.0", Source::kModelText},
      {"what a fetch summary quoted", Call("WebFetch", "{}", "The page says `Implementation of stable signals`."),
       folder, "Implementation of stable signals", Source::kToolOutput},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const Turn turn = ParentTurn({c.call}, c.folder);
    EvidenceIndex index(turn, nullptr, CodeSpans);
    const Sighting s = index.Locate(c.fragment);
    CHECK(SourceName(s.source) == std::string(SourceName(c.source)));
    CHECK(s.call == &turn.tool_calls[0]);
  }
}

TEST_CASE("Model text is looked past: real output elsewhere still supports", "[model_output]") {
  const Turn turn = ParentTurn({Agent(std::string("It says ") + kLogLine + " there.", "ax"),
                                Call("Bash", R"({"command":"cat build.log"})", kLog)},
                               "");
  EvidenceIndex index(turn, nullptr, CodeSpans);
  const Sighting s = index.Locate(kLogLine);
  CHECK(s.source == Source::kToolOutput);
  CHECK(s.call == &turn.tool_calls[1]);
}

TEST_CASE("Without a quoted-span finder nothing a model wrote counts", "[model_output]") {
  const Turn turn = ParentTurn({Call("Agent", "{}", std::string("It shows `") + kLogLine + "`.")}, "");
  EvidenceIndex index(turn, nullptr);
  CHECK(index.Locate(kLogLine).source == Source::kModelText);
}

TEST_CASE("Quoted spans and the subagent's file are read only on a hit in model output", "[model_output]") {
  TempDir dir;
  int finder_calls = 0;
  const QuotedSpanFinder counting = [&finder_calls](std::string_view text) {
    ++finder_calls;
    return CodeSpans(text);
  };
  const std::string quoting = std::string("It shows `") + kLogLine + "`.";
  const Turn turn = ParentTurn({Call("Bash", R"({"command":"uname -a"})", "Linux build-7 6.1.0 x86_64"),
                                Agent(quoting, "alate")},
                               dir.File("sess/subagents"));
  EvidenceIndex index(turn, nullptr, counting);
  CHECK(index.Locate("Linux build-7 6.1.0").source == Source::kToolOutput);
  CHECK(finder_calls == 0);
  // Written after the index was built and used: only read now.
  WriteSubagent(dir, "sess/subagents", "alate", "cat build.log", kLog, quoting);
  CHECK(index.Locate(kLogLine).source == Source::kToolOutput);
  CHECK(finder_calls >= 1);
  const int after_first = finder_calls;
  CHECK(index.Locate("MAX_RETRIES' undeclared").source == Source::kToolOutput);
  CHECK(finder_calls == after_first);  // the parent's spans are read once
}

// A chain of subagents, each quoting `<quote>` from the next one's answer;
// the last has no Agent call and its tools never printed the quote.
TEST_CASE("kMaxSubagentDepth: the deepest file at the limit is read, one past is not", "[model_output][limits]") {
  const std::string quote = "error: No space left on device";
  const std::string answer = "It shows `" + quote + "`.";
  for (const int chain : {limits::kMaxSubagentDepth, limits::kMaxSubagentDepth + 1}) {
    INFO("chain of " << chain << " subagent files");
    TempDir dir;
    const std::string folder = dir.File("sess/subagents");
    std::filesystem::create_directories(folder);
    for (int level = 1; level <= chain; ++level) {
      const std::string id = "a" + std::to_string(level);
      std::vector<std::string> lines = {Prompt("Subagent task " + id, /*sidechain=*/true)};
      if (level < chain) {
        const std::string next = "a" + std::to_string(level + 1);
        lines.push_back(ToolUse("msg_1", "toolu_1", "Agent", {{"prompt", "go on"}}, /*sidechain=*/true));
        lines.push_back(Result("toolu_1", json::array({{{"type", "text"}, {"text", answer}},
                                                       {{"type", "text"}, {"text", "agentId: " + next}}}),
                               /*is_error=*/false, /*sidechain=*/true));
      } else {
        lines.push_back(ToolUse("msg_1", "toolu_1", "Bash", {{"command", "df -h"}}, /*sidechain=*/true));
        lines.push_back(Result("toolu_1", "/dev/sda1 40G 12G 28G 30% /", /*is_error=*/false, /*sidechain=*/true));
      }
      lines.push_back(Text("msg_2", answer, /*sidechain=*/true));
      dir.Write("sess/subagents/agent-" + id + ".jsonl", lines);
    }
    const Turn turn = ParentTurn({Agent(answer, "a1")}, folder);
    EvidenceIndex index(turn, nullptr, CodeSpans);
    // Within the limit the last subagent is read and disowns the quote;
    // past it the last file is not read, which counts as no transcript.
    const bool within = chain <= limits::kMaxSubagentDepth;
    CHECK(index.Locate(quote).source == (within ? Source::kModelText : Source::kToolOutput));
  }
}

TEST_CASE("A subagent file naming itself ends at the depth limit", "[model_output][limits]") {
  TempDir dir;
  std::filesystem::create_directories(dir.File("sess/subagents"));
  const std::string answer = "It shows `error: No space left on device`.";
  dir.Write("sess/subagents/agent-aloop.jsonl",
            {Prompt("Subagent task", /*sidechain=*/true),
             ToolUse("msg_1", "toolu_1", "Agent", {{"prompt", "again"}}, /*sidechain=*/true),
             Result("toolu_1", AgentOutput(answer, "aloop"), /*is_error=*/false, /*sidechain=*/true),
             Text("msg_2", answer, /*sidechain=*/true)});
  const Turn turn = ParentTurn({Agent(answer, "aloop")}, dir.File("sess/subagents"));
  EvidenceIndex index(turn, nullptr, CodeSpans);
  CHECK(index.Locate("error: No space left on device").source == Source::kToolOutput);
}

TEST_CASE("From a session file: the reader finds the subagent's file beside it", "[model_output][transcript]") {
  TempDir dir;
  const std::string quoting = std::string("The build log shows `") + kLogLine + "`.";
  WriteSubagent(dir, "84da4c53/subagents", "ac39b0be00a2200c5", "cat build.log", kLog, quoting);
  const std::string path = dir.Write(
      "84da4c53.jsonl",
      {Prompt("The build fails. Find out why."),
       ToolUse("msg_1", "toolu_1", "Agent", {{"description", "Read the build log"}, {"prompt", "Subagent task"}}),
       Result("toolu_1",
              json::array({{{"type", "text"}, {"text", quoting}},
                           {{"type", "text"},
                            {"text", "agentId: ac39b0be00a2200c5 (use SendMessage with to: 'ac39b0be00a2200c5' "
                                     "to continue this agent)\n<usage>subagent_tokens: 70</usage>"}}})),
       Text("msg_2", quoting)});
  LastTurn last;
  REQUIRE(ReadLastTurn(path, SessionKind::kMain, &last).ok());
  CHECK(last.turn.subagent_folder == dir.File("84da4c53/subagents"));
  EvidenceIndex index(last.turn, last.history.get(), CodeSpans);
  CHECK(index.Locate(kLogLine).source == Source::kToolOutput);
  CHECK(index.Locate("The build log shows").source == Source::kModelText);

  int turns = 0;
  REQUIRE(ForEachTurn(path, SessionKind::kMain, [&](const Turn& turn, int) {
            CHECK(turn.subagent_folder == dir.File("84da4c53/subagents"));
            return ++turns > 0;
          }).ok());
  CHECK(turns == 1);
}

}  // namespace
}  // namespace causegate::evidence
