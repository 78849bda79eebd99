// Every labelled case in ../shared/cases, rendered by casegen.py into the
// transcripts Claude Code would write, read back by the transcript readers:
// the prompt, the final message, the tool calls with their outputs, the
// stop-hook feedback and the earlier turns must come out as the case says.
// Cited cases also check the evidence index on the quotes they make.
// Skipped with a warning when ../shared or python3 is not there.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "evidence/evidence_index.h"
#include "evidence/transcript.h"
#include "unit/evidence/reread_check.h"
#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using testing::json;
namespace fs = std::filesystem;

std::string SharedDir() { return CAUSEGATE_SHARED_DIR; }

// Renders all cases once per test run; "" when that is not possible.
const std::string& RenderedCases() {
  static testing::TempDir dir;  // removed at exit
  static const std::string out = [] {
    std::error_code ec;
    const std::string cases = SharedDir() + "/cases";
    const std::string tool = SharedDir() + "/tools/casegen.py";
    if (!fs::is_directory(cases, ec) || !fs::exists(tool, ec)) return std::string();
    if (std::system("python3 --version > /dev/null 2>&1") != 0) return std::string();
    const std::string target = dir.File("cases");
    const std::string cmd =
        "python3 '" + tool + "' --all '" + cases + "' '" + target + "' > /dev/null 2>&1";
    if (std::system(cmd.c_str()) != 0) return std::string();
    return target;
  }();
  return out;
}

bool Available() {
  if (!RenderedCases().empty()) return true;
  WARN("skipped: cannot render " << SharedDir() << "/cases with python3 "
                                 << "(the shared folder is not part of a clone)");
  return false;
}

std::vector<json> LoadCases() {
  std::vector<json> cases;
  for (const auto& entry : fs::directory_iterator(SharedDir() + "/cases")) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    cases.push_back(json::parse(in, nullptr, /*allow_exceptions=*/false));
    REQUIRE_FALSE(cases.back().is_discarded());
  }
  std::sort(cases.begin(), cases.end(),
            [](const json& a, const json& b) { return a.value("id", "") < b.value("id", ""); });
  return cases;
}

std::vector<json> ToolSteps(const json& steps) {
  std::vector<json> out;
  if (!steps.is_array()) return out;
  for (const json& step : steps) {
    if (step.contains("tool")) out.push_back(step);
  }
  return out;
}

// The session file to judge: the subagent's own file for SubagentStop.
std::string JudgedFile(const std::string& case_dir, bool subagent) {
  if (!subagent) return case_dir + "/transcript.jsonl";
  for (const auto& entry : fs::directory_iterator(case_dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("agent-", 0) == 0) return entry.path().string();
  }
  return "";
}

// Inline code spans of the final message (enough for the cited cases).
std::vector<std::string> CodeSpans(const std::string& text) {
  std::vector<std::string> spans;
  std::size_t i = 0;
  while ((i = text.find('`', i)) != std::string::npos) {
    if (text.compare(i, 3, "```") == 0) {
      const std::size_t end = text.find("```", i + 3);
      if (end == std::string::npos) break;
      i = end + 3;
      continue;
    }
    const std::size_t end = text.find('`', i + 1);
    if (end == std::string::npos) break;
    spans.push_back(text.substr(i + 1, end - i - 1));
    i = end + 1;
  }
  return spans;
}

