#include "evidence/fold_cache.h"

#include <cstdlib>
#include <functional>
#include <list>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "evidence/text_fold.h"

namespace causegate::evidence {
namespace {

struct Entry {
  std::string raw;
  std::string folded;
};

class FoldCache {
 public:
  void SetBound(std::size_t max_bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    max_bytes_ = max_bytes;
    Trim();
  }

  bool on() {
    std::lock_guard<std::mutex> lock(mu_);
    return max_bytes_ > 0;
  }

  std::string Fold(std::string_view raw) {
    const std::size_t hash = std::hash<std::string_view>()(raw);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (max_bytes_ == 0) return FoldForMatch(raw);
      auto [begin, end] = by_hash_.equal_range(hash);
      for (auto it = begin; it != end; ++it) {
        if (it->second->raw == raw) {
          lru_.splice(lru_.begin(), lru_, it->second);  // most recently used first
          ++stats_.hits;
          return it->second->folded;
        }
      }
      ++stats_.misses;
    }
    std::string folded = FoldForMatch(raw);  // outside the lock: the costly part
    std::lock_guard<std::mutex> lock(mu_);
    const std::size_t size = raw.size() + folded.size();
    if (size > max_bytes_) return folded;
    lru_.push_front(Entry{std::string(raw), folded});
    by_hash_.emplace(hash, lru_.begin());
    stats_.bytes += size;
    Trim();
    return folded;
  }

  FoldCacheStats stats() {
    std::lock_guard<std::mutex> lock(mu_);
    return stats_;
  }

 private:
  // REQUIRES: mu_ held.
  void Trim() {
    while (stats_.bytes > max_bytes_ && !lru_.empty()) {
      const Entry& last = lru_.back();
      auto [begin, end] = by_hash_.equal_range(std::hash<std::string_view>()(last.raw));
      for (auto it = begin; it != end; ++it) {
        if (&*it->second == &last) {
          by_hash_.erase(it);
          break;
        }
      }
      stats_.bytes -= last.raw.size() + last.folded.size();
      lru_.pop_back();
    }
  }

  std::mutex mu_;
  std::size_t max_bytes_ = 0;
  std::list<Entry> lru_;
  std::unordered_multimap<std::size_t, std::list<Entry>::iterator> by_hash_;
  FoldCacheStats stats_;
};

FoldCache& Cache() {
  static FoldCache* cache = new FoldCache;  // never destroyed: daemons' threads may outlive main
  return *cache;
}

}  // namespace

void EnableFoldCache(std::size_t max_bytes) { Cache().SetBound(max_bytes); }

std::string FoldOutput(std::string_view raw) {
  if (raw.size() < kMinCachedFoldBytes) return FoldForMatch(raw);
  return Cache().Fold(raw);
}

FoldCacheStats GetFoldCacheStats() { return Cache().stats(); }

std::size_t FoldCacheBytesFromEnvironment() {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  const char* value = std::getenv("CAUSEGATE_FOLD_CACHE_MB");
  if (value == nullptr || *value == '\0') return 64 * kMiB;
  char* end = nullptr;
  const unsigned long mb = std::strtoul(value, &end, 10);
  return *end == '\0' && mb <= 4096 ? mb * kMiB : 64 * kMiB;
}

}  // namespace causegate::evidence
