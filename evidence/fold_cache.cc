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
  if (!InputCache().on()) return compute();
  const std::string bytes = key();
  if (const auto kept = InputCache().Find(0, bytes)) return *kept;
  FoldedInput folded = compute();
  InputCache().Insert(0, bytes, folded);
  return folded;
}

std::string FoldOutput(std::string_view raw) {
  if (raw.size() < kMinCachedFoldBytes) return FoldForMatch(raw);
  if (const auto kept = Cache().Find(0, raw)) return *kept;
  std::string folded = FoldForMatch(raw);
  Cache().Insert(0, raw, folded);
  return folded;
}

FoldCacheStats GetFoldCacheStats() {
  const ContentCacheStats s = Cache().stats();
  FoldCacheStats out;
  out.hits = s.hits;
  out.misses = s.misses;
  out.bytes = s.bytes;
  return out;
}

std::size_t FoldCacheBytesFromEnvironment() { return CacheBytesFromEnvironment("CAUSEGATE_FOLD_CACHE_MB", 64); }

}  // namespace causegate::evidence
