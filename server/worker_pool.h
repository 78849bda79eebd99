// The threads that answer requests. `threads` workers are always ready;
// when a request arrives and none is free, another starts at once, up to
// `max_workers` (they stay), so requests that wait (a transcript still
// being written holds its worker up to 2 s) do not hold up the others;
// past that, requests wait in order for a worker. Only requests whose head
// is in reach the pool (server/connection_lobby.h), so a worker is never
// held by a client that is idle or slow to send its head, and the queue
// holds at most one job per open connection.
// Thread-safe.
// Tests: tests/e2e/serve_clients.py, serve_test.py (the drain).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace causegate::server {

class WorkerPool {
 public:
  WorkerPool(std::size_t threads, std::size_t max_workers);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  void Submit(std::function<void()> job);

  // Jobs submitted and not yet taken by a worker: requests waiting because
  // every worker is busy (a worker then does not stay on its connection
  // for the next request, server/next_head.h).
  std::size_t queued() const;

  // Runs the jobs already submitted, then joins the workers. Later Submits
  // run the job on the caller's thread.
  void Shutdown();

 private:
  void Work();

  const std::size_t max_workers_;
  mutable std::mutex mu_;
  std::condition_variable not_empty_;
  std::deque<std::function<void()>> jobs_;  // guarded by mu_
  std::size_t idle_ = 0;                    // workers waiting for a job (guarded by mu_)
  bool shutdown_ = false;                   // guarded by mu_
  std::vector<std::thread> workers_;        // guarded by mu_
};

}  // namespace causegate::server
