// The fold cache: what it returns is FoldForMatch of the text, cached or
// not; repeats hit; its bytes stay within the bound; off, it keeps nothing.
#include "evidence/fold_cache.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "evidence/text_fold.h"

namespace causegate::evidence {
namespace {

std::string Text(int seed, std::size_t size) {
  // ASCII, white space runs, full-width and zero-width characters: both of
  // FoldForMatch's paths.
  const std::vector<std::string> parts = {"Error: Disk  FULL on /dev/sda1\n", "\xEF\xBC\xA1\xEF\xBC\xA2 ",
                                          "zero\xE2\x80\x8Bwidth ", "ünïcödé ", std::to_string(seed) + " "};
  std::string out;
  for (std::size_t i = 0; out.size() < size; ++i) out += parts[(i + static_cast<std::size_t>(seed)) % parts.size()];
  return out;
}

TEST_CASE("fold cache: the folded text is FoldForMatch's, cached or not") {
  EnableFoldCache(1 << 20);
  const FoldCacheStats before = GetFoldCacheStats();
  for (const std::size_t size : {std::size_t{10}, kMinCachedFoldBytes, std::size_t{20000}}) {
    for (int seed = 0; seed < 3; ++seed) {
      const std::string raw = Text(seed, size);
      INFO("size " << size << " seed " << seed);
      CHECK(FoldOutput(raw) == FoldForMatch(raw));
      CHECK(FoldOutput(raw) == FoldForMatch(raw));  // the second from the cache
    }
  }
  const FoldCacheStats after = GetFoldCacheStats();
  CHECK(after.misses - before.misses == 6);  // the texts of at least kMinCachedFoldBytes, once each
  CHECK(after.hits - before.hits == 6);
  EnableFoldCache(0);
}

TEST_CASE("fold cache: within its bound, least recently used out") {
  EnableFoldCache(0);
  EnableFoldCache(64 * 1024);
  for (int seed = 0; seed < 40; ++seed) {
    const std::string raw = Text(seed, 8000);
    CHECK(FoldOutput(raw) == FoldForMatch(raw));
    CHECK(GetFoldCacheStats().bytes <= 64 * 1024);
  }
  const FoldCacheStats before = GetFoldCacheStats();
  FoldOutput(Text(39, 8000));  // the newest: still there
  CHECK(GetFoldCacheStats().hits == before.hits + 1);
  FoldOutput(Text(0, 8000));   // the oldest: gone
  CHECK(GetFoldCacheStats().misses == before.misses + 1);
  EnableFoldCache(0);
  CHECK(GetFoldCacheStats().bytes == 0);
}

TEST_CASE("fold cache: off, nothing is kept") {
  EnableFoldCache(0);
  const FoldCacheStats before = GetFoldCacheStats();
  const std::string raw = Text(1, 5000);
  CHECK(FoldOutput(raw) == FoldForMatch(raw));
  CHECK(FoldOutput(raw) == FoldForMatch(raw));
  CHECK(GetFoldCacheStats().hits == before.hits);
  CHECK(GetFoldCacheStats().bytes == 0);
}

}  // namespace
}  // namespace causegate::evidence
