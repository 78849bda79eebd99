// CheckFile against the reference it must equal: each turn judged with all
// earlier turns as history (no filter, nothing dropped), the loop guard as
// the hook applies it; and the last turn as the hook's own reader sees it.
// The session is random but seeded, and mixes the cases that make the
// citation look-up read back: quotes of earlier turns, quotes nowhere,
// quotes of the user's words, of commands, of text the agent wrote.
#include <catch2/catch.hpp>

#include <deque>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "batch/check_file.h"
#include "batch/work_queue.h"
#include "evidence/transcript.h"
#include "gate/gate.h"
#include "rules/loop_policy.h"
#include "rules/verdict.h"
#include "unit/batch/test_rules.h"
#include "unit/evidence/test_util.h"

namespace causegate::batch {
namespace {

using evidence::testing::json;
using evidence::testing::TempDir;
namespace t = evidence::testing;

using testing::Rules;

class MemoryHistory final : public evidence::History {
 public:
  explicit MemoryHistory(std::deque<evidence::PastTurn> turns) : turns_(std::move(turns)) {}
  bool LoadOlder(evidence::PastTurn* out) override {
    if (turns_.empty()) return false;
    *out = std::move(turns_.front());
    turns_.pop_front();
    return true;
  }

 private:
  std::deque<evidence::PastTurn> turns_;
};

struct Reference {
  std::string action;
  std::vector<std::string> findings;
  std::vector<std::string> sources;  // found_in:turns_back of each citation
};

std::vector<Reference> ReferenceJudgement(const std::string& path) {
  std::vector<evidence::Turn> turns;
  REQUIRE(evidence::ForEachTurn(path, evidence::SessionKind::kMain, [&turns](const evidence::Turn& turn, int) {
            turns.push_back(turn);
            return true;
          }).ok());
  std::vector<Reference> out;
  for (std::size_t i = 0; i < turns.size(); ++i) {
    std::deque<evidence::PastTurn> before;
    for (std::size_t k = i; k-- > 0;) {
      evidence::PastTurn past;
      past.prompt = turns[k].prompt;
      past.tool_calls = turns[k].tool_calls;
      past.turns_back = static_cast<int>(i - k);
      for (evidence::ToolCall& call : past.tool_calls) call.turns_back = past.turns_back;
      before.push_back(std::move(past));
    }
    MemoryHistory history(std::move(before));
    const rules::Verdict v = rules::JudgeTurn(turns[i], &history, *Rules());
    const int prior = gate::PriorBlocks(turns[i], false);
    const std::string last = turns[i].stop_feedback.empty() ? "" : turns[i].stop_feedback.back();
    const rules::Outcome o = rules::Decide(v, *Rules(), prior, last, rules::LoopPolicy());
    Reference ref;
    ref.action = rules::ActionName(o.action);
    for (const rules::Claim& c : v.claims) {
      ref.findings.push_back(rules::FindingName(c.finding));
      for (const rules::CitationCheck& check : c.citations) {
        ref.sources.push_back(std::string(evidence::SourceName(check.source)) + ":" + std::to_string(check.turns_back));
      }
    }
    out.push_back(std::move(ref));
  }
  return out;
}

Reference FromRecord(const TurnRecord& record) {
  Reference ref;
  ref.action = record.action;
  for (const ClaimRecord& c : record.claims) {
    ref.findings.push_back(c.finding);
    for (const CitationRecord& check : c.citations) {
      ref.sources.push_back(check.found_in + ":" + std::to_string(check.turns_back));
    }
  }
  return ref;
}

// A seeded session of `turns` turns; returns its lines.
std::vector<std::string> RandomSession(std::mt19937* rng, int turns) {
  std::vector<std::string> lines = {t::Snapshot()};
  std::vector<std::string> planted;  // one real output line per turn
  std::vector<std::string> written;  // lines the agent wrote into files
  std::vector<std::string> prompts;
  auto pick = [rng](int n) { return static_cast<int>((*rng)() % static_cast<unsigned>(n)); };
  for (int i = 0; i < turns; ++i) {
    const std::string n = std::to_string(i);
    const std::string pid = std::to_string(1000 + pick(90000));
    // Some prompts follow up on the turns before (protocol tracking reads them).
    const int kind = pick(6);
    const std::string prompt = kind == 0   ? "please tidy the config of worker " + n
                               : kind == 1 ? "so why did it crash again?"
                                           : "why did worker " + n + " crash with error code E" + pid + "?";
    lines.push_back(t::Prompt(prompt));
    prompts.push_back(prompt);
    const std::string line = "kernel: Out of memory: Killed process " + pid + " (worker-" + n + ")";
    planted.push_back(line);
    const int calls = pick(3);  // 0: no tool ran
    for (int c = 0; c < calls; ++c) {
      const std::string id = "toolu_" + n + "_" + std::to_string(c);
      std::string output;
      for (int k = 0; k < 30; ++k) output += "2026-03-01 INFO request " + std::to_string((*rng)()) + " ok\n";
      if (c == 0) output += line + "\n";
      lines.push_back(t::ToolUse("msg_" + n + "_" + std::to_string(c), id, "Bash", {{"command", "dmesg | tail -40"}}));
      lines.push_back(t::Result(id, output));
    }
    if (pick(5) == 0) {
      const std::string note = "Root cause noted: worker " + n + " leaked file handles";
      written.push_back(note);
      lines.push_back(t::ToolUse("msg_w" + n, "toolu_w" + n, "Write", {{"file_path", "/tmp/notes.md"}, {"content", note}}));
      lines.push_back(t::Result("toolu_w" + n, "File created successfully"));
    }
    std::string final;
    switch (pick(8)) {
      case 0: final = "The worker crashed because `" + line + "`."; break;
      case 1: final = "It crashed because of this earlier line: `" + planted[static_cast<std::size_t>(pick(i + 1))] + "`."; break;
      case 2: final = "The crash happened because `Out of memory: Killed process " + std::to_string(pick(100)) + "0000`."; break;
      case 3: final = "The worker failed because of \"" + prompts[static_cast<std::size_t>(pick(i + 1))].substr(4, 30) + "\"."; break;
      case 4: final = written.empty() ? "Done." : "It failed because `" + written[static_cast<std::size_t>(pick(static_cast<int>(written.size())))] + "`."; break;
      case 5: final = "The root cause is a leak in the connection pool."; break;
      case 6: final = "It might be the pool; next I will count open handles."; break;
      default: final = "Tidied the config and re-ran the checks; all green."; break;
    }
    if (pick(10) == 0) {
      // The gate already sent this turn back twice.
      lines.push_back(t::Meta("Stop hook feedback:\n[causegate hook]: causegate blocked this stop: first"));
      lines.push_back(t::Meta("Stop hook feedback:\n[causegate hook]: causegate blocked this stop: second"));
    }
    lines.push_back(t::Text("msg_f" + n, final));
  }
  return lines;
}

TEST_CASE("every turn gets the verdict the hook would give at its stop", "[check_file]") {
  std::mt19937 rng(20260302);
  TempDir dir;
  for (int round = 0; round < 6; ++round) {
    INFO("round " << round);
    const std::string path = dir.Write("s" + std::to_string(round) + ".jsonl", RandomSession(&rng, 40));
    const FileCheck checked = CheckFile(path, *Rules(), CheckOptions());
    CHECK(checked.file.error.empty());
    CHECK(checked.file.format == "claude-code");
    const std::vector<Reference> expected = ReferenceJudgement(path);
    REQUIRE(checked.turns.size() == expected.size());
    int flagged = 0, read_back = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      INFO("turn " << i + 1);
      const Reference got = FromRecord(checked.turns[i]);
      CHECK(got.action == expected[i].action);
      CHECK(got.findings == expected[i].findings);
      CHECK(got.sources == expected[i].sources);
      CHECK(checked.turns[i].turn == static_cast<int>(i) + 1);
      CHECK(checked.turns[i].file == path);
      flagged += checked.turns[i].flagged();
      for (const std::string& s : got.sources) read_back += s.back() != '0';
    }
    CHECK(flagged > 0);
    CHECK(read_back > 0);  // the session did exercise the history

    // The same on a queue served by three more threads, turns read ahead
    // of their judging: each judged with the history as it stood.
    WorkQueue queue;
    std::vector<std::thread> helpers;
    for (int i = 0; i < 3; ++i) helpers.emplace_back([&queue] { queue.Serve(); });
    CheckOptions threaded;
    threaded.turns_in_flight = 8;
    const FileCheck parallel = CheckFile(path, *Rules(), threaded, &queue);
    queue.Close();
    for (std::thread& h : helpers) h.join();
    REQUIRE(parallel.turns.size() == checked.turns.size());
    for (std::size_t i = 0; i < checked.turns.size(); ++i) {
      INFO("turn " << i + 1 << " on the queue");
      CHECK(parallel.turns[i].json == checked.turns[i].json);
    }

    // The last turn, as the hook's reader (from the end of the file) sees it.
    evidence::LastTurn last;
    REQUIRE(evidence::ReadLastTurn(path, evidence::SessionKind::kMain, &last).ok());
    const rules::Verdict v = rules::JudgeTurn(last.turn, last.history.get(), *Rules());
    const int prior = gate::PriorBlocks(last.turn, false);
    const std::string reason = last.turn.stop_feedback.empty() ? "" : last.turn.stop_feedback.back();
    CHECK(checked.turns.back().action ==
          rules::ActionName(rules::Decide(v, *Rules(), prior, reason, rules::LoopPolicy()).action));
  }
}

TEST_CASE("a small history budget drops the oldest turns, not the verdicts of recent ones", "[check_file]") {
  TempDir dir;
  const std::string quote = "kernel: Out of memory: Killed process 4812";
  std::vector<std::string> lines = {t::Prompt("why did it crash?"),
                                    t::ToolUse("m1", "toolu_1", "Bash", {{"command", "dmesg"}}),
                                    t::Result("toolu_1", quote + "\n" + std::string(50000, '.')),
                                    t::Text("m2", "Looking.")};
  for (int i = 0; i < 3; ++i) {
    lines.push_back(t::Prompt("and now?"));
    lines.push_back(t::ToolUse("m3" + std::to_string(i), "toolu_3" + std::to_string(i), "Bash", {{"command", "ls"}}));
    lines.push_back(t::Result("toolu_3" + std::to_string(i), std::string(50000, '-')));
    lines.push_back(t::Text("m4" + std::to_string(i), "It crashed because `" + quote + "`."));
  }
  const std::string path = dir.Write("s.jsonl", lines);
  CheckOptions roomy;
  const FileCheck all = CheckFile(path, *Rules(), roomy);
  REQUIRE(all.turns.size() == 4);
  CHECK(all.turns[3].action == "allow");  // cited from three turns back
  CheckOptions tight;
  tight.read_back_bytes = 120000;  // about two turns of the file
  const FileCheck some = CheckFile(path, *Rules(), tight);
  REQUIRE(some.turns.size() == 4);
  CHECK(some.turns[1].action == "allow");
  CHECK(some.turns[3].action == "block");  // its evidence was dropped
}

TEST_CASE("files that are not read, or hold no turn", "[check_file]") {
  TempDir dir;
  struct Case {
    const char* name;
    std::string path;
    bool unreadable;
    int turns;
    const char* format;
  };
  const std::vector<Case> cases = {
      {"missing", dir.File("missing.jsonl"), true, 0, ""},
      {"folder", dir.path(), true, 0, ""},
      {"not a transcript", dir.Write("x.jsonl", {R"({"level":"info"})"}), true, 0, ""},
      {"empty", dir.WriteRaw("empty.jsonl", ""), false, 0, "unknown"},
      {"no prompt", dir.Write("np.jsonl", {t::Snapshot(), t::Text("m", "hi")}), false, 0, "claude-code"},
      {"a subagent's own file", dir.Write("agent-a1b2c3.jsonl", {t::Prompt("find out why", /*sidechain=*/true),
                                                                 t::Text("m", "ok", /*sidechain=*/true)}),
       false, 1, "claude-code"},
      {"the same lines in a session file", dir.Write("main.jsonl", {t::Prompt("find out why", true), t::Text("m", "ok", true)}),
       false, 0, "claude-code"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const FileCheck checked = CheckFile(c.path, *Rules(), CheckOptions());
    CHECK(checked.file.unreadable() == c.unreadable);
    if (c.unreadable) CHECK(checked.file.error.rfind(c.path, 0) == 0);
    CHECK(checked.file.turns == c.turns);
    CHECK(static_cast<int>(checked.turns.size()) == c.turns);
    CHECK(checked.file.format == c.format);
  }
}

TEST_CASE("a compaction summary is not judged, and says so", "[check_file]") {
  TempDir dir;
  auto lines = [](const std::string& agent_id) {
    json prompt = json::parse(t::Prompt("Your task is to create a detailed summary of the conversation so far.", true));
    prompt["agentId"] = agent_id;
    return std::vector<std::string>{prompt.dump(),
                                    t::Text("m", "The root cause: the export failed because the disk is full.", true)};
  };
  struct Case {
    const char* name;
    std::string path;
    bool compaction;
  };
  const std::vector<Case> cases = {
      {"file name", dir.Write("agent-acompact-e1f845.jsonl", lines("x1")), true},
      {"agentId", dir.Write("agent-a9.jsonl", lines("acompact-a9")), true},
      {"an ordinary subagent", dir.Write("agent-a8.jsonl", lines("a8")), false},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    const FileCheck checked = CheckFile(c.path, *Rules(), CheckOptions());
    CHECK_FALSE(checked.file.unreadable());
    if (c.compaction) {
      CHECK(checked.file.not_judged == gate::kCompactionSummaryNote);
      CHECK(checked.turns.empty());
    } else {
      CHECK(checked.file.not_judged.empty());
      REQUIRE(checked.turns.size() == 1);
      CHECK(checked.turns[0].blocked());
    }
  }
}

TEST_CASE("a claim's span in the raw message", "[check_file]") {
  struct Case {
    const char* message;
    std::size_t offset;
    const char* sentence;
    const char* spanned;
  };
  const std::vector<Case> cases = {
      {"Plain. It failed because x.", 7, "It failed because x.", "It failed because x."},
      {"It **failed** because `x` broke.", 0, "It failed because x broke.", "It **failed** because `x` broke."},
      {"A &amp; B failed\nbecause of C. Next.", 0, "A & B failed because of C.", "A &amp; B failed\nbecause of C."},
      {"短句。根因是磁盘满了。", 9, "根因是磁盘满了。", "根因是磁盘满了。"},
  };
  for (const Case& c : cases) {
    INFO(c.message);
    const Span span = SentenceSpan(c.message, c.offset, c.sentence);
    CHECK(std::string(c.message).substr(span.begin, span.end - span.begin) == c.spanned);
  }
  // Text that does not align ends at most a sentence's length on, on a
  // character boundary.
  const std::string zh = "根因是磁盘满了";
  const Span odd = SentenceSpan(zh, 0, "completely different text!");
  CHECK(odd.end <= zh.size());
  CHECK(odd.end % 3 == 0);
}

}  // namespace
}  // namespace causegate::batch
