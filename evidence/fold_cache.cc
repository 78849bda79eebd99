#include "evidence/fold_cache.h"

#include "evidence/content_cache.h"
#include "evidence/text_fold.h"

namespace causegate::evidence {
namespace {

ContentCache<std::string>& Cache() {
  // Never destroyed: daemons' threads may outlive main.
  static auto* cache = new ContentCache<std::string>([](const std::string& folded) { return folded.size(); });
  return *cache;
}

ContentCache<FoldedInput>& InputCache() {
  static auto* cache = new ContentCache<FoldedInput>(
      [](const FoldedInput& folded) { return sizeof(FoldedInput) + folded.all.size() + folded.supplied.size(); });
  return *cache;
}

}  // namespace

void EnableFoldCache(std::size_t max_bytes) {
  Cache().SetBound(max_bytes);
  InputCache().SetBound(max_bytes / 4);
}

FoldedInput FoldInput(const std::function<std::string()>& key, const std::function<FoldedInput()>& compute) {
  if (!InputCache().on()) return compute();  // the key is not built
  return InputCache().GetOrCompute(0, key(), compute);
}

std::string FoldOutput(std::string_view raw) {
  if (raw.size() < kMinCachedFoldBytes) return FoldForMatch(raw);
  return Cache().GetOrCompute(0, raw, [raw] { return FoldForMatch(raw); });
}

FoldCacheStats GetFoldCacheStats() { return Cache().stats(); }

std::size_t FoldCacheBytesFromEnvironment() { return CacheBytesFromEnvironment("CAUSEGATE_FOLD_CACHE_MB", 64); }

}  // namespace causegate::evidence
