#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "batch/spill_file.h"

namespace causegate::batch {
namespace {

TEST_CASE("what is appended from many threads reads back at its offset", "[spill]") {
  std::shared_ptr<SpillFile> spill;
  REQUIRE(SpillFile::Open(&spill).ok());
  constexpr int kThreads = 4;
  constexpr int kEach = 200;
  std::vector<std::vector<std::int64_t>> offsets(kThreads, std::vector<std::int64_t>(kEach));
  auto text = [](int t, int i) {
    return "{\"thread\":" + std::to_string(t) + ",\"i\":" + std::string(i % 37, 'x') + "}";
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kEach; ++i) CHECK(spill->Append(text(t, i), &offsets[t][i]).ok());
    });
  }
  for (std::thread& th : threads) th.join();
  std::int64_t total = 0;
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kEach; ++i) {
      std::string back;
      INFO("thread " << t << " item " << i);
      REQUIRE(spill->Read(offsets[t][i], text(t, i).size(), &back).ok());
      CHECK(back == text(t, i));
      total += static_cast<std::int64_t>(text(t, i).size());
    }
  }
  CHECK(spill->size() == total);
}

TEST_CASE("reading past what was written is an error, not a short string", "[spill]") {
  std::shared_ptr<SpillFile> spill;
  REQUIRE(SpillFile::Open(&spill).ok());
  std::int64_t at = -1;
  REQUIRE(spill->Append("abc", &at).ok());
  CHECK(at == 0);
  std::string back;
  const Status s = spill->Read(1, 10, &back);
  CHECK_FALSE(s.ok());
  CHECK(s.message().find("spill file in ") == 0);
  CHECK(spill->Read(0, 0, &back).ok());
  CHECK(back.empty());
}

TEST_CASE("a released range leaves its neighbours as they were", "[spill]") {
  // The gram filters of turns out of reach are released while turn
  // objects written before and after them are still to be read.
  std::shared_ptr<SpillFile> spill;
  REQUIRE(SpillFile::Open(&spill).ok());
  const std::string before(10000, 'a');
  const std::string released(20000, 'b');
  const std::string after(5000, 'c');
  std::int64_t at_before = 0, at_released = 0, at_after = 0;
  REQUIRE(spill->Append(before, &at_before).ok());
  REQUIRE(spill->Append(released, &at_released).ok());
  REQUIRE(spill->Append(after, &at_after).ok());
  spill->Release(at_released, released.size());
  std::string back;
  REQUIRE(spill->Read(at_before, before.size(), &back).ok());
  CHECK(back == before);
  REQUIRE(spill->Read(at_after, after.size(), &back).ok());
  CHECK(back == after);
  std::uint64_t word = 0;
  REQUIRE(spill->ReadInto(at_before + 8, sizeof(word), &word).ok());
  CHECK(word == 0x6161616161616161ull);
  CHECK(spill->size() == at_after + static_cast<std::int64_t>(after.size()));
}

}  // namespace
}  // namespace causegate::batch
