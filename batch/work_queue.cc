#include "batch/work_queue.h"

namespace causegate::batch {

void WorkQueue::Push(Task task) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(std::move(task));
  }
  changed_.notify_all();
}

void WorkQueue::RunUntil(const std::function<bool()>& ready) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!ready()) {
    if (tasks_.empty()) {
      changed_.wait(lock);
      continue;
    }
    {
      Task task = std::move(tasks_.front());
      tasks_.pop_front();
      lock.unlock();
      task();
    }  // gone before the lock is taken again
    lock.lock();
  }
}

void WorkQueue::Serve() { RunUntil([this] { return closed_ && tasks_.empty(); }); }

void WorkQueue::Close() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  changed_.notify_all();
}

}  // namespace causegate::batch
