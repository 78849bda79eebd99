// The daemon's HTTP side: cpp-httplib behind a narrow interface (httplib.h
// stays inside the server's .cc files). Adds to the routes of
// server/service.h what belongs to the wire: the bearer token, the limits
// on headers, bodies, time and connections, keep-alive, and request counts
// in the metrics.
//
// Connections: up to max_connections open at once. While a connection is
// idle or still sending its request head it waits in one thread's epoll
// set and holds no worker (server/connection_lobby.h); a request whose
// head is in gets a worker: `threads` are always ready and up to
// `threads + max_queued_connections` start when requests arrive together
// (server/worker_pool.h). So 500 idle connections and 100 clients
// trickling a byte every 2 s cost the agents' requests nothing
// (tests/e2e/serve_clients.py), and memory and threads do not grow with
// the number of clients.
// Tests: tests/e2e/serve_*.py.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "evidence/status.h"
#include "server/metrics.h"
#include "server/service.h"

namespace causegate::server {

struct HttpOptions {
  std::string host = "127.0.0.1";
  int port = 0;  // 0: any free port
  int threads = 16;
  int max_queued_connections = 64;
  int max_connections = 1024;
  std::size_t max_body_bytes = 8u << 20;
  std::size_t max_header_bytes = 16u << 10;
  int read_timeout_ms = 5000;
  int write_timeout_ms = 5000;
  int keep_alive_timeout_s = 5;
  int keep_alive_max_requests = 10000;
  std::string token;  // "" = no authentication (loopback only; see config.h)
};

class HttpServer {
 public:
  // service, metrics: not owned; must outlive the server.
  HttpServer(Service* service, Metrics* metrics, HttpOptions options);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds the listening socket. *port gets the port bound (the one asked
  // for, or the one the system picked for port 0). Errors: address in use,
  // no such address.
  Status Bind(int* port);

  // Serves until Stop(), then finishes the requests in flight and returns.
  // REQUIRES: Bind succeeded. Returns an error when accepting failed.
  Status Run();

  // Makes Run return: no new connections, requests in flight finish. Any
  // thread; more than one call is harmless; a call before Run makes Run
  // return at once.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace causegate::server
