// Folded tool output kept between stops, for the processes that judge many
// (`causegate serve`, the resident daemon): a session's stops fold the same
// tool output again at every stop (the judged turn, and earlier turns read
// back for citations), and folding was the largest single cost of a
// daemon's verdict (bench/RESULTS.md). The cache is keyed by the raw text
// itself (a hash to find it, the whole text compared on a hit), so an
// entry is exactly FoldForMatch of its text whatever session or offset it
// came from: no verdict can change. Each call's input, folded with the
// agent's own text in it, is kept the same way beside the outputs, keyed
// by the call's name, command and input. Bounded in bytes (raw plus
// folded), least recently used first out (evidence/content_cache.h). Off
// until a process enables it; the hook process never does (it judges one
// stop). Thread-safe.
// Tests: tests/unit/evidence/fold_cache_test.cc.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "evidence/content_cache.h"

namespace causegate::evidence {

// Texts shorter than this are folded each time: cheaper than a look-up.
inline constexpr std::size_t kMinCachedFoldBytes = 1024;

// Turns the cache on with room for max_bytes of folded output and a
// quarter of that of folded inputs (0: off, the default), or changes its
// bound; entries past it go, least recently used first.
void EnableFoldCache(std::size_t max_bytes);

// FoldForMatch(raw), from the cache when it is on and raw is long enough.
std::string FoldOutput(std::string_view raw);

// What a tool call's input gives the citation look-up, folded: all its
// string values, and the text the agent supplied in it (evidence_index.cc).
struct FoldedInput {
  std::string all;
  std::string supplied;
  bool supplies = false;  // the agent supplied text (supplied may fold to "")
};
// compute(), kept under key() when the cache is on (key is not built when
// it is off): the key must hold every byte compute reads (the call's name,
// command and input). The folded inputs have a quarter of the fold
// cache's bound, apart from the outputs.
FoldedInput FoldInput(const std::function<std::string()>& key, const std::function<FoldedInput()>& compute);

// The bound a daemon enables: CAUSEGATE_FOLD_CACHE_MB (a whole number from
// 0, off, to 4096) in bytes, else 64 MiB.
std::size_t FoldCacheBytesFromEnvironment();

// The folded outputs' counts (the inputs' are apart).
using FoldCacheStats = ContentCacheStats;
FoldCacheStats GetFoldCacheStats();

}  // namespace causegate::evidence
