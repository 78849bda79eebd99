#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "batch/session_history.h"
#include "evidence/limits.h"
#include "evidence/text_fold.h"

namespace causegate::batch {
namespace {

// Text mixing what tool output holds: ASCII log lines, white space runs,
// punctuation, Chinese, full-width letters, accents and a zero-width space.
std::string MixedText(std::mt19937* rng, std::size_t words) {
  static const std::vector<std::string> kWords = {
      "Out", "of", "memory:", "Killed", "process", "4812", "(python)", "ERROR", "[worker-3]", "connection",
      "refused", "\t", "  ", "\n", "磁盘空间不足", "，", "剩余", "ＯＯＭ", "ｋｉｌｌｅｄ", "café", "naïve", "e\xcc\x81",
      "zero\xe2\x80\x8bwidth", "\xc2\xa0", "Ǆ", "ß", "İstanbul", "---", "100%", "/var/log/app.log", "x"};
  std::uniform_int_distribution<std::size_t> pick(0, kWords.size() - 1);
  std::string text;
  for (std::size_t i = 0; i < words; ++i) {
    text += kWords[pick(*rng)];
    if ((*rng)() % 3 != 0) text += ' ';
  }
  return text;
}

TEST_CASE("a gram filter never misses a quote the look-up would find", "[history]") {
  std::mt19937 rng(5);
  for (int round = 0; round < 200; ++round) {
    const std::string text = MixedText(&rng, 60);
    GramFilter filter(text.size());
    filter.Add(text);
    const std::string folded = evidence::FoldForMatch(text);
    // Every substring of the folded text, as a quote would be matched.
    auto boundary = [&folded](std::size_t i) {  // quotes are whole characters
      while (i < folded.size() && (static_cast<unsigned char>(folded[i]) & 0xC0) == 0x80) ++i;
      return i;
    };
    for (int k = 0; k < 20; ++k) {
      const std::size_t begin = boundary(rng() % folded.size());
      const std::size_t end = boundary(std::min(folded.size(), begin + 1 + rng() % 60));
      const std::string needle = folded.substr(begin, end - begin);
      INFO("round " << round << " needle \"" << needle << "\"");
      CHECK(filter.MayContain(GramFilter::Project(needle)));
    }
    // Raw substrings too (the quote as the agent copied it).
    const std::size_t begin = rng() % text.size();
    const std::string raw = text.substr(begin, 40);
    if (evidence::FoldForMatch(text).find(evidence::FoldForMatch(raw)) != std::string::npos) {
      CHECK(filter.MayContain(GramFilter::Project(raw)));
    }
  }
}

TEST_CASE("a gram filter passes over text that does not hold the quote", "[history]") {
  std::mt19937 rng(7);
  GramFilter filter(1 << 16);
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "2026-03-01 10:00:0" + std::to_string(i % 10) + " INFO request ok id=" +
                                         std::to_string(rng()) + "\n";
  filter.Add(text);
  int passed = 0;
  for (int i = 0; i < 200; ++i) {
    passed += filter.MayContain(GramFilter::Project("Out of memory: Killed process " + std::to_string(rng())));
  }
  CHECK(passed < 5);
  CHECK(filter.MayContain(GramFilter::Project("short")));  // under 8 bytes: cannot tell
  CHECK(GramFilter::Project("  OOM-Killed (pid 42)\t") == "oomkilledpid42");
}

evidence::Turn MakeTurn(const std::string& prompt, const std::vector<std::string>& outputs) {
  evidence::Turn turn;
  turn.prompt = prompt;
  int i = 0;
  for (const std::string& output : outputs) {
    evidence::ToolCall call;
    call.id = "toolu_" + std::to_string(i++);
    call.name = "Bash";
    call.command = "tail -n 50 /var/log/service" + std::to_string(i);
    call.input = "{\"command\":\"" + call.command + "\"}";
    call.output = output;
    call.has_result = true;
    turn.tool_calls.push_back(call);
  }
  return turn;
}

std::vector<std::string> Prompts(evidence::History* history) {
  std::vector<std::string> out;
  evidence::PastTurn past;
  while (history->LoadOlder(&past)) {
    out.push_back(past.prompt + "@" + std::to_string(past.turns_back));
    for (const evidence::ToolCall& call : past.tool_calls) CHECK(call.turns_back == past.turns_back);
  }
  return out;
}

// p0..p3, then kMaxStepTurnsBack turns n0.. that hold nothing quoted.
void PushSession(SessionHistory* history) {
  history->Push(MakeTurn("p0", {"Out of memory: Killed process 4812"}));
  history->Push(MakeTurn("p1", {"all tests passed"}));
  history->Push(MakeTurn("p2", {"Out of memory: Killed process 4812 again", "disk ok"}));
  history->Push(MakeTurn("p3 mentions the Quota exceeded error", {}));
  for (int i = 0; i < limits::kMaxStepTurnsBack; ++i) history->Push(MakeTurn("n" + std::to_string(i), {"-"}));
}

TEST_CASE("a view hands out the newest turns whole when asked", "[history]") {
  SessionHistory history;
  PushSession(&history);
  const int k = limits::kMaxStepTurnsBack;
  std::vector<std::string> newest;
  for (int back = 1; back <= k; ++back) newest.push_back("n" + std::to_string(k - back) + "@" + std::to_string(back));
  std::vector<std::string> expected = newest;
  expected.push_back("p2@" + std::to_string(2 + k));
  expected.push_back("p0@" + std::to_string(4 + k));
  CHECK(Prompts(history.View({"Out of memory: Killed process 4812"}, k).get()) == expected);
  CHECK(Prompts(history.View({"nowhere in the session at all"}, k).get()) == newest);
  CHECK(Prompts(history.View({"nowhere in the session at all"}).get()).empty());
}

TEST_CASE("past the newest turns, only those that can hold a quote", "[history]") {
  SessionHistory history;
  PushSession(&history);
  const int k = limits::kMaxStepTurnsBack;
  auto at = [k](const char* prompt, int back) { return std::string(prompt) + "@" + std::to_string(back + k); };
  // The turns after the newest k, for a view over these quotes.
  auto older = [&history, k](const std::vector<std::string>& quotes) {
    const std::vector<std::string> all = Prompts(history.View(quotes, k).get());
    REQUIRE(static_cast<int>(all.size()) >= k);
    return std::vector<std::string>(all.begin() + k, all.end());
  };
  CHECK(older({"Out of memory: Killed process 4812"}) == std::vector<std::string>{at("p2", 2), at("p0", 4)});
  CHECK(older({"quota EXCEEDED error"}) == std::vector<std::string>{at("p3 mentions the Quota exceeded error", 1)});
  // A quote of a command (the look-up classifies it as tool input).
  CHECK(older({"tail -n 50 /var/log/service1"}) == std::vector<std::string>{at("p2", 2), at("p1", 3), at("p0", 4)});
  CHECK(older({"nowhere in the session at all"}).empty());
  // A quote too short to filter on: every earlier turn.
  CHECK(older({"4812 ok", "nowhere in the session at all"}).size() == 4);
  CHECK(older({}).empty());
}

TEST_CASE("the history is bounded: the oldest turns go first", "[history]") {
  const std::string output(4000, 'x');
  SessionHistory history(20000);
  for (int i = 0; i < 10; ++i) history.Push(MakeTurn("p" + std::to_string(i), {output}));
  CHECK(history.bytes() <= 20000);
  CHECK(history.kept() + history.dropped() == 10);
  CHECK(history.dropped() > 0);
  const std::vector<std::string> kept = Prompts(history.View({"xxxxxxxxxxxx"}).get());
  REQUIRE_FALSE(kept.empty());
  CHECK(kept.front() == "p9@1");
  CHECK(kept.back() == "p" + std::to_string(history.dropped()) + "@" + std::to_string(10 - history.dropped()));
}

}  // namespace
}  // namespace causegate::batch
