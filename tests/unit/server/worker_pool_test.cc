#include "server/worker_pool.h"

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

namespace causegate::server {
namespace {

TEST_CASE("WorkerPool::queued counts jobs no worker has taken yet", "[server][pool]") {
  WorkerPool pool(1, 1);  // one worker, none more
  CHECK(pool.queued() == 0);
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> started{0};
  pool.Submit([&] {
    ++started;
    released.wait();
  });
  while (started.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::atomic<bool> second_ran{false};
  pool.Submit([&] { second_ran = true; });
  CHECK(pool.queued() == 1);  // the only worker is busy
  release.set_value();
  pool.Shutdown();
  CHECK(second_ran.load());
  CHECK(pool.queued() == 0);
}

}  // namespace
}  // namespace causegate::server
