// TurnList: a check's turns kept as stubs once their objects are in the
// spill file, read back whole when asked; sorted, spliced and marked known
// as whole records are. (The JSON round trip and the reports over a
// spilled run against one kept in memory: report_test.cc.)
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "batch/results.h"
#include "batch/spill_file.h"

namespace causegate::batch {
namespace {

// A turn object as check writes it: claims with findings, a final message.
std::string Object(const std::string& file, int turn, const std::string& action,
                   const std::vector<std::string>& findings) {
  std::string claims;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (i > 0) claims += ",";
    claims += R"({"sentence":"It broke because of )" + std::to_string(i) + R"(.","rule":"en.claim.because","finding":")" +
              findings[i] + R"(","lang":"en","citations":[{"fragment":"disk full","found_in":"nowhere"}]})";
  }
  return R"({"file":")" + file + R"(","turn":)" + std::to_string(turn) + R"(,"prompt_line":3,"final_line":9,)" +
         R"("agent":"claude-code","model":"m","prompt_excerpt":"why?","final_message":"It broke.","action":")" + action +
         R"(","reason":"cite the output","claims":[)" + claims + "]}";
}

// As check keeps it: parsed, its object spilled, compact.
TurnRecord Spilled(const std::shared_ptr<SpillFile>& spill, const std::string& object) {
  TurnRecord record;
  REQUIRE(ParseTurnRecord(object, &record).ok());
  std::int64_t offset = 0;
  REQUIRE(spill->Append(record.json, &offset).ok());
  record.json_spill = SpillRef{spill, offset, record.json.size()};
  std::string().swap(record.json);
  record.Compact();
  return record;
}

TurnRecord Whole(const std::string& object) {
  TurnRecord record;
  REQUIRE(ParseTurnRecord(object, &record).ok());
  return record;
}

TEST_CASE("a turn list keeps spilled turns as stubs and reads them back whole", "[results]") {
  std::shared_ptr<SpillFile> spill;
  REQUIRE(SpillFile::Open(&spill).ok());
  const std::vector<std::string> objects = {
      Object("a.jsonl", 1, "block", {"no-citation", "supported", "fabricated"}),
      Object("a.jsonl", 2, "allow", {}),
      Object("b.jsonl", 1, "allow-unproven", {"no-probe"}),
  };
  TurnList list;
  list.push_back(Spilled(spill, objects[0]));
  list.push_back(Whole(objects[1]));
  list.push_back(Spilled(spill, objects[2]));
  REQUIRE(list.size() == 3);
  for (std::size_t i = 0; i < list.size(); ++i) {
    INFO("turn " << i);
    const TurnRecord want = Whole(objects[i]);
    const TurnRecord got = list[i];
    CHECK(got.file == want.file);
    CHECK(got.turn == want.turn);
    CHECK(got.action == want.action);
    CHECK(got.final_message == want.final_message);
    CHECK(got.reason == want.reason);
    REQUIRE(got.claims.size() == want.claims.size());
    for (std::size_t c = 0; c < got.claims.size(); ++c) {
      CHECK(got.claims[c].sentence == want.claims[c].sentence);
      CHECK(got.claims[c].citations.size() == want.claims[c].citations.size());
    }
    // What the list keeps, read without the file.
    CHECK(list.file(i) == want.file);
    CHECK(list.turn(i) == want.turn);
    CHECK(list.action(i) == want.action);
    CHECK(list.claims(i) == static_cast<int>(want.claims.size()));
    std::vector<std::string> unsupported;
    for (const ClaimRecord& claim : want.claims) {
      if (!claim.supported()) unsupported.push_back(claim.finding);
    }
    CHECK(list.unsupported(i) == unsupported);
    std::string object;
    REQUIRE(list.LoadJson(i, &object).ok());
    CHECK(object == want.json);
    CHECK(list.json_bytes(i) == want.json.size());
  }
  // Iterating reads each turn as operator[] does.
  std::vector<std::string> messages;
  for (const TurnRecord& turn : list) messages.push_back(turn.file + "#" + std::to_string(turn.turn) + ": " + turn.final_message);
  CHECK(messages == std::vector<std::string>{"a.jsonl#1: It broke.", "a.jsonl#2: It broke.", "b.jsonl#1: It broke."});

  // Known, on stubs and whole turns alike; a copy is its own.
  TurnList copy = list;
  list.set_known(0, true);
  list.set_known(1, true);
  CHECK(list.known(0));
  CHECK(list[0].known);
  CHECK(list[1].known);
  CHECK_FALSE(copy.known(0));
  CHECK_FALSE(copy[0].known);
  CheckResults results;
  results.turns = list;
  const Summary s = Summarize(results);
  CHECK(s.turns == 3);
  CHECK(s.known == 2);
  CHECK(s.blocked == 0);
  CHECK(s.unproven == 1);
  CHECK(s.claims == 4);
  CHECK(s.findings == std::map<std::string, int>{{"no-probe", 1}});
}

TEST_CASE("a turn list sorts, drops repeats and splices stubs and whole turns alike", "[results]") {
  std::shared_ptr<SpillFile> spill;
  REQUIRE(SpillFile::Open(&spill).ok());
  TurnList first;
  first.push_back(Spilled(spill, Object("b.jsonl", 2, "block", {"fabricated"})));
  first.push_back(Whole(Object("a.jsonl", 2, "allow", {})));
  TurnList second;  // its names interned in another order
  second.push_back(Whole(Object("c.jsonl", 1, "allow", {})));
  second.push_back(Spilled(spill, Object("a.jsonl", 1, "allow-unproven", {"no-probe"})));
  second.push_back(Spilled(spill, Object("b.jsonl", 2, "allow", {})));  // a repeat: dropped
  second.push_back(Spilled(spill, Object("b.jsonl", 1, "block", {"no-citation"})));
  first.Splice(std::move(second));
  CHECK(second.empty());
  // A stub of another spill file is read back whole.
  std::shared_ptr<SpillFile> other;
  REQUIRE(SpillFile::Open(&other).ok());
  TurnList third;
  third.push_back(Spilled(other, Object("d.jsonl", 1, "block", {"user-only"})));
  first.Splice(std::move(third));
  first.Normalize();
  std::vector<std::string> order;
  for (std::size_t i = 0; i < first.size(); ++i) {
    std::string findings;
    for (const std::string& f : first.unsupported(i)) findings += " " + f;
    order.push_back(first.file(i) + "#" + std::to_string(first.turn(i)) + " " + first.action(i) + findings);
  }
  CHECK(order == std::vector<std::string>{"a.jsonl#1 allow-unproven no-probe", "a.jsonl#2 allow",
                                          "b.jsonl#1 block no-citation", "b.jsonl#2 block fabricated",
                                          "c.jsonl#1 allow", "d.jsonl#1 block user-only"});
  CHECK(first.back().claims.size() == 1);
  CHECK(first.back().claims[0].finding == "user-only");
}

}  // namespace
}  // namespace causegate::batch
