// A worker's short wait for the next request on the connection it has just
// answered, before it hands the connection back to the lobby. A client
// that keeps its connection alive and asks again at once (a load
// balancer, a benchmark, an agent's burst of stops) then has its next
// request served on the same worker: no epoll registration and removal in
// the lobby, no wake-up of the lobby thread and then of a worker, which
// were most of the HTTP layer's CPU per request (bench/RESULTS.md, finding
// 11). The wait is bounded and short, so a client that goes quiet, or
// sends its head slowly, still waits in the lobby and holds no worker
// (server/connection_lobby.h). Nor does a worker wait while requests are
// queued for a worker (server/http_server.cc): busy connections beyond the
// workers' number then still take turns.
// Tests: tests/unit/server/next_head_test.cc.
#pragma once

#include <chrono>
#include <cstddef>

#include "server/connection.h"

namespace causegate::server {

// How long a worker waits for the next head: a loopback client's turn-around
// is tens of microseconds on free cores and can be a millisecond or two
// when the cores are busy; past that the lobby is as good.
inline constexpr std::chrono::microseconds kNextHeadWait{2000};

enum class NextHead {
  kIn,      // connection->pending holds a complete head: serve it here
  kNotYet,  // none (or part of one) by the bound: the lobby takes it
  kClosed,  // the client closed the connection (or it failed): close it
};

// Waits up to `wait` for the bytes of a complete request head on the
// connection (fd non-blocking), appending what arrives to its pending bytes
// but never more than head_limit of them (the lobby refuses a head that
// reaches it, with 431). Returns kIn at once when pending already holds a
// head.
NextHead AwaitNextHead(Connection* connection, std::chrono::microseconds wait, std::size_t head_limit);

}  // namespace causegate::server
