// Where the daemon's connections wait while no worker needs to be on them:
// from accept until the request head is in, and between the requests of a
// kept-alive connection. One thread holds them all in epoll, reads what
// they send, and hands a connection to the workers only once a complete
// head has arrived (server/request_head.h). So an idle connection costs a
// file descriptor and a small buffer, not a worker thread, and a client
// that trickles its head a byte at a time costs nothing until its time
// runs out:
//
// - idle (no byte of the next request yet): closed after idle_timeout,
//   counted from the accept or the last answer;
// - sending a head: closed with 408 when the head is not in head_timeout
//   after its first byte, and with 431 when it grows past head_limit
//   bytes, whatever the pace of the bytes;
// - at max_connections open (held here or being served), a new connection
//   makes room by closing the one that has waited here longest, so new
//   clients (an agent asking for a verdict) always get in and whoever
//   holds connections open without using them loses them first (when
//   every other connection is being served, the new one gets 503 and is
//   closed);
//
// After an answer sent before the body was read (401, 413, 415, ...), the
// connection lingers: what the client still sends is read and thrown away
// for a short while before the close, so that the client reads the answer
// instead of a reset (closing a socket with unread bytes resets it).
// Thread-safe: Admit, Return, Linger and Stop from any thread.
// Tests: tests/e2e/serve_clients.py (500 idle and 100 trickling clients),
// serve_test.py (a stalled head), serve_limits.py.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "server/connection.h"

namespace causegate::server {

struct LobbyOptions {
  std::size_t max_connections = 1024;
  std::chrono::milliseconds idle_timeout{5000};
  std::chrono::milliseconds head_timeout{5000};
  std::size_t head_limit = 32u << 10;
};

class ConnectionLobby {
 public:
  // Called on the lobby's thread with a connection whose pending bytes
  // hold a complete head; the callee owns it from then on and reports its
  // end with Return, Linger or Closed. Must not block.
  using OnHead = std::function<void(Connection)>;
  // Called on the lobby's thread for each answer the lobby sends itself
  // (408, 431, 503), for the metrics.
  using OnAnswer = std::function<void(int status)>;

  ConnectionLobby(LobbyOptions options, OnHead on_head, OnAnswer on_answer);
  ~ConnectionLobby();
  ConnectionLobby(const ConnectionLobby&) = delete;
  ConnectionLobby& operator=(const ConnectionLobby&) = delete;

  // A newly accepted socket.
  void Admit(int fd);
  // A connection handed out by OnHead, kept alive after its answer.
  void Return(Connection connection);
  // A connection handed out by OnHead that was answered before its body
  // was read: the lobby shuts its sending side, drains it, then closes it.
  void Linger(int fd);
  // A connection handed out by OnHead that its worker closed.
  void Closed();

  // Closes every connection held here and stops the thread; later calls
  // close what they are given at once. Connections being served are not
  // touched.
  void Stop();

  // Connections open: held here, lingering, or being served.
  std::size_t open() const { return open_.load(); }

 private:
  enum class State { kIdle, kHead, kLinger };
  struct Entry {
    Connection connection;
    State state = State::kIdle;
    std::uint64_t waiting_since = 0;  // order of arrival here: smaller waited longer
    std::chrono::steady_clock::time_point deadline;
    std::size_t drained = 0;  // kLinger: bytes thrown away
  };
  struct Arrival {
    Connection connection;
    State state = State::kIdle;
  };

  void Loop();
  void Wake();
  // Queues arrival for the lobby thread; closes it when the lobby stops.
  void Enqueue(Arrival arrival);
  void TakeArrivals();
  void Hold(Arrival arrival);
  void OnReadable(int fd);
  void SweepDeadlines();
  // Closes the connections waiting longest until at most max_connections
  // are open; those of the batch that starts at arrival number batch_start
  // (they have not waited at all) get a 503 first.
  void MakeRoom(std::uint64_t batch_start);
  // Sends a short error answer (best effort: the socket is non-blocking)
  // and lingers.
  void Refuse(int fd, int status);
  void Close(int fd);

  const LobbyOptions options_;
  const OnHead on_head_;
  const OnAnswer on_answer_;
  int epoll_fd_ = -1;
  int wake_fd_ = -1;
  std::atomic<std::size_t> open_{0};

  std::mutex mu_;
  std::vector<Arrival> arrivals_;  // guarded by mu_
  bool stopping_ = false;          // guarded by mu_

  // The lobby thread's own.
  std::unordered_map<int, Entry> entries_;
  std::uint64_t arrivals_held_ = 0;
  std::thread thread_;
};

}  // namespace causegate::server
