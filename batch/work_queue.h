// The threads of one `check` run, shared by every file it checks, and the
// ordered, bounded stream of one file's judged turns on them.
//
// A file is read by one thread, in order, because each turn is judged with
// the turns before it (batch/session_history.h); judging a turn is most of
// the cost and needs nothing of the turns after it. So the reading thread
// hands each turn's judging to the shared WorkQueue (OrderedTasks::Submit)
// and gets the results back in the order it gave them, whichever thread
// ran them and whenever they finished: what a file yields does not depend
// on the number of threads.
//
// The queue has no threads of its own: the run's threads read files and,
// while they wait (a file's stream is full, or its oldest result is not
// done), run queued tasks of any file; a thread with no file left serves
// the queue (Serve) until the run closes it. With one thread every task is
// run by the thread that queued it, in order.
//
// Thread safety: WorkQueue's members may be called from any thread; an
// OrderedTasks is fed (Submit, Finish) by one thread, where emit runs.
// Tests: tests/unit/batch/work_queue_test.cc.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "evidence/status.h"

namespace causegate::batch {

class WorkQueue {
 public:
  using Task = std::function<void()>;

  WorkQueue() = default;
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // Queues a task; never blocks. The task must not throw (OrderedTasks
  // catches for its tasks) and must not wait on the queue.
  void Push(Task task);

  // Runs queued tasks, oldest first, until ready() holds; waits when none
  // is queued. ready is called under the queue's lock: it may read what
  // tasks write under it (OrderedTasks), and must not call the queue.
  void RunUntil(const std::function<bool()>& ready);

  // Runs queued tasks until Close() has been called and none is left.
  void Serve();
  // No more tasks will be pushed: Serve returns once the queue is empty.
  void Close();

 private:
  template <typename T>
  friend class OrderedTasks;

  std::mutex mutex_;
  std::condition_variable changed_;  // a task queued or finished, or closed
  std::deque<Task> tasks_;
  bool closed_ = false;
};

// One reader's tasks on a WorkQueue, their results handed to `emit` in
// the order submitted, on the reader's thread (in Submit and Finish). At
// most `capacity` tasks are held (queued, running, or done behind an
// older one not done): Submit waits, running queued tasks and emitting
// what is ready, until one more fits. A task that throws yields its
// exception's message as the Status emitted for it. Once emit returns
// false, later results are dropped unseen (their tasks still run).
template <typename T>
class OrderedTasks {
 public:
  using Emit = std::function<bool(T&& value, const Status& status)>;

  // REQUIRES: queue outlives this. capacity: at least 1.
  OrderedTasks(WorkQueue* queue, std::size_t capacity, Emit emit)
      : queue_(queue), capacity_(capacity < 1 ? 1 : capacity), emit_(std::move(emit)) {}
  // Waits for every task submitted (running queued ones), emitting
  // nothing more: what the tasks refer to may go once this is gone.
  ~OrderedTasks() {
    queue_->RunUntil([this] { return running_ == 0; });
  }
  OrderedTasks(const OrderedTasks&) = delete;
  OrderedTasks& operator=(const OrderedTasks&) = delete;

  void Submit(std::function<T()> task) {
    EmitReady();
    while (Held() >= capacity_) {
      queue_->RunUntil([this] { return slots_.size() < capacity_ || slots_.front()->done; });
      EmitReady();
    }
    auto slot = std::make_shared<Slot>();
    {
      const std::lock_guard<std::mutex> lock(queue_->mutex_);
      slots_.push_back(slot);
      ++running_;
    }
    queue_->Push([this, slot, task = std::move(task)]() mutable {
      std::optional<T> value;
      Status status;
      try {
        value.emplace(task());
      } catch (const std::exception& e) {
        status = Status::Error(e.what());
      } catch (...) {
        status = Status::Error("unknown exception");
      }
      // What the task holds goes before it is counted done: the owner may
      // then free what it refers to.
      task = nullptr;
      const std::lock_guard<std::mutex> lock(queue_->mutex_);
      slot->value = std::move(value);
      slot->status = std::move(status);
      slot->done = true;
      --running_;
      queue_->changed_.notify_all();
    });
  }

  // Waits for every task submitted, emitting each result in order.
  void Finish() {
    for (;;) {
      EmitReady();
      if (Held() == 0) return;
      queue_->RunUntil([this] { return slots_.front()->done; });
    }
  }

 private:
  struct Slot {
    bool done = false;
    Status status;
    std::optional<T> value;
  };

  std::size_t Held() {
    const std::lock_guard<std::mutex> lock(queue_->mutex_);
    return slots_.size();
  }

  // Emits the done results at the front, outside the lock.
  void EmitReady() {
    for (;;) {
      std::shared_ptr<Slot> slot;
      {
        const std::lock_guard<std::mutex> lock(queue_->mutex_);
        if (slots_.empty() || !slots_.front()->done) return;
        slot = std::move(slots_.front());
        slots_.pop_front();
      }
      if (stopped_) continue;
      T value = slot->value ? std::move(*slot->value) : T();
      if (!emit_(std::move(value), slot->status)) stopped_ = true;
    }
  }

  WorkQueue* const queue_;
  const std::size_t capacity_;
  const Emit emit_;
  bool stopped_ = false;  // emit said stop; only the reader's thread
  // Guarded by queue_->mutex_.
  std::deque<std::shared_ptr<Slot>> slots_;
  std::size_t running_ = 0;
};

}  // namespace causegate::batch
