#include "server/connection_stream.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace causegate::server {
namespace {

constexpr std::size_t kRecvBlock = 16u << 10;
// Writes are gathered up to this much and sent together.
constexpr std::size_t kWriteGather = 64u << 10;

int MsUntil(ConnectionStream::Clock::time_point deadline) {
  const auto now = ConnectionStream::Clock::now();
  if (deadline <= now) return 0;
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
  return static_cast<int>(std::min<long long>(ms, 60 * 60 * 1000));
}

void FillAddress(const sockaddr_storage& addr, std::string* ip, int* port) {
  char text[INET6_ADDRSTRLEN] = {0};
  if (addr.ss_family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&addr);
    inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    *port = ntohs(v4->sin_port);
  } else if (addr.ss_family == AF_INET6) {
    const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&addr);
    inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    *port = ntohs(v6->sin6_port);
  }
  *ip = text;
}

}  // namespace

ConnectionStream::ConnectionStream(Connection* connection, std::chrono::milliseconds write_timeout)
    : connection_(connection), write_timeout_(write_timeout) {}

ConnectionStream::~ConnectionStream() {
  // An answer httplib wrote before failing (its own 400, say) still goes
  // out before the connection is closed.
  (void)Flush();
  Compact();
}

void ConnectionStream::Compact() {
  connection_->pending.erase(0, consumed_);
  consumed_ = 0;
}

bool ConnectionStream::WaitFor(short events, Clock::time_point deadline) const {
  while (true) {
    pollfd p{connection_->fd, events, 0};
    const int n = poll(&p, 1, MsUntil(deadline));
    if (n > 0) return true;
    if (n == 0) {
      timed_out_ = true;
      return false;
    }
    if (errno != EINTR) return false;
  }
}

bool ConnectionStream::is_readable() const {
  if (consumed_ < connection_->pending.size()) return true;
  // The client may be waiting for what was written (100 Continue).
  if (!const_cast<ConnectionStream*>(this)->Flush()) return false;
  return WaitFor(POLLIN, read_deadline_);
}

bool ConnectionStream::is_writable() const { return WaitFor(POLLOUT, Clock::now() + write_timeout_); }

ssize_t ConnectionStream::read(char* ptr, std::size_t size) {
  std::string& pending = connection_->pending;
  if (consumed_ >= pending.size()) {
    // The client may be waiting for what was written (100 Continue).
    if (!Flush()) return -1;
    Compact();
    // Read a block at once: cpp-httplib reads a line a byte at a time.
    char block[kRecvBlock];
    while (true) {
      const ssize_t n = recv(connection_->fd, block, sizeof block, 0);
      if (n > 0) {
        pending.append(block, static_cast<std::size_t>(n));
        break;
      }
      if (n == 0) return 0;
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
      if (!WaitFor(POLLIN, read_deadline_)) return -1;
    }
  }
  const std::size_t n = std::min(size, pending.size() - consumed_);
  std::memcpy(ptr, pending.data() + consumed_, n);
  consumed_ += n;
  return static_cast<ssize_t>(n);
}

ssize_t ConnectionStream::write(const char* ptr, std::size_t size) {
  if (unsent_.size() + size <= kWriteGather) {
    unsent_.append(ptr, size);
    return static_cast<ssize_t>(size);
  }
  if (!Flush() || !SendAll(ptr, size)) return -1;
  return static_cast<ssize_t>(size);
}

bool ConnectionStream::Flush() {
  if (unsent_.empty()) return true;
  const bool sent = SendAll(unsent_.data(), unsent_.size());
  unsent_.clear();
  return sent;
}

bool ConnectionStream::SendAll(const char* ptr, std::size_t size) {
  std::size_t sent = 0;
  while (sent < size) {
    const ssize_t n = send(connection_->fd, ptr + sent, size - sent, MSG_NOSIGNAL);
    if (n >= 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return false;
    if (!WaitFor(POLLOUT, Clock::now() + write_timeout_)) return false;
  }
  return true;
}

namespace {

// The address `lookup` (getpeername or getsockname) gives for fd, asked once
// per connection and kept in `address`.
using AddressLookup = int (*)(int, sockaddr*, socklen_t*);
void KnownAddress(int fd, AddressLookup lookup, Connection::Address* address, std::string& ip, int& port) {
  if (!address->known) {
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (lookup(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) FillAddress(addr, &address->ip, &address->port);
    address->known = true;
  }
  ip = address->ip;
  port = address->port;
}

}  // namespace

void ConnectionStream::get_remote_ip_and_port(std::string& ip, int& port) const {
  KnownAddress(connection_->fd, getpeername, &connection_->remote, ip, port);
}

void ConnectionStream::get_local_ip_and_port(std::string& ip, int& port) const {
  KnownAddress(connection_->fd, getsockname, &connection_->local, ip, port);
}

}  // namespace causegate::server
