#include "server/connection_lobby.h"

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "server/request_head.h"

namespace causegate::server {
namespace {

using Clock = std::chrono::steady_clock;

// Deadlines are checked this often, so a connection is closed at most this
// late; the loop costs 20 wake-ups a second however many connections wait.
constexpr std::chrono::milliseconds kSweepEvery{50};
// How long, and how much, a connection answered before its body was read
// is drained before it is closed.
constexpr std::chrono::milliseconds kLingerTime{1000};
constexpr std::size_t kLingerMaxBytes = 1u << 20;
constexpr std::size_t kRecvBlock = 16u << 10;

std::string ErrorAnswer(int status) {
  const char* reason = status == 408 ? "Request Timeout" : status == 431 ? "Request Header Fields Too Large"
                                                                         : "Service Unavailable";
  const char* what = status == 408   ? "request timeout: the request head did not arrive in time"
                     : status == 431 ? "request headers too large"
                                     : "unavailable: too many connections";
  const std::string body = std::string("{\"error\":\"") + what + "\"}\n";
  return "HTTP/1.1 " + std::to_string(status) + " " + reason +
         "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace

ConnectionLobby::ConnectionLobby(LobbyOptions options, OnHead on_head, OnAnswer on_answer)
    : options_(options), on_head_(std::move(on_head)), on_answer_(std::move(on_answer)) {
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  wake_fd_ = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  epoll_event ev{};
  ev.events = EPOLLIN;
  ev.data.fd = wake_fd_;
  epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, wake_fd_, &ev);
  thread_ = std::thread([this] { Loop(); });
}

ConnectionLobby::~ConnectionLobby() {
  Stop();
  close(epoll_fd_);
  close(wake_fd_);
}

void ConnectionLobby::Wake() {
  const std::uint64_t one = 1;
  (void)!write(wake_fd_, &one, sizeof one);
}

void ConnectionLobby::Enqueue(Arrival arrival) {
  const int fd = arrival.connection.fd;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!stopping_) {
      arrivals_.push_back(std::move(arrival));
      Wake();
      return;
    }
  }
  close(fd);
  --open_;
}

void ConnectionLobby::Admit(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  ++open_;
  Arrival arrival;
  arrival.connection.fd = fd;
  Enqueue(std::move(arrival));
}

void ConnectionLobby::Return(Connection connection) {
  Arrival arrival;
  arrival.state = connection.pending.empty() ? State::kIdle : State::kHead;
  arrival.connection = std::move(connection);
  Enqueue(std::move(arrival));
}

void ConnectionLobby::Linger(int fd) {
  shutdown(fd, SHUT_WR);
  Arrival arrival;
  arrival.connection.fd = fd;
  arrival.state = State::kLinger;
  Enqueue(std::move(arrival));
}

void ConnectionLobby::Closed() { --open_; }

void ConnectionLobby::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  Wake();
  thread_.join();
}

void ConnectionLobby::Loop() {
  epoll_event events[256];
  auto next_sweep = Clock::now() + kSweepEvery;
  while (true) {
    const int n = epoll_wait(epoll_fd_, events, 256, static_cast<int>(kSweepEvery.count()));
    for (int i = 0; i < n; ++i) {
      const int fd = events[i].data.fd;
      if (fd == wake_fd_) {
        std::uint64_t count = 0;
        (void)!read(wake_fd_, &count, sizeof count);
      } else {
        OnReadable(fd);
      }
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) break;
    }
    TakeArrivals();
    if (Clock::now() >= next_sweep) {
      SweepDeadlines();
      next_sweep = Clock::now() + kSweepEvery;
    }
  }
  // Stopping: nothing held here is in the middle of an answer.
  std::vector<Arrival> late;
  {
    std::lock_guard<std::mutex> lock(mu_);
    late.swap(arrivals_);
  }
  for (Arrival& a : late) {
    close(a.connection.fd);
    --open_;
  }
  while (!entries_.empty()) Close(entries_.begin()->first);
}

void ConnectionLobby::TakeArrivals() {
  std::vector<Arrival> arrived;
  {
    std::lock_guard<std::mutex> lock(mu_);
    arrived.swap(arrivals_);
  }
  const std::uint64_t batch_start = arrivals_held_;
  for (Arrival& a : arrived) Hold(std::move(a));
  // Only once all are held: open_ already counted them at Admit, and room
  // made per arrival would close the batch's first arrivals for its later ones.
  if (open_.load() > options_.max_connections) MakeRoom(batch_start);
}

