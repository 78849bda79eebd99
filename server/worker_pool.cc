#include "server/worker_pool.h"

namespace causegate::server {

WorkerPool::WorkerPool(std::size_t threads, std::size_t max_workers) : max_workers_(max_workers) {
  std::lock_guard<std::mutex> lock(mu_);
  for (std::size_t i = 0; i < threads; ++i) workers_.emplace_back([this] { Work(); });
}

WorkerPool::~WorkerPool() { Shutdown(); }

void WorkerPool::Submit(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!shutdown_) {
      jobs_.push_back(std::move(job));
      // No worker free for it: start one, so it never waits behind a slow one.
      if (jobs_.size() > idle_ && workers_.size() < max_workers_) {
        workers_.emplace_back([this] { Work(); });
      } else {
        not_empty_.notify_one();
      }
      return;
    }
  }
  job();
}

std::size_t WorkerPool::queued() const {
  std::lock_guard<std::mutex> lock(mu_);
  return jobs_.size();
}

void WorkerPool::Shutdown() {
  std::vector<std::thread> workers;
  {
    std::lock_guard<std::mutex> lock(mu_);
    shutdown_ = true;
    workers.swap(workers_);
  }
  not_empty_.notify_all();
  for (std::thread& t : workers) t.join();
}

void WorkerPool::Work() {
  while (true) {
    std::function<void()> job;
    {
      std::unique_lock<std::mutex> lock(mu_);
      ++idle_;
      not_empty_.wait(lock, [this] { return shutdown_ || !jobs_.empty(); });
      --idle_;
      if (jobs_.empty()) return;  // shut down and drained
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

}  // namespace causegate::server
