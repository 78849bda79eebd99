#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <utility>
#include <random>
#include <string>
#include <vector>

#include "batch/session_history.h"
#include "batch/spill_file.h"
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
    GramFilter filter(4 * text.size());
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
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "2026-03-01 10:00:0" + std::to_string(i % 10) + " INFO request ok id=" +
                                         std::to_string(rng()) + "\n";
  GramFilter filter(text.size());  // the sparsest a check gives (one bit per byte)
  filter.Add(text);
  int passed = 0;
  for (int i = 0; i < 200; ++i) {
    passed += filter.MayContain(GramFilter::Project("Out of memory: Killed process " + std::to_string(rng())));
  }
  CHECK(passed < 5);
  CHECK(filter.MayContain(GramFilter::Project("short")));  // under 8 bytes: cannot tell
  CHECK(GramFilter::Project("  OOM-Killed (pid 42)\t") == "oomkilledpid42");
}

TEST_CASE("a gram filter passes over the same line with another number", "[history]") {
  // Logs repeat a line with other numbers; a quote of one of them (or one
  // made up, a digit changed) must not let every turn holding the line
  // through. At one bit per byte, the sparsest filter a check builds.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> pid(1000, 99999);
  int passed = 0, tried = 0;
  for (int turn = 0; turn < 100; ++turn) {
    std::string text;
    for (int i = 0; i < 300; ++i) {
      text += "2026-03-01 10:00:00 INFO [worker] request ok id=" + std::to_string(rng()) + "\n";
    }
    text += "kernel: Out of memory: Killed process " + std::to_string(pid(rng)) + " (python) total-vm:" +
            std::to_string(pid(rng)) + "kB\n";
    GramFilter filter(text.size());
    filter.Add(text);
    for (int k = 0; k < 5; ++k, ++tried) {
      passed += filter.MayContain(GramFilter::Project("Out of memory: Killed process " + std::to_string(pid(rng)) +
                                                      " (python) total-vm:" + std::to_string(pid(rng)) + "kB"));
    }
  }
  INFO(passed << " of " << tried << " passed");
  CHECK(passed * 50 < tried);  // under 2%
}

