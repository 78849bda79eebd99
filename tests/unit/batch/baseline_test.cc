// The baseline round trip: record today's flagged claims, then only a new
// one fails; what a broken baseline file is told; --statistics' counts.
#include "batch/baseline.h"

#include <catch2/catch.hpp>

#include <string>

#include "batch/outputs.h"
#include "batch/statistics.h"

namespace causegate::batch {
namespace {

TurnRecord Turn(const std::string& file, int n, const std::string& action,
                std::vector<std::pair<std::string, std::string>> claims) {
  TurnRecord t;
  t.file = file;
  t.turn = n;
  t.action = action;
  for (const auto& [sentence, finding] : claims) {
    ClaimRecord c;
    c.sentence = sentence;
    c.finding = finding;
    c.rule = "en.claim.because";
    t.claims.push_back(c);
  }
  t.json = "{\"file\":\"" + file + "\",\"turn\":" + std::to_string(n) + "}";
  return t;
}

CheckResults Today() {
  CheckResults r;
  r.turns.push_back(Turn("a.jsonl", 1, "block", {{"It failed because of the cron job.", "no-citation"}}));
  r.turns.push_back(Turn("a.jsonl", 2, "allow", {{"It failed because `disk full`.", "supported"}}));
  r.turns.push_back(Turn("b.jsonl", 1, "allow-unproven", {{"The pool ran out because of retries.", "fabricated"}}));
  return r;
}

TEST_CASE("Baseline: today's flagged claims recorded, then only a new one fails") {
  const std::string doc = RenderBaseline(Today());
  Baseline baseline;
  REQUIRE(ParseBaseline(doc, "base.json", &baseline).ok());
  CHECK(baseline.fingerprints.size() == 2);

  CheckResults tomorrow = Today();
  tomorrow.turns.push_back(Turn("a.jsonl", 3, "block", {{"It failed because the token expired.", "no-citation"}}));
  CHECK(ApplyBaseline(baseline, &tomorrow) == 2);
  const Summary s = Summarize(tomorrow);
  CHECK(s.known == 2);
  CHECK(s.flagged() == 1);
  CHECK(s.findings.at("no-citation") == 1);
  CHECK(s.findings.count("fabricated") == 0);
  CHECK(ExitCode(s, ExitPolicy{}, 0) == kExitBlocked);
  CHECK(tomorrow.turns[0].known);
  CHECK_FALSE(tomorrow.turns[3].known);
  // The JSON results say which turns the baseline knew, for merge.
  const std::string json = RenderJson(tomorrow);
  CheckResults back;
  REQUIRE(ParseResultsJson(json, "r.json", &back).ok());
  CHECK(Summarize(back).known == 2);

  // Nothing new: the run is clean.
  CheckResults again = Today();
  ApplyBaseline(baseline, &again);
  CHECK(ExitCode(Summarize(again), ExitPolicy{}, 0) == kExitClean);
}

TEST_CASE("Baseline: a turn with one claim the baseline lacks is new; the fingerprint is SARIF's") {
  Baseline baseline;
  REQUIRE(ParseBaseline(RenderBaseline(Today()), "base.json", &baseline).ok());
  CheckResults r;
  r.turns.push_back(Turn("a.jsonl", 1, "block",
                         {{"It failed because of the cron job.", "no-citation"}, {"And because of DNS.", "no-citation"}}));
  CHECK(ApplyBaseline(baseline, &r) == 0);
  CHECK(ClaimFingerprint(r.turns[0], r.turns[0].claims[0]).size() == 16);
  CHECK(ClaimFingerprint(r.turns[0], r.turns[0].claims[0]) != ClaimFingerprint(r.turns[0], r.turns[0].claims[1]));
}

TEST_CASE("Baseline: a file that is not one is refused with why") {
  Baseline b;
  CHECK(ParseBaseline("not json", "x.json", &b).message().find("not a baseline") != std::string::npos);
  CHECK(ParseBaseline(R"({"format":"causegate-results","version":1})", "x.json", &b).message().find("format") !=
        std::string::npos);
  CHECK(ParseBaseline(R"({"format":"causegate-baseline","version":9,"claims":[]})", "x.json", &b)
            .message()
            .find("version 9") != std::string::npos);
  CHECK(ParseBaseline(R"({"format":"causegate-baseline","version":1,"claims":[{"fingerprint":"xyz"}]})", "x.json", &b)
            .message()
            .find("claims[0]") != std::string::npos);
}

TEST_CASE("Statistics: unsupported claims per rule and finding, most first, known turns left out") {
  CheckResults r = Today();
  r.turns.push_back(Turn("c.jsonl", 1, "block", {{"X because Y.", "no-citation"}, {"Z because W.", "no-citation"}}));
  const std::string stats = RenderStatistics(r);
  CHECK(stats.find("     3  en.claim.because  no-citation") == 0);
  CHECK(stats.find("     1  en.claim.because  fabricated") != std::string::npos);
  CHECK(stats.find("     4  unsupported claims in all") != std::string::npos);
  for (std::size_t i = 0; i < r.turns.size(); ++i) r.turns.set_known(i, r.turns.action(i) != "allow");
  CHECK(RenderStatistics(r) == "no unsupported claims\n");
}

}  // namespace
}  // namespace causegate::batch
