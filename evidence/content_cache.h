// What a pure function of a text gave, kept for the processes that judge
// many stops (`causegate serve`, the resident daemon): a session's stops
// read the same transcript lines and tool output again at every stop, and
// only the lines written since the last stop are new.
//
// Keyed by the text itself plus a salt (which function, which variant of
// it): a hash finds the entry, and the whole text is compared on a hit, so
// what Find returns is exactly what the function gives for that text, from
// whatever file or offset it came. Nothing can go stale: a transcript
// rewritten in place, truncated or replaced under the same name has other
// bytes, and other bytes are another key. Bounded in bytes (the key plus
// what the cost function charges for the value), least recently used out;
// an entry alone over the bound is not kept. Off (bound 0) until a process
// turns it on. Thread-safe: values are shared as immutable shared_ptrs, so
// a reader copies one outside the lock.
// Users: evidence/fold_cache.h (folded tool output), evidence/line_cache.h
// (parsed transcript lines), rules/symptom_cache.h (symptoms in tool output).
// Tests: tests/unit/evidence/content_cache_test.cc.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace causegate::evidence {

struct ContentCacheStats {
  std::size_t hits = 0;
  std::size_t misses = 0;
  std::size_t bytes = 0;    // keys plus charged values, within the bound
  std::size_t entries = 0;
};

// The bytes a daemon gives a cache: the environment variable `name` (a
// whole number of MiB from 0, off, to 4096), else fallback_mib. A value
// that is not such a number is ignored.
std::size_t CacheBytesFromEnvironment(const char* name, std::size_t fallback_mib);

template <typename Value>
class ContentCache {
 public:
  // cost: the bytes an entry's value is charged (its key is added).
  explicit ContentCache(std::function<std::size_t(const Value&)> cost) : cost_(std::move(cost)) {}
  ContentCache(const ContentCache&) = delete;
  ContentCache& operator=(const ContentCache&) = delete;

  // Changes the bound (0: off, and everything kept is dropped); entries
  // past it go, least recently used first.
  void SetBound(std::size_t max_bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    max_bytes_ = max_bytes;
    on_.store(max_bytes > 0, std::memory_order_relaxed);
    Trim();
  }

  // Without the lock: a process that never turns the cache on (the hook,
  // `check` with its worker threads) pays one load per question.
  bool on() const { return on_.load(std::memory_order_relaxed); }

  // The value kept for (salt, key), or null (counted as a miss; off, not
  // counted at all).
  std::shared_ptr<const Value> Find(std::uint64_t salt, std::string_view key) {
    if (!on()) return nullptr;
    const std::size_t hash = Hash(salt, key);
    std::lock_guard<std::mutex> lock(mu_);
    if (max_bytes_ == 0) return nullptr;
    if (auto it = Locate(hash, salt, key); it != by_hash_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);  // most recently used first
      ++stats_.hits;
      return it->second->value;
    }
    ++stats_.misses;
    return nullptr;
  }

  // Keeps value for (salt, key). A key already kept (another thread's
  // miss on the same text) keeps its first value: both are the function's
  // value of the same text.
  void Insert(std::uint64_t salt, std::string_view key, Value value) {
    if (!on()) return;
    const std::size_t bytes = key.size() + cost_(value);
    const std::size_t hash = Hash(salt, key);
    std::lock_guard<std::mutex> lock(mu_);
    if (bytes > max_bytes_ || Locate(hash, salt, key) != by_hash_.end()) return;
    lru_.push_front(Entry{salt, hash, bytes, std::string(key), std::make_shared<const Value>(std::move(value))});
    by_hash_.emplace(hash, lru_.begin());
    stats_.bytes += bytes;
    ++stats_.entries;
    Trim();
  }

  // compute(), the function's value of key, kept under (salt, key): the
  // one way the cache's users memoise (find, else compute and keep).
  template <typename Compute>
  Value GetOrCompute(std::uint64_t salt, std::string_view key, const Compute& compute) {
    if (!on()) return compute();
    if (const std::shared_ptr<const Value> kept = Find(salt, key)) return *kept;
    Value value = compute();
    Insert(salt, key, value);
    return value;
  }

  ContentCacheStats stats() {
    std::lock_guard<std::mutex> lock(mu_);
    return stats_;
  }

 private:
  struct Entry {
    std::uint64_t salt;
    std::size_t hash;
    std::size_t bytes;
    std::string key;
    std::shared_ptr<const Value> value;
  };
  using Lru = std::list<Entry>;
  using Index = std::unordered_multimap<std::size_t, typename Lru::iterator>;

  static std::size_t Hash(std::uint64_t salt, std::string_view key) {
    return std::hash<std::string_view>()(key) ^ (salt * 0x9E3779B97F4A7C15ULL);
  }

  // REQUIRES: mu_ held.
  typename Index::iterator Locate(std::size_t hash, std::uint64_t salt, std::string_view key) {
    auto [begin, end] = by_hash_.equal_range(hash);
    for (auto it = begin; it != end; ++it) {
      if (it->second->salt == salt && it->second->key == key) return it;
    }
    return by_hash_.end();
  }

  // REQUIRES: mu_ held.
  void Trim() {
    while (stats_.bytes > max_bytes_ && !lru_.empty()) {
      const Entry& last = lru_.back();
      auto [begin, end] = by_hash_.equal_range(last.hash);
      for (auto it = begin; it != end; ++it) {
        if (&*it->second == &last) {
          by_hash_.erase(it);
          break;
        }
      }
      stats_.bytes -= last.bytes;
      --stats_.entries;
      lru_.pop_back();
    }
  }

  const std::function<std::size_t(const Value&)> cost_;
  std::mutex mu_;
  std::atomic<bool> on_{false};
  std::size_t max_bytes_ = 0;
  Lru lru_;
  Index by_hash_;
  ContentCacheStats stats_;
};

}  // namespace causegate::evidence
