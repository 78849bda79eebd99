// One client connection as the daemon passes it between the lobby, which
// holds connections that are idle or still sending a request head
// (server/connection_lobby.h), and the worker that answers a request once
// its head is in (server/http_server.cc).
#pragma once

#include <string>

namespace causegate::server {

struct Connection {
  int fd = -1;
  // Bytes read from the socket and not yet consumed: the head of the next
  // request, and whatever followed it (its body, pipelined requests).
  std::string pending;
  int requests_answered = 0;
  // The ends' addresses, asked of the kernel once: cpp-httplib asks for
  // both at every request (server/connection_stream.h).
  struct Address {
    bool known = false;
    std::string ip;
    int port = 0;
  };
  Address remote;
  Address local;
};

}  // namespace causegate::server