void ConnectionLobby::Hold(Arrival arrival) {
  const int fd = arrival.connection.fd;
  const auto now = Clock::now();
  Entry entry;
  entry.state = arrival.state;
  entry.connection = std::move(arrival.connection);
  entry.waiting_since = arrivals_held_++;
  entry.deadline = now + (entry.state == State::kIdle   ? options_.idle_timeout
                          : entry.state == State::kHead ? options_.head_timeout
                                                        : kLingerTime);
  epoll_event ev{};
  ev.events = EPOLLIN | EPOLLRDHUP;
  ev.data.fd = fd;
  if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) != 0) {
    close(fd);
    --open_;
    return;
  }
  const bool head_too_long = entry.state == State::kHead && entry.connection.pending.size() >= options_.head_limit &&
                             RequestHeadEnd(entry.connection.pending) == std::string::npos;
  entries_[fd] = std::move(entry);
  // A worker that waited for the next head (server/next_head.h) stops
  // reading at head_limit: no more bytes may come to make the lobby look.
  if (head_too_long) return Refuse(fd, 431);
  // A returned connection may already hold the next head's first bytes,
  // and data that arrived before the epoll registration is reported by
  // level-triggered epoll, so nothing is missed.
}

void ConnectionLobby::MakeRoom(std::uint64_t batch_start) {
  while (open_.load() > options_.max_connections) {
    // The connection waiting here longest, lingering ones first: they are
    // being closed anyway.
    int oldest = -1;
    std::uint64_t since = UINT64_MAX;
    bool oldest_lingers = false;
    for (const auto& [fd, entry] : entries_) {
      const bool lingers = entry.state == State::kLinger;
      if ((lingers && !oldest_lingers) || (lingers == oldest_lingers && entry.waiting_since < since)) {
        oldest = fd;
        since = entry.waiting_since;
        oldest_lingers = lingers;
      }
    }
    if (oldest < 0) return;  // every connection is being served
    if (!oldest_lingers && since >= batch_start) {
      // Only connections that just arrived are left to close: every other
      // one is being served. Say so (best effort) rather than vanish.
      const std::string answer = ErrorAnswer(503);
      (void)!send(oldest, answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      if (on_answer_) on_answer_(503);
    }
    Close(oldest);
  }
}

void ConnectionLobby::OnReadable(int fd) {
  const auto found = entries_.find(fd);
  if (found == entries_.end()) return;
  Entry& entry = found->second;
  char block[kRecvBlock];
  if (entry.state == State::kLinger) {
    while (true) {
      const ssize_t n = recv(fd, block, sizeof block, 0);
      if (n > 0) {
        entry.drained += static_cast<std::size_t>(n);
        if (entry.drained > kLingerMaxBytes) return Close(fd);
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
      return Close(fd);  // the client closed too (or reset)
    }
  }
  std::string& pending = entry.connection.pending;
  while (pending.size() < options_.head_limit) {
    const ssize_t n = recv(fd, block, sizeof block, 0);
    if (n > 0) {
      if (entry.state == State::kIdle) {
        // The head's time runs from its first byte, whatever comes after.
        entry.state = State::kHead;
        entry.deadline = Clock::now() + options_.head_timeout;
      }
      pending.append(block, static_cast<std::size_t>(n));
      if (RequestHeadEnd(pending) != std::string::npos) {
        epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
        Connection connection = std::move(entry.connection);
        entries_.erase(found);
        on_head_(std::move(connection));
        return;
      }
      continue;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    return Close(fd);  // closed by the client mid-head or while idle: nobody to answer
  }
  Refuse(fd, 431);
}

void ConnectionLobby::SweepDeadlines() {
  const auto now = Clock::now();
  std::vector<int> expired;
  for (const auto& [fd, entry] : entries_) {
    if (entry.deadline <= now) expired.push_back(fd);
  }
  for (const int fd : expired) {
    if (entries_.at(fd).state == State::kHead) {
      Refuse(fd, 408);
    } else {
      Close(fd);
    }
  }
}

void ConnectionLobby::Refuse(int fd, int status) {
  const std::string answer = ErrorAnswer(status);
  (void)!send(fd, answer.data(), answer.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  if (on_answer_) on_answer_(status);
  shutdown(fd, SHUT_WR);
  Entry& entry = entries_.at(fd);
  entry.state = State::kLinger;
  entry.connection.pending.clear();
  entry.connection.pending.shrink_to_fit();
  entry.deadline = Clock::now() + kLingerTime;
}

void ConnectionLobby::Close(int fd) {
  epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
  close(fd);
  entries_.erase(fd);
  --open_;
}

}  // namespace causegate::server