TEST_CASE("rendered cases read back as the case says", "[transcript][cases]") {
  if (!Available()) return;
  const std::vector<json> cases = LoadCases();
  REQUIRE(cases.size() >= 100);
  for (const json& c : cases) {
    const std::string id = c.value("id", "");
    INFO("case " << id);
    const bool subagent = c.value("event", "Stop") == "SubagentStop";
    const bool active = c.value("stop_hook_active", false);
    const std::string case_dir = RenderedCases() + "/" + id;
    const std::string path = JudgedFile(case_dir, subagent);
    REQUIRE_FALSE(path.empty());
    const SessionKind kind = subagent ? SessionKind::kSubagent : SessionKind::kMain;

    LastTurn last;
    const Status s = ReadLastTurn(path, kind, &last);
    INFO(s.message());
    REQUIRE(s.ok());
    const Turn& turn = last.turn;
    CHECK(turn.prompt == c.at("prompt").get<std::string>());
    CHECK(turn.final_message == c.at("final").get<std::string>());
    CHECK_FALSE(turn.truncated);
    CHECK(turn.prompt_line > 0);  // small files: line numbers are known
    CHECK(turn.stop_feedback.size() == (active ? 1u : 0u));
    if (active && c.contains("feedback")) {
      CHECK(turn.stop_feedback.at(0) == c.at("feedback").get<std::string>());
    }

    std::vector<json> steps = ToolSteps(c.value("steps", json::array()));
    for (const json& step : ToolSteps(c.value("steps_after_feedback", json::array()))) {
      steps.push_back(step);
    }
    REQUIRE(turn.tool_calls.size() == steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
      INFO("call " << i);
      const ToolCall& call = turn.tool_calls[i];
      CHECK(call.name == steps[i].at("tool").get<std::string>());
      CHECK(call.has_result);
      CHECK(call.is_error == steps[i].value("is_error", false));
      // Read results carry Claude Code's trailing system reminder.
      const std::string output = steps[i].value("output", "");
      CHECK(call.output.compare(0, output.size(), output) == 0);
      CHECK(json::parse(call.input) == steps[i].value("input", json::object()));
    }

    // Earlier turns, newest first (a subagent file has none).
    const json history = c.value("history", json::array());
    PastTurn past;
    if (!subagent) {
      for (std::size_t k = history.size(); k-- > 0;) {
        INFO("history turn " << k);
        REQUIRE(last.history->LoadOlder(&past));
        CHECK(past.prompt == history[k].at("prompt").get<std::string>());
        CHECK(past.tool_calls.size() == ToolSteps(history[k].value("steps", json::array())).size());
      }
    }
    CHECK_FALSE(last.history->LoadOlder(&past));

    // The forward reader sees the same last turn.
    std::vector<Turn> turns;
    const Status f = ForEachTurn(path, kind, [&turns](const Turn& t, int) {
      turns.push_back(t);
      return true;
    });
    REQUIRE(f.ok());
    CHECK(testing::CheckRereads(path, kind) == static_cast<int>(turns.size()));
    CHECK(turns.size() == (subagent ? 1 : history.size() + 1));
    CHECK(turns.back().final_message == turn.final_message);
    CHECK(turns.back().tool_calls.size() == turn.tool_calls.size());
    CHECK(turns.back().prompt_line == turn.prompt_line);
  }
}

TEST_CASE("rendered cited cases: some quoted span is found in tool output", "[evidence][cases]") {
  if (!Available()) return;
  int checked = 0;
  for (const json& c : LoadCases()) {
    const std::string id = c.value("id", "");
    if (id.find("-cited-") == std::string::npos) continue;
    INFO("case " << id);
    const bool subagent = c.value("event", "Stop") == "SubagentStop";
    const std::string path = JudgedFile(RenderedCases() + "/" + id, subagent);
    LastTurn last;
    REQUIRE(ReadLastTurn(path, subagent ? SessionKind::kSubagent : SessionKind::kMain, &last).ok());
    EvidenceIndex index(last.turn, last.history.get());
    bool found = false;
    bool any = false;
    for (const std::string& span : CodeSpans(last.turn.final_message)) {
      if (span.size() < 8) continue;
      any = true;
      const Sighting sighting = index.Locate(span);
      INFO("span " << span << " -> " << SourceName(sighting.source));
      if (sighting.source == Source::kToolOutput) {
        found = true;
        REQUIRE(sighting.call != nullptr);
        CHECK(sighting.offset < sighting.call->output.size());
      }
    }
    if (!any) continue;  // cites with quotes other than code spans
    ++checked;
    CHECK(found);
  }
  CHECK(checked > 5);
}

}  // namespace
}  // namespace causegate::evidence
