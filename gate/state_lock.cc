// flock with a bounded wait: LOCK_NB retried with a short sleep that grows
// to kMaxPoll, since flock itself has no timeout and a signal alarm would
// be process-wide in a threaded daemon. The locks guard writes of a few
// hundred bytes, so a lock is normally had at the first or second try.
#include "gate/state_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <thread>

#include "gate/state_dir.h"

namespace causegate::gate {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::chrono::microseconds kFirstPoll{200};
constexpr std::chrono::microseconds kMaxPoll{10000};

}  // namespace

Status LockWithin(int fd, LockMode mode, std::chrono::milliseconds wait, std::string_view what) {
  const int operation = (mode == LockMode::kShared ? LOCK_SH : LOCK_EX) | LOCK_NB;
  const auto deadline = Clock::now() + wait;
  std::chrono::microseconds poll = kFirstPoll;
  while (flock(fd, operation) != 0) {
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) return Status::Error(std::string(what) + ": lock: " + std::strerror(errno));
    if (Clock::now() >= deadline) {
      return Status::Error(std::string(what) + ": lock: not had within " + std::to_string(wait.count()) + " ms");
    }
    std::this_thread::sleep_for(poll);
    poll = std::min(poll * 2, kMaxPoll);
  }
  return Status::Ok();
}

std::string StateLockPath(const std::string& state_dir, std::string_view name) {
  // HashHex is FNV-1a: its low digits spread names evenly over the stripes.
  const unsigned long stripe = std::stoul(HashHex(name).substr(8), nullptr, 16) % kStateLockStripes;
  const std::string digits = std::to_string(stripe);
  return state_dir + "/locks/" + (digits.size() < 2 ? "0" + digits : digits) + ".lock";
}

SessionStateLock::SessionStateLock(SessionStateLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

SessionStateLock& SessionStateLock::operator=(SessionStateLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

SessionStateLock::~SessionStateLock() {
  if (fd_ >= 0) close(fd_);  // releases the lock
}

Status SessionStateLock::Acquire(const std::string& state_dir, std::string_view name, SessionStateLock* out,
                                 std::chrono::milliseconds wait) {
  *out = SessionStateLock();
  if (state_dir.empty()) return Status::Error("state lock: no state folder (XDG_STATE_HOME and HOME unset)");
  const std::string path = StateLockPath(state_dir, name);
  if (Status s = EnsureDir(state_dir + "/locks"); !s.ok()) return s;
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return Status::Error(path + ": " + std::strerror(errno));
  if (Status s = LockWithin(fd, LockMode::kExclusive, wait, path); !s.ok()) {
    close(fd);
    return s;
  }
  out->fd_ = fd;
  return Status::Ok();
}

}  // namespace causegate::gate
