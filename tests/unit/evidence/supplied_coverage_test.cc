// SuppliedCoverage: the share of a fragment made of runs of text the agent
// supplied, counted only from calls at or before the one that shows it, so
// that splitting or formatting a made-up line does not wash it.
#include "evidence/supplied_coverage.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "evidence/text_fold.h"

namespace causegate::evidence {
namespace {

double ShareOf(const std::string& fragment, const std::vector<std::string>& supplied) {
  const NeedleSet set({FoldForMatch(fragment)});
  SuppliedCoverage coverage(set);
  for (const std::string& text : supplied) coverage.Scan(FoldForMatch(text), CallPlace{0, 0});
  return coverage.Share(0, CallPlace{0, 1});
}

TEST_CASE("supplied coverage: the share of a fragment the agent typed", "[supplied_coverage]") {
  const std::string line = "Out of memory: Killed process 4812 (python)";
  CHECK(ShareOf(line, {}) == 0.0);
  CHECK(ShareOf(line, {"echo '" + line + "'"}) == 1.0);
  // Case and spacing are folded as citations are.
  CHECK(ShareOf(line, {"OUT OF   MEMORY: killed PROCESS 4812 (PYTHON)"}) == 1.0);
  // Split in two and joined by a program: every byte but the join's
  // neighbourhood is still covered.
  CHECK(ShareOf(line, {"print('Out of memory: Kil' + 'led process 4812 (python)')"}) > 0.9);
  // A format and its arguments.
  CHECK(ShareOf(line, {"%s: Killed process %d (%s)", "Out of memory", "4812", "python"}) >= 0.6);
  // A path the agent typed inside a longer real line covers little of it.
  CHECK(ShareOf("No space left on device (/srv/export/part-0007)", {"ls -l /srv/export/part-0007"}) < 0.6);
  // Pieces shorter than a run do not count: common words are not a copy.
  CHECK(ShareOf(line, {"Out", "of", "memory", "Killed", "process"}) == 0.0);
}

TEST_CASE("supplied coverage: only text supplied at or before the call counts", "[supplied_coverage]") {
  const std::string fragment = FoldForMatch("disk filled by the 02:00 cron job");
  const NeedleSet set({fragment, FoldForMatch("another quote entirely")});
  SuppliedCoverage coverage(set);
  coverage.Scan(fragment, CallPlace{0, 3});  // supplied by call 3 of the judged turn
  CHECK(coverage.Share(0, CallPlace{0, 2}) == 0.0);  // shown earlier: real
  CHECK(coverage.Share(0, CallPlace{0, 3}) == 1.0);  // by the call itself
  CHECK(coverage.Share(0, CallPlace{0, 4}) == 1.0);
  CHECK(coverage.Share(1, CallPlace{0, 4}) == 0.0);
  // The same text supplied a turn earlier precedes every call of this one.
  coverage.Scan(fragment, CallPlace{1, 9});
  CHECK(coverage.Share(0, CallPlace{0, 0}) == 1.0);
  CHECK(coverage.Share(0, CallPlace{2, 0}) == 0.0);
}

TEST_CASE("supplied coverage: short needles and overlapping windows", "[supplied_coverage]") {
  const NeedleSet set({"oom", "aaaaaaaaaaaa", ""});
  SuppliedCoverage coverage(set);
  coverage.Scan("the oom killer", CallPlace{0, 0});
  coverage.Scan("xaaaaaaaax", CallPlace{0, 0});  // one window of eight a's
  CHECK(coverage.Share(0, CallPlace{0, 0}) == 1.0);
  // Every window of the twelve a's is the same eight bytes: all covered.
  CHECK(coverage.Share(1, CallPlace{0, 0}) == 1.0);
  CHECK(coverage.Share(2, CallPlace{0, 0}) == 0.0);
}

}  // namespace
}  // namespace causegate::evidence
