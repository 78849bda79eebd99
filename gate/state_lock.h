// Locks on the state folder (gate/state_dir.h), so that processes sharing
// it (hook calls of one session, the resident daemon, replicas of
// `causegate serve` behind one load balancer) see each other's writes
// whole and lose none of them. Two kinds, both flock(2):
//
// - A session's loop counter is read, decided on and written back under
//   an exclusive lock of STATE/locks/<stripe>.lock, one of kStateLockStripes
//   files picked by a hash of the counter's name: the counter file itself
//   is replaced by rename and cannot carry the lock, and one lock file per
//   session would be a file per outside id that nothing evicts.
// - A session log is appended to under an exclusive lock of the log and
//   read under a shared one (gate/session_log.h).
//
// flock locks an open file description, so two threads of one daemon
// exclude each other like two processes do. On NFS the Linux client maps
// flock to the server's byte-range locks (NFSv4, or v3 with lockd), unless
// the folder is mounted with local_lock=flock or nolock (untested here:
// the tests share a folder on one host). Waiting is bounded
// (kStateLockWait): a lock not had in time is an error, and the caller goes
// on without it rather than hold the agent's stop.
// Tests: tests/unit/gate/state_lock_test.cc; tests/e2e/serve_replicas.py.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "evidence/status.h"

namespace causegate::gate {

inline constexpr int kStateLockStripes = 64;
inline constexpr std::chrono::milliseconds kStateLockWait{1000};

enum class LockMode { kShared, kExclusive };

// flock(fd, mode), retried until it is had or `wait` has passed. Errors
// name `what` ("STATE/sessions/cursor/c1.jsonl: lock: not had within 1000 ms").
Status LockWithin(int fd, LockMode mode, std::chrono::milliseconds wait, std::string_view what);

// The exclusive lock of one session's counter, held until destruction.
// Movable, not copyable.
class SessionStateLock {
 public:
  SessionStateLock() = default;
  SessionStateLock(SessionStateLock&& other) noexcept;
  SessionStateLock& operator=(SessionStateLock&& other) noexcept;
  SessionStateLock(const SessionStateLock&) = delete;
  SessionStateLock& operator=(const SessionStateLock&) = delete;
  ~SessionStateLock();

  // Locks the stripe of `name` (a counter file's path or name) in
  // state_dir, creating STATE/locks as needed. Errors: no state folder, a
  // lock file that cannot be opened, the lock not had within `wait`.
  static Status Acquire(const std::string& state_dir, std::string_view name, SessionStateLock* out,
                        std::chrono::milliseconds wait = kStateLockWait);

  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

// The stripe file Acquire locks for name: STATE/locks/NN.lock.
std::string StateLockPath(const std::string& state_dir, std::string_view name);

}  // namespace causegate::gate
