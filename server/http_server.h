// The daemon's HTTP side: cpp-httplib behind a narrow interface (httplib.h
// stays inside http_server.cc). Adds to the routes of server/service.h what
// belongs to the wire: the bearer token, the limits on headers, bodies,
// time and connections, keep-alive, and request counts in the metrics.
//
// Connections: each is served by one worker thread for as long as it is
// kept alive. `threads` workers are always ready; when a connection
// arrives and none is free, another worker starts at once, up to
// `threads + max_queued_connections`, so connections that sit idle or
// trickle their request a byte at a time cannot starve the agents that
// are waiting for a verdict (tests/e2e/serve_clients.py). Past that cap,
// connections wait in a queue of `max_queued_connections`, and past that
// the accept loop stops accepting (back-pressure into the kernel's listen
// queue), so neither memory nor threads grow with the number of clients.
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
