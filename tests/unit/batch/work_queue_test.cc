#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "batch/work_queue.h"

namespace causegate::batch {
namespace {

// A queue served by `helpers` threads besides the test's, closed and
// joined when it goes.
class Served {
 public:
  explicit Served(int helpers) {
    for (int i = 0; i < helpers; ++i) threads_.emplace_back([this] { queue.Serve(); });
  }
  ~Served() {
    queue.Close();
    for (std::thread& t : threads_) t.join();
  }
  WorkQueue queue;

 private:
  std::vector<std::thread> threads_;
};

void Spin(int micros) { std::this_thread::sleep_for(std::chrono::microseconds(micros)); }

TEST_CASE("results come back in the order submitted, whatever order they finish in", "[work_queue]") {
  for (const int helpers : {0, 1, 3, 7}) {
    INFO("helpers " << helpers);
    Served served(helpers);
    std::vector<int> emitted;
    {
      OrderedTasks<int> tasks(&served.queue, 8, [&emitted](int&& value, const Status& status) {
        CHECK(status.ok());
        emitted.push_back(value);
        return true;
      });
      std::mt19937 rng(static_cast<unsigned>(helpers));
      for (int i = 0; i < 200; ++i) {
        const int wait = static_cast<int>(rng() % 300);  // later tasks often finish first
        tasks.Submit([i, wait] {
          Spin(wait);
          return i;
        });
      }
      tasks.Finish();
    }
    std::vector<int> want(200);
    for (int i = 0; i < 200; ++i) want[static_cast<std::size_t>(i)] = i;
    CHECK(emitted == want);
  }
}

TEST_CASE("no more than capacity tasks are held at once", "[work_queue]") {
  for (const std::size_t capacity : {std::size_t{1}, std::size_t{3}, std::size_t{6}}) {
    INFO("capacity " << capacity);
    Served served(3);
    std::atomic<int> held{0};  // submitted and not yet emitted
    std::atomic<int> most{0};
    std::atomic<int> running{0};
    std::atomic<int> most_running{0};
    {
      OrderedTasks<int> tasks(&served.queue, capacity, [&held](int&&, const Status&) {
        --held;
        return true;
      });
      for (int i = 0; i < 100; ++i) {
        tasks.Submit([&running, &most_running] {
          const int now = ++running;
          int seen = most_running.load();
          while (now > seen && !most_running.compare_exchange_weak(seen, now)) {
          }
          Spin(50);
          --running;
          return 0;
        });
        const int now = ++held;
        if (now > most) most = now;
      }
      tasks.Finish();
    }
    CHECK(held == 0);
    // Submit returns with the new task held: at most capacity of them.
    CHECK(most <= static_cast<int>(capacity));
    CHECK(most_running <= static_cast<int>(capacity));
    if (capacity > 1) CHECK(most_running > 1);  // the helpers did run tasks
  }
}

TEST_CASE("a task that throws is emitted as an error in its place", "[work_queue]") {
  Served served(2);
  std::vector<std::string> emitted;
  {
    OrderedTasks<int> tasks(&served.queue, 4, [&emitted](int&& value, const Status& status) {
      emitted.push_back(status.ok() ? std::to_string(value) : "error: " + status.message());
      return true;
    });
    for (int i = 0; i < 6; ++i) {
      tasks.Submit([i] {
        if (i == 2) throw std::runtime_error("turn 3 broke");
        if (i == 4) throw 7;  // not a std::exception
        return i;
      });
    }
    tasks.Finish();
  }
  CHECK(emitted == std::vector<std::string>{"0", "1", "error: turn 3 broke", "3", "error: unknown exception", "5"});
}

TEST_CASE("once emit says stop, later results are dropped and every task still finishes", "[work_queue]") {
  Served served(2);
  std::vector<int> emitted;
  std::atomic<int> ran{0};
  {
    OrderedTasks<int> tasks(&served.queue, 3, [&emitted](int&& value, const Status&) {
      emitted.push_back(value);
      return value < 4;
    });
    for (int i = 0; i < 20; ++i) {
      tasks.Submit([i, &ran] {
        Spin(100);
        ++ran;
        return i;
      });
    }
    tasks.Finish();
  }
  CHECK(emitted == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(ran == 20);
}

TEST_CASE("going away without Finish waits for the tasks and emits nothing more", "[work_queue]") {
  Served served(1);
  std::atomic<int> ran{0};
  int emitted = 0;
  {
    OrderedTasks<int> tasks(&served.queue, 4, [&emitted](int&&, const Status&) {
      ++emitted;
      return true;
    });
    for (int i = 0; i < 4; ++i) {
      tasks.Submit([&ran] {
        Spin(2000);
        ++ran;
        return 0;
      });
    }
  }  // what the tasks refer to (ran) may go now
  CHECK(ran == 4);
  CHECK(emitted == 0);
}

TEST_CASE("with no thread serving, the submitting thread runs every task in order", "[work_queue]") {
  WorkQueue queue;
  std::vector<int> order;  // the order tasks ran in
  std::vector<int> emitted;
  const std::thread::id me = std::this_thread::get_id();
  {
    OrderedTasks<int> tasks(&queue, 1, [&emitted](int&& value, const Status&) {
      emitted.push_back(value);
      return true;
    });
    for (int i = 0; i < 5; ++i) {
      tasks.Submit([i, &order, me] {
        CHECK(std::this_thread::get_id() == me);
        order.push_back(i);
        return i;
      });
      // With room for one, the task before is run and emitted first.
      CHECK(static_cast<int>(emitted.size()) == i);
    }
    tasks.Finish();
  }
  CHECK(order == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(emitted == order);
}

TEST_CASE("Serve returns once the queue is closed and empty", "[work_queue]") {
  WorkQueue queue;
  std::atomic<int> ran{0};
  std::thread server([&queue] { queue.Serve(); });
  for (int i = 0; i < 10; ++i) queue.Push([&ran] { ++ran; });
  queue.Close();
  server.join();
  CHECK(ran == 10);
  // A closed queue with nothing left returns at once.
  queue.Serve();
}

TEST_CASE("readers of several files share the threads", "[work_queue]") {
  Served served(2);
  std::vector<std::vector<int>> emitted(3);
  std::vector<std::thread> readers;
  for (int f = 0; f < 3; ++f) {
    readers.emplace_back([&served, &emitted, f] {
      OrderedTasks<int> tasks(&served.queue, 4, [&emitted, f](int&& value, const Status&) {
        emitted[static_cast<std::size_t>(f)].push_back(value);
        return true;
      });
      for (int i = 0; i < 50; ++i) {
        tasks.Submit([i, f] {
          Spin((i * 37 + f * 11) % 200);
          return i;
        });
      }
      tasks.Finish();
    });
  }
  for (std::thread& t : readers) t.join();
  std::vector<int> want(50);
  for (int i = 0; i < 50; ++i) want[static_cast<std::size_t>(i)] = i;
  for (const auto& e : emitted) CHECK(e == want);
}

}  // namespace
}  // namespace causegate::batch