TEST_CASE("a spilled gram filter answers as it did in memory", "[history]") {
  // Folded in memory and its words in the file, a filter must rule out
  // exactly what it ruled out whole: true quotes, the same line with
  // another number, text from elsewhere, and needles too short to tell.
  std::shared_ptr<SpillFile> file;
  REQUIRE(SpillFile::Open(&file).ok());
  std::mt19937 rng(13);
  std::uniform_int_distribution<int> pid(1000, 99999);
  int answers = 0, passed = 0;
  for (int round = 0; round < 40; ++round) {
    std::string text = MixedText(&rng, 200);
    for (int i = 0; i < 100; ++i) {
      text += "2026-03-01 10:00:00 INFO [worker] request ok id=" + std::to_string(rng()) + "\n";
    }
    text += "kernel: Out of memory: Killed process " + std::to_string(pid(rng)) + "\n";
    std::vector<std::string> needles = {"Out of memory: Killed process " + std::to_string(pid(rng)), "ok",
                                        MixedText(&rng, 8)};
    for (int k = 0; k < 30; ++k) needles.push_back(text.substr(rng() % text.size(), 10 + rng() % 50));
    for (const std::uint32_t fold : {2u, 4u, 8u, 64u}) {
      // From one bit per byte, the sparsest, to eight.
      const std::uint64_t bits = text.size() * (1 + round % 8);
      GramFilter whole(bits);
      whole.Add(text);
      GramFilter spilled(bits);
      spilled.Add(text);
      const std::int64_t end = file->size();
      REQUIRE(spilled.Spill(file, fold).ok());
      CHECK(spilled.spilled());
      CHECK(file->size() - end == static_cast<std::int64_t>(whole.bytes()));
      CHECK(spilled.bytes() * fold <= whole.bytes() + 8 * fold);
      for (const std::string& raw : needles) {
        const std::string needle = GramFilter::Project(raw);
        INFO("round " << round << " fold " << fold << " needle \"" << raw << "\"");
        const bool answer = whole.MayContain(needle);
        CHECK(spilled.MayContain(needle) == answer);
        ++answers;
        passed += answer;
      }
    }
  }
  // Both answers were asked for.
  CHECK(passed > answers / 10);
  CHECK(passed < answers);
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

// Turns as a file holds them: the rereader hands back the turn pushed
// at each place, and counts how often it was asked.
class FakeRereader final : public evidence::TurnRereader {
 public:
  void Add(const evidence::TurnPlace& place, evidence::Turn turn) { turns_.emplace_back(place, std::move(turn)); }
  Status Read(const evidence::TurnPlace& place, evidence::Turn* out) const override {
    ++reads_;
    for (const auto& [at, turn] : turns_) {
      if (at.begin == place.begin) {
        *out = turn;
        return Status::Ok();
      }
    }
    return Status::Error("nothing at " + std::to_string(place.begin));
  }
  const std::string& path() const override { return path_; }
  std::int64_t file_bytes() const override { return turns_.empty() ? 0 : turns_.back().first.end; }
  int reads() const { return reads_; }

 private:
  std::vector<std::pair<evidence::TurnPlace, evidence::Turn>> turns_;
  std::string path_ = "fake.jsonl";
  mutable int reads_ = 0;
};

TEST_CASE("earlier turns are read again from their places, not kept", "[history]") {
  auto file = std::make_shared<FakeRereader>();
  std::vector<evidence::Turn> turns;
  std::vector<evidence::TurnPlace> places;
  for (int i = 0; i < 6; ++i) {
    const std::string output = i == 1 ? "Out of memory: Killed process 4812" : std::string(40000, '.');
    turns.push_back(MakeTurn("p" + std::to_string(i), {output}));
    places.push_back(evidence::TurnPlace{i * 41000, (i + 1) * 41000, i * 10 + 1});
    file->Add(places.back(), turns.back());
  }
  SessionHistory history(file);
  for (int i = 0; i < 5; ++i) history.Push(turns[static_cast<std::size_t>(i)], places[static_cast<std::size_t>(i)]);
  CHECK(history.bytes() < 5 * 40000);  // filters, not the outputs
  const auto view = history.View({"Out of memory: Killed process 4812"}, 0, places[5]);
  evidence::PastTurn past;
  REQUIRE(view->LoadOlder(&past));
  CHECK(past.prompt == "p1");
  CHECK(past.turns_back == 4);
  REQUIRE(past.tool_calls.size() == 1);
  CHECK(past.tool_calls[0].output == "Out of memory: Killed process 4812");
  CHECK(past.tool_calls[0].turns_back == 4);
  CHECK_FALSE(view->LoadOlder(&past));
  CHECK(file->reads() == 1);  // only the turn that can hold the quote
  CHECK(history.rereads() == 1);
  CHECK(history.status().ok());
}

TEST_CASE("a turn read again that is not the one pushed stops the look-up", "[history]") {
  auto file = std::make_shared<FakeRereader>();
  const evidence::TurnPlace at{0, 1000, 1};
  file->Add(at, MakeTurn("p0", {"Out of memory: Killed process 4812 and more"}));
  SessionHistory history(file);
  history.Push(MakeTurn("p0", {"Out of memory: Killed process 4812"}), at);
  const auto view = history.View({"Out of memory: Killed process 4812"}, 0, evidence::TurnPlace{1000, 2000, 9});
  evidence::PastTurn past;
  CHECK_FALSE(view->LoadOlder(&past));
  CHECK_FALSE(history.status().ok());
  CHECK(history.status().message().find("rewritten") != std::string::npos);
}

TEST_CASE("the history reaches back as far as the hook reads back", "[history]") {
  auto file = std::make_shared<FakeRereader>();
  const std::string quote = "Out of memory: Killed process 4812";
  std::vector<evidence::TurnPlace> places;
  for (int i = 0; i < 10; ++i) {
    places.push_back(evidence::TurnPlace{i * 1000, (i + 1) * 1000, i + 1});
    file->Add(places.back(), MakeTurn("p" + std::to_string(i), {quote}));
  }
  SessionHistory history(file, /*read_back_bytes=*/3500);
  // As line_reader.cc reads back: a line at `begin` is reached when the
  // '\n' before it is, or the file's start is.
  auto in_reach = [](const evidence::TurnPlace& earlier, std::int64_t end) {
    return end - earlier.begin < 3500 || (earlier.begin == 0 && end <= 3500);
  };
  for (int i = 0; i < 9; ++i) {
    history.Push(MakeTurn("p" + std::to_string(i), {quote}), places[static_cast<std::size_t>(i)]);
    const evidence::TurnPlace& judged = places[static_cast<std::size_t>(i + 1)];
    std::vector<std::string> want;
    for (int j = i; j >= 0 && in_reach(places[static_cast<std::size_t>(j)], judged.end); --j) {
      want.push_back("p" + std::to_string(j) + "@" + std::to_string(i + 1 - j));
    }
    INFO("judging turn " << i + 1);
    CHECK(Prompts(history.View({quote}, 0, judged).get()) == want);
  }
  CHECK(history.dropped() > 0);
  CHECK(history.kept() <= 4);
  // A file no larger than the reach: its first turn, at offset 0, stays in reach.
  SessionHistory whole(file, /*read_back_bytes=*/10000);
  for (int i = 0; i < 9; ++i) {
    whole.Push(MakeTurn("p" + std::to_string(i), {quote}), places[static_cast<std::size_t>(i)]);
  }
  CHECK(Prompts(whole.View({quote}, 0, places[9]).get()).back() == "p0@9");
  CHECK(whole.dropped() == 0);
}

TEST_CASE("a view outlives later pushes: what it reaches is not freed under it", "[history]") {
  auto file = std::make_shared<FakeRereader>();
  const std::string quote = "Out of memory: Killed process 4812";
  std::vector<evidence::TurnPlace> places;
  for (int i = 0; i < 6; ++i) {
    places.push_back(evidence::TurnPlace{i * 1000, (i + 1) * 1000, i + 1});
    file->Add(places.back(), MakeTurn("p" + std::to_string(i), {quote}));
  }
  SessionHistory history(file, /*read_back_bytes=*/3500);
  history.Push(MakeTurn("p0", {quote}), places[0]);
  history.Push(MakeTurn("p1", {quote}), places[1]);
  // Turn 2 ends at 3000: it reaches p1 and p0.
  std::unique_ptr<evidence::History> early = history.View({quote}, 0, places[2]);
  for (int i = 2; i < 5; ++i) {
    history.Push(MakeTurn("p" + std::to_string(i), {quote}), places[static_cast<std::size_t>(i)]);
  }
  // p0 and p1 are out of every later turn's reach, but the early view still reaches them.
  CHECK(history.dropped() == 0);
  CHECK(Prompts(early.get()) == std::vector<std::string>{"p1@1", "p0@2"});
  early.reset();
  history.Push(MakeTurn("p5", {quote}), places[5]);
  CHECK(history.dropped() == 3);  // p0 to p2: from 6000, only what starts after 2500 is in reach
}
TEST_CASE("filters spilled past the memory given hand out the same turns", "[history]") {
  // The same session, filters in memory and spilled at every fold the
  // memory given asks for: every view hands out the same turns, and the
  // history holds less.
  auto file = std::make_shared<FakeRereader>();
  std::mt19937 rng(17);
  std::vector<evidence::Turn> turns;
  std::vector<evidence::TurnPlace> places;
  std::vector<std::string> quotes;
  for (int i = 0; i < 30; ++i) {
    std::string output;
    for (int k = 0; k < 200; ++k) output += "2026-03-01 10:00:00 INFO request ok id=" + std::to_string(rng()) + "\n";
    const std::string failure = "Out of memory: Killed process " + std::to_string(1000 + rng() % 9000);
    output += failure + "\n";
    quotes.push_back(failure);
    turns.push_back(MakeTurn("p" + std::to_string(i), {output}));
    places.push_back(evidence::TurnPlace{i * 20000, (i + 1) * 20000, i * 10 + 1});
    file->Add(places.back(), turns.back());
  }
  auto views = [&](SessionHistory* history) {
    std::vector<std::vector<std::string>> out;
    for (std::size_t i = 0; i < turns.size(); ++i) {
      // A quote of an earlier turn, one of this turn's (nowhere before),
      // and one made up from it, a digit changed.
      std::string made_up = quotes[i];
      made_up.back() = made_up.back() == '9' ? '0' : static_cast<char>(made_up.back() + 1);
      const std::vector<std::string> asked = {quotes[i / 2], quotes[i], made_up};
      out.push_back(Prompts(history->View(asked, 0, places[i]).get()));
      history->Push(turns[i], places[i]);
    }
    return out;
  };
  SessionHistory in_memory(file);
  const std::vector<std::vector<std::string>> want = views(&in_memory);
  std::shared_ptr<SpillFile> spill;
  REQUIRE(SpillFile::Open(&spill).ok());
  for (const std::size_t memory : {std::size_t{1} << 20, std::size_t{20000}, std::size_t{4000}, std::size_t{1}}) {
    INFO("memory " << memory);
    SessionHistory history(file, static_cast<std::int64_t>(limits::kMaxScanBackBytes), spill, memory);
    CHECK(views(&history) == want);
    if (memory < in_memory.bytes()) CHECK(history.bytes() < in_memory.bytes());
    if (memory >= in_memory.bytes()) CHECK(history.bytes() == in_memory.bytes());
  }
  // Without a spill file, the memory given changes nothing.
  SessionHistory no_spill(file, static_cast<std::int64_t>(limits::kMaxScanBackBytes), nullptr, 1);
  CHECK(views(&no_spill) == want);
  CHECK(no_spill.bytes() == in_memory.bytes());
}

}  // namespace
}  // namespace causegate::batch
