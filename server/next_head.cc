#include "server/next_head.h"

#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "server/request_head.h"

namespace causegate::server {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::size_t kRecvBlock = 16u << 10;

// poll's timeout in whole milliseconds, rounded up: 0 would not wait.
int PollMs(Clock::duration left) {
  const auto us = std::chrono::duration_cast<std::chrono::microseconds>(left).count();
  return static_cast<int>(std::max<long long>(1, (us + 999) / 1000));
}

}  // namespace

NextHead AwaitNextHead(Connection* connection, std::chrono::microseconds wait, std::size_t head_limit) {
  std::string& pending = connection->pending;
  if (RequestHeadEnd(pending) != std::string::npos) return NextHead::kIn;
  const auto deadline = Clock::now() + wait;
  char block[kRecvBlock];
  while (pending.size() < head_limit) {
    // poll first: right after an answer the next request is rarely in yet,
    // and a recv that finds nothing would be one more system call.
    const auto left = deadline - Clock::now();
    if (left <= Clock::duration::zero()) return NextHead::kNotYet;
    pollfd p{connection->fd, POLLIN, 0};
    const int ready = poll(&p, 1, PollMs(left));
    if (ready == 0) return NextHead::kNotYet;
    if (ready < 0) {
      if (errno == EINTR) continue;
      return NextHead::kClosed;
    }
    const std::size_t room = std::min(sizeof block, head_limit - pending.size());
    const ssize_t n = recv(connection->fd, block, room, 0);
    if (n > 0) {
      pending.append(block, static_cast<std::size_t>(n));
      if (RequestHeadEnd(pending) != std::string::npos) return NextHead::kIn;
      continue;
    }
    if (n == 0) return NextHead::kClosed;
    if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK) return NextHead::kClosed;
  }
  return NextHead::kNotYet;
}

}  // namespace causegate::server
