// The progress line of `causegate check` on a terminal: files done of all,
// turns judged, MB/s and the time left, redrawn in place on stderr a few
// times a second and erased at the end. Created only when stderr is a
// terminal and --quiet is not given (never in CI logs or pipes).
// Tests: tests/unit/batch/progress_test.cc (the line's text).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace causegate::batch {

struct ProgressState {
  int files_done = 0;
  int files_total = 0;
  std::int64_t turns = 0;
  std::int64_t bytes_done = 0;
  std::int64_t bytes_total = 0;
  double seconds = 0;
};

// "12/340 files, 5,120 turns, 212.4 MB/s, ETA 0:41". Without a rate yet,
// or with nothing left, the ETA is left out.
std::string ProgressText(const ProgressState& state);

class ProgressLine {
 public:
  // Starts redrawing on out (stderr) every period.
  ProgressLine(std::FILE* out, int files_total, std::int64_t bytes_total,
               std::chrono::milliseconds period = std::chrono::milliseconds(200));
  ~ProgressLine();  // Stop()
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Thread-safe.
  void FileDone(std::int64_t bytes, int turns);
  // Erases the line and joins the thread; idempotent.
  void Stop();

 private:
  void Run();
  void Draw();
  ProgressState Snapshot() const;

  std::FILE* out_;
  const int files_total_;
  const std::int64_t bytes_total_;
  const std::chrono::milliseconds period_;
  const std::chrono::steady_clock::time_point start_;
  std::atomic<int> files_done_{0};
  std::atomic<std::int64_t> turns_{0};
  std::atomic<std::int64_t> bytes_done_{0};
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::size_t drawn_ = 0;  // width of the line on screen
  std::thread thread_;
};

}  // namespace causegate::batch
