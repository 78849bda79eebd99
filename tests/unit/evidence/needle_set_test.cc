// NeedleSet: the first occurrence of every needle, checked against a
// plain find for each, on overlapping, nested and repeated needles, and
// the cost on needles that are suffixes of one another.
#include "evidence/needle_set.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <random>
#include <string>
#include <vector>

namespace causegate::evidence {
namespace {

// What FirstHits must answer, one find per needle.
std::vector<NeedleSet::Hit> OneFindEach(const std::vector<std::string>& needles, const std::string& text) {
  std::vector<NeedleSet::Hit> hits;
  for (std::size_t n = 0; n < needles.size(); ++n) {
    if (needles[n].empty()) continue;
    const std::size_t at = text.find(needles[n]);
    if (at != std::string::npos) hits.push_back(NeedleSet::Hit{static_cast<int>(n), at});
  }
  return hits;
}

void RequireSameHits(const std::vector<std::string>& needles, const std::string& text) {
  const std::vector<NeedleSet::Hit> got = NeedleSet(needles).FirstHits(text);
  const std::vector<NeedleSet::Hit> want = OneFindEach(needles, text);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("needle " << want[i].needle << " " << needles[static_cast<std::size_t>(want[i].needle)]);
    CHECK(got[i].needle == want[i].needle);
    CHECK(got[i].offset == want[i].offset);
  }
}

TEST_CASE("NeedleSet finds each needle's first occurrence, as one find each would", "[needle_set]") {
  RequireSameHits({"he", "she", "his", "hers"}, "ushers and his sheep");
  RequireSameHits({"abcd", "bc", "c", "bcd", "x"}, "zabcdzzbc");
  RequireSameHits({"aaaa", "aa", "aaa", "a"}, "baaaab");
  RequireSameHits({"same", "same", ""}, "the same twice: same");
  RequireSameHits({"Out of memory", "out of memory", "Killed process"}, "Out of memory: Killed process 7");
  RequireSameHits({"\xe5\x86\x85\xe5\xad\x98", "\xe4\xb8\x8d\xe8\xb6\xb3"}, "\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3");
  RequireSameHits({"one needle"}, "just one needle here");
  RequireSameHits({"nothing"}, "");
  RequireSameHits({}, "no needles");
}

TEST_CASE("NeedleSet agrees with find on random needles and text", "[needle_set]") {
  std::mt19937 random(15);
  std::uniform_int_distribution<int> letter(0, 2);  // three letters: many overlaps
  auto word = [&](std::size_t length) {
    std::string w;
    for (std::size_t i = 0; i < length; ++i) w.push_back(static_cast<char>('a' + letter(random)));
    return w;
  };
  for (int round = 0; round < 200; ++round) {
    std::vector<std::string> needles;
    for (int n = 0; n < 12; ++n) needles.push_back(word(1 + static_cast<std::size_t>(n % 6)));
    RequireSameHits(needles, word(300));
  }
}

TEST_CASE("NeedleSet stays linear on needles that are suffixes of one another", "[needle_set]") {
  // 256 needles a^8 .. a^263 against 8 MiB of 'a': every byte ends all the
  // needles up to its depth; found ones are skipped, so this is one pass.
  std::vector<std::string> needles;
  for (std::size_t n = 8; n < 8 + 256; ++n) needles.push_back(std::string(n, 'a'));
  needles.push_back("ab");  // never found: the pass cannot stop early
  const std::string text(8u << 20, 'a');
  const auto start = std::chrono::steady_clock::now();
  const std::vector<NeedleSet::Hit> hits = NeedleSet(needles).FirstHits(text);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(hits.size() == 256);
  CHECK(hits.front().offset == 0);
  CHECK(hits.back().offset == 0);
  CHECK(seconds < 5.0);  // about 0.05 s; 256 walks per byte would take minutes
}

}  // namespace
}  // namespace causegate::evidence
