// Waiting on a socket against one deadline for a whole exchange, shared by
// the two clients of a daemon (daemon_client.h over TCP, resident_client.h
// over the Unix socket), so that a peer trickling bytes cannot stretch a
// per-call timeout. Part of causegate_resident_client (libc only).
#pragma once

#include <chrono>

namespace causegate::hook {

using DeadlineClock = std::chrono::steady_clock;

// Milliseconds until deadline, 0 once it has passed.
int MillisLeft(DeadlineClock::time_point deadline);

// Waits for events (POLLIN, POLLOUT) on fd until the deadline, retrying on
// EINTR; false on timeout or error.
bool WaitFor(int fd, short events, DeadlineClock::time_point deadline);

}  // namespace causegate::hook
