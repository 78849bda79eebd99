// The content cache: a hit only for the same salt and the same bytes, its
// bytes within the bound with the least recently used out, an entry alone
// over the bound not kept, off keeps nothing, and threads sharing it get
// the values they would have computed.
#include "evidence/content_cache.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace causegate::evidence {
namespace {

using Cache = ContentCache<std::string>;

std::size_t Size(const std::string& value) { return value.size(); }

std::string Upper(std::string text) {
  for (char& c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return text;
}

std::string Key(int i, std::size_t size) {
  std::string out = "key " + std::to_string(i) + " ";
  while (out.size() < size) out += static_cast<char>('a' + (out.size() + static_cast<std::size_t>(i)) % 26);
  return out;
}

TEST_CASE("content cache: a hit needs the same salt and the same bytes") {
  Cache cache(Size);
  cache.SetBound(1 << 20);
  const std::string key = Key(1, 500);
  CHECK(cache.Find(0, key) == nullptr);
  cache.Insert(0, key, Upper(key));
  const auto hit = cache.Find(0, key);
  REQUIRE(hit != nullptr);
  CHECK(*hit == Upper(key));
  CHECK(cache.Find(1, key) == nullptr);  // another parser's entry
  std::string changed = key;
  changed[250] = changed[250] == 'x' ? 'y' : 'x';  // one byte in the middle
  CHECK(cache.Find(0, changed) == nullptr);
  CHECK(cache.Find(0, key.substr(0, key.size() - 1)) == nullptr);  // a prefix
  CHECK(cache.Find(0, key + "z") == nullptr);                      // longer
  const ContentCacheStats s = cache.stats();
  CHECK(s.hits == 1);
  CHECK(s.misses == 5);
  CHECK(s.entries == 1);
  CHECK(s.bytes == 2 * key.size());
}

TEST_CASE("content cache: within its bound, least recently used out") {
  Cache cache(Size);
  cache.SetBound(10 * 1000);  // room for five entries of 2 x 1000 bytes
  for (int i = 0; i < 5; ++i) cache.Insert(0, Key(i, 1000), Upper(Key(i, 1000)));
  CHECK(cache.stats().entries == 5);
  REQUIRE(cache.Find(0, Key(0, 1000)) != nullptr);  // 0 is now the most recent
  cache.Insert(0, Key(5, 1000), Upper(Key(5, 1000)));
  CHECK(cache.stats().bytes <= 10 * 1000);
  CHECK(cache.Find(0, Key(1, 1000)) == nullptr);  // the least recently used went
  CHECK(cache.Find(0, Key(0, 1000)) != nullptr);
  CHECK(cache.Find(0, Key(5, 1000)) != nullptr);
  for (int i = 6; i < 100; ++i) {
    cache.Insert(0, Key(i, 1000), Upper(Key(i, 1000)));
    CHECK(cache.stats().bytes <= 10 * 1000);
    CHECK(cache.stats().entries <= 5);
  }
  cache.Insert(0, Key(200, 6000), Upper(Key(200, 6000)));  // 12,000 bytes alone: not kept
  CHECK(cache.Find(0, Key(200, 6000)) == nullptr);
  CHECK(cache.Find(0, Key(99, 1000)) != nullptr);  // and nothing was evicted for it
  cache.SetBound(2000);  // a smaller bound trims at once
  CHECK(cache.stats().entries == 1);
  CHECK(cache.Find(0, Key(99, 1000)) != nullptr);
}

TEST_CASE("content cache: off, nothing is kept or counted") {
  Cache cache(Size);
  cache.SetBound(1 << 20);
  cache.Insert(0, Key(1, 300), "one");
  cache.SetBound(0);
  CHECK(cache.stats().bytes == 0);
  CHECK(cache.stats().entries == 0);
  cache.Insert(0, Key(1, 300), "one");
  CHECK(cache.Find(0, Key(1, 300)) == nullptr);
  CHECK(cache.stats().entries == 0);
  CHECK(!cache.on());
}

TEST_CASE("content cache: threads sharing it get what they would compute") {
  Cache cache(Size);
  cache.SetBound(24 * 1000);  // room for 30 of the 40 keys: eviction under contention
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      unsigned state = 12345u + static_cast<unsigned>(t);
      for (int round = 0; round < 2000; ++round) {
        state = state * 1103515245u + 12345u;
        const std::string key = Key(static_cast<int>((state >> 16) % 40), 400);
        std::string value;
        if (const auto kept = cache.Find(0, key)) {
          value = *kept;
        } else {
          value = Upper(key);
          cache.Insert(0, key, value);
        }
        if (value != Upper(key)) ++wrong;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(wrong.load() == 0);
  const ContentCacheStats s = cache.stats();
  CHECK(s.bytes <= 24 * 1000);
  CHECK(s.hits > 0);
  CHECK(s.hits + s.misses == 4 * 2000);
}

TEST_CASE("content cache: the bound from the environment") {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  const char* name = "CAUSEGATE_TEST_CACHE_MB";
  unsetenv(name);
  CHECK(CacheBytesFromEnvironment(name, 64) == 64 * kMiB);
  for (const auto& [value, bytes] : std::vector<std::pair<const char*, std::size_t>>{
           {"0", 0}, {"8", 8 * kMiB}, {"4096", 4096 * kMiB}, {"4097", 64 * kMiB}, {"8x", 64 * kMiB}, {"", 64 * kMiB}}) {
    INFO(value);
    setenv(name, value, 1);
    CHECK(CacheBytesFromEnvironment(name, 64) == bytes);
  }
  unsetenv(name);
}

}  // namespace
}  // namespace causegate::evidence
