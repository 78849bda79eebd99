#include "batch/progress.h"

#include <cinttypes>

namespace causegate::batch {
namespace {

std::string Thousands(std::int64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

}  // namespace

std::string ProgressText(const ProgressState& s) {
  char buf[160];
  const double mb = static_cast<double>(s.bytes_done) / (1 << 20);
  const double rate = s.seconds > 0 ? mb / s.seconds : 0;
  std::string text = std::to_string(s.files_done) + "/" + std::to_string(s.files_total) + " files, " +
                     Thousands(s.turns) + " turns";
  std::snprintf(buf, sizeof(buf), ", %.1f MB/s", rate);
  text += buf;
  const std::int64_t left = s.bytes_total - s.bytes_done;
  if (rate > 0 && left > 0) {
    const auto eta = static_cast<std::int64_t>(static_cast<double>(left) / (1 << 20) / rate + 0.5);
    std::snprintf(buf, sizeof(buf), ", ETA %" PRId64 ":%02" PRId64, eta / 60, eta % 60);
    text += buf;
  }
  return text;
}

ProgressLine::ProgressLine(std::FILE* out, int files_total, std::int64_t bytes_total,
                           std::chrono::milliseconds period)
    : out_(out),
      files_total_(files_total),
      bytes_total_(bytes_total),
      period_(period),
      start_(std::chrono::steady_clock::now()),
      thread_([this] { Run(); }) {}

ProgressLine::~ProgressLine() { Stop(); }

void ProgressLine::FileDone(std::int64_t bytes, int turns) {
  bytes_done_ += bytes;
  turns_ += turns;
  ++files_done_;
}

ProgressState ProgressLine::Snapshot() const {
  ProgressState s;
  s.files_done = files_done_;
  s.files_total = files_total_;
  s.turns = turns_;
  s.bytes_done = bytes_done_;
  s.bytes_total = bytes_total_;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return s;
}

void ProgressLine::Draw() {
  const std::string text = "causegate check: " + ProgressText(Snapshot());
  // Pad over a longer previous line, then return to the line's start.
  std::string line = "\r" + text;
  if (text.size() < drawn_) line.append(drawn_ - text.size(), ' ');
  drawn_ = text.size();
  std::fputs(line.c_str(), out_);
  std::fflush(out_);
}

void ProgressLine::Run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!wake_.wait_for(lock, period_, [this] { return stop_; })) Draw();
}

void ProgressLine::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stop_) return;
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (drawn_ > 0) {
    std::fprintf(out_, "\r%s\r", std::string(drawn_, ' ').c_str());
    std::fflush(out_);
  }
}

}  // namespace causegate::batch
