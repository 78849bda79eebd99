// cpp-httplib's Stream over one client connection, for the daemon's own
// connection loop (server/http_server.cc). Reads come from the bytes the
// lobby already read (the request head) and then from the socket, each
// wait bounded by one deadline for the whole request rather than by a
// timeout per recv, so a client that sends a byte just often enough still
// runs out of time. Writes wait at most write_timeout each, and are
// gathered (up to 64 KB) and sent together at Flush, before the next read
// and at the end: cpp-httplib writes an answer's head and body apart, and
// one send instead of two is one system call, one segment and one wake-up
// of the client fewer per answer (bench/RESULTS.md, finding 11).
// Includes httplib.h: for the daemon's HTTP files only.
// Tests: tests/e2e/serve_test.py (a body stalled), serve_limits.py.
#pragma once

#include <httplib.h>

#include <chrono>
#include <cstddef>
#include <string>

#include "server/connection.h"

namespace causegate::server {

class ConnectionStream final : public httplib::Stream {
 public:
  using Clock = std::chrono::steady_clock;

  // connection: not owned; its fd is non-blocking, and its pending bytes
  // are read first and what is left stays in it.
  ConnectionStream(Connection* connection, std::chrono::milliseconds write_timeout);
  ~ConnectionStream() override;

  // Reads after deadline fail (and timed_out() says so).
  void set_read_deadline(Clock::time_point deadline) { read_deadline_ = deadline; }
  bool timed_out() const { return timed_out_; }

  bool is_readable() const override;
  bool is_writable() const override;
  ssize_t read(char* ptr, std::size_t size) override;
  ssize_t write(const char* ptr, std::size_t size) override;
  // Sends what write gathered; false when the connection failed or the
  // client did not take it within write_timeout.
  bool Flush();
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return connection_->fd; }

 private:
  // Waits until fd is ready for events or the deadline passes.
  bool WaitFor(short events, Clock::time_point deadline) const;
  // Moves the unread bytes to the front of pending (done once per request,
  // not per read, so that reading a head byte by byte stays linear).
  void Compact();
  bool SendAll(const char* ptr, std::size_t size);

  Connection* const connection_;
  const std::chrono::milliseconds write_timeout_;
  std::size_t consumed_ = 0;  // bytes of connection_->pending already read
  Clock::time_point read_deadline_ = Clock::time_point::max();
  mutable bool timed_out_ = false;
  std::string unsent_;  // written, not yet sent
};

}  // namespace causegate::server
