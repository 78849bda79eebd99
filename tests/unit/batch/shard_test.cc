#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "batch/shard.h"

namespace causegate::batch {
namespace {

TEST_CASE("--shard I/N parses", "[shard]") {
  struct Case {
    const char* text;
    bool ok;
    int index, count;
  };
  const std::vector<Case> cases = {
      {"1/1", true, 1, 1}, {"2/4", true, 2, 4},  {"4/4", true, 4, 4},  {"0/4", false, 0, 0},
      {"5/4", false, 0, 0}, {"1/0", false, 0, 0}, {"2", false, 0, 0},   {"a/b", false, 0, 0},
      {"1/2/3", false, 0, 0}, {"-1/2", false, 0, 0}, {" 1/2", false, 0, 0}, {"", false, 0, 0},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    Shard shard;
    const Status s = ParseShard(c.text, &shard);
    CHECK(s.ok() == c.ok);
    if (c.ok) {
      CHECK(shard.index == c.index);
      CHECK(shard.count == c.count);
    } else {
      CHECK(s.message().find("--shard") != std::string::npos);
    }
  }
}

TEST_CASE("FNV-1a 64 test vectors", "[shard]") {
  // From the FNV reference test suite (isthe.com/chongo/tech/comp/fnv).
  CHECK(Fnv1a64("") == 0xcbf29ce484222325ull);
  CHECK(Fnv1a64("a") == 0xaf63dc4c8601ec8cull);
  CHECK(Fnv1a64("foobar") == 0x85944171f73967e8ull);
}

TEST_CASE("every file lands in exactly one shard, evenly, whatever ./ it has", "[shard]") {
  constexpr int kShards = 4;
  std::vector<int> per(kShards + 1, 0);
  for (int i = 0; i < 2000; ++i) {
    const std::string path = "sessions/2026/03/rollout-" + std::to_string(i) + ".jsonl";
    int owners = 0;
    for (int s = 1; s <= kShards; ++s) {
      const bool in = InShard(path, Shard{s, kShards});
      CHECK(InShard("./" + path, Shard{s, kShards}) == in);
      CHECK(InShard(".//./" + path, Shard{s, kShards}) == in);
      if (in) {
        ++owners;
        ++per[static_cast<std::size_t>(s)];
      }
    }
    CHECK(owners == 1);
  }
  for (int s = 1; s <= kShards; ++s) {
    INFO("shard " << s);
    CHECK(per[static_cast<std::size_t>(s)] > 400);
    CHECK(per[static_cast<std::size_t>(s)] < 600);
  }
  CHECK(InShard("anything", Shard{}));
  CHECK(ShardKey("./a/b") == "a/b");
  CHECK(ShardKey("/abs/a") == "/abs/a");
}

}  // namespace
}  // namespace causegate::batch
