// Damaged transcripts: deterministic random mutations (cuts, flipped bytes,
// inserted braces and quotes, lost newlines) of a realistic session must
// never crash, hang or throw; every reader either returns a turn or a
// Status error, and the evidence index answers on whatever was read.
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "evidence/evidence_index.h"
#include "evidence/shell_command.h"
#include "evidence/transcript.h"
#include "unit/evidence/test_util.h"

namespace causegate::evidence {
namespace {

using namespace testing;  // NOLINT: line builders

std::string Session() {
  std::vector<std::string> lines = {Snapshot(), Progress()};
  for (int t = 0; t < 4; ++t) {
    const std::string n = std::to_string(t);
    lines.push_back(Prompt("why did run " + n + " die?"));
    lines.push_back(Thinking("msg_t" + n, "think"));
    lines.push_back(Text("msg_a" + n, "Checking."));
    lines.push_back(ToolUse("msg_a" + n, "toolu_a" + n, "Bash",
                            {{"command", "dmesg | grep -i 'out of memory' | tail -1"}}));
    lines.push_back(Result("toolu_a" + n, "Out of memory: Killed process 48" + n + " (python)"));
    lines.push_back(ToolUse("msg_b" + n, "toolu_b" + n, "Write",
                            {{"file_path", "/tmp/n.md"}, {"content", "note " + n}}));
    lines.push_back(Result("toolu_b" + n, json::array({{{"type", "text"}, {"text", "ok"}}})));
    lines.push_back(Meta("Stop hook feedback:\n[causegate hook]: cite it"));
    lines.push_back(Text("msg_c" + n, "Root cause: `Out of memory: Killed process 48" + n + "`"));
    lines.push_back(System("stop_hook_summary"));
  }
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

std::string Mutate(std::string text, std::mt19937* rng) {
  std::uniform_int_distribution<int> kind(0, 5);
  std::uniform_int_distribution<int> count(1, 8);
  const int n = count(*rng);
  for (int i = 0; i < n && !text.empty(); ++i) {
    std::uniform_int_distribution<std::size_t> at(0, text.size() - 1);
    const std::size_t pos = at(*rng);
    switch (kind(*rng)) {
      case 0:
        text.resize(pos);
        break;
      case 1:
        text[pos] = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(*rng));
        break;
      case 2:
        text.insert(pos, "{[\"");
        break;
      case 3:
        if (text[pos] == '\n') text.erase(pos, 1);
        break;
      case 4:
        text.insert(pos, "\n");
        break;
      default:
        text.insert(pos, std::string(300, '['));
        break;
    }
  }
  return text;
}

TEST_CASE("damaged transcripts never crash the readers", "[robustness]") {
  TempDir dir;
  const std::string original = Session();
  std::mt19937 rng(20260301);
  int turns_read = 0;
  for (int round = 0; round < 300; ++round) {
    INFO("round " << round);
    const std::string path = dir.WriteRaw("t.jsonl", Mutate(original, &rng));
    LastTurn last;
    Status s = Status::Ok();
    REQUIRE_NOTHROW(s = ReadLastTurn(path, SessionKind::kMain, &last));
    if (s.ok()) {
      ++turns_read;
      REQUIRE(last.history != nullptr);
      EvidenceIndex index(last.turn, last.history.get());
      Sighting sighting;
      REQUIRE_NOTHROW(sighting = index.Locate("Out of memory: Killed process"));
      REQUIRE_NOTHROW(index.Locate("note 2"));
      REQUIRE_NOTHROW(index.Locate("something that is nowhere at all"));
      if (sighting.call != nullptr) CHECK(sighting.offset <= sighting.call->output.size());
      PastTurn past;
      int guard = 0;
      while (last.history->LoadOlder(&past) && ++guard < 100) {
      }
      CHECK(guard < 100);
    } else {
      CHECK_FALSE(s.message().empty());
    }
    int visited = 0;
    REQUIRE_NOTHROW(s = ForEachTurn(path, SessionKind::kMain, [&visited](const Turn&, int) {
                      ++visited;
                      return true;
                    }));
    CHECK(s.ok() == (visited > 0));
  }
  CHECK(turns_read > 100);  // most mutations leave a readable turn
}

TEST_CASE("random shell text never crashes the command reader", "[robustness]") {
  std::mt19937 rng(7);
  const std::string alphabet = "ab echo'\"\\|&;<>()$`#\n\t-cEOF=";
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::uniform_int_distribution<int> length(0, 200);
  for (int round = 0; round < 2000; ++round) {
    std::string command;
    const int n = length(rng);
    for (int i = 0; i < n; ++i) command.push_back(alphabet[pick(rng)]);
    INFO("command: " << command);
    REQUIRE_NOTHROW(AnalyzeShellCommand(command));
  }
}

}  // namespace
}  // namespace causegate::evidence
