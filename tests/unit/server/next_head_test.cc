#include "server/next_head.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <string>
#include <thread>

namespace causegate::server {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

constexpr std::size_t kLimit = 1024;
const std::string kHead = "POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n";

// A connected pair: the daemon's end (non-blocking, as the lobby makes it)
// and the client's.
struct Pair {
  Pair() {
    int fds[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
    connection.fd = fds[0];
    client = fds[1];
    fcntl(connection.fd, F_SETFL, fcntl(connection.fd, F_GETFL) | O_NONBLOCK);
  }
  ~Pair() {
    close(connection.fd);
    if (client >= 0) close(client);
  }
  void Send(const std::string& bytes) const { REQUIRE(write(client, bytes.data(), bytes.size()) == ssize_t(bytes.size())); }
  Connection connection;
  int client = -1;
};

TEST_CASE("AwaitNextHead: a head already read is served without reading", "[server][head]") {
  Pair p;
  p.connection.pending = kHead + "{}";
  CHECK(AwaitNextHead(&p.connection, microseconds(0), kLimit) == NextHead::kIn);
  CHECK(p.connection.pending == kHead + "{}");
}

TEST_CASE("AwaitNextHead: a head sent before or during the wait is taken", "[server][head]") {
  Pair p;
  p.Send(kHead + "{}");
  CHECK(AwaitNextHead(&p.connection, microseconds(0) + milliseconds(5000), kLimit) == NextHead::kIn);
  CHECK(p.connection.pending.rfind(kHead, 0) == 0);

  // In two parts, the second after the wait began: it returns once the
  // head is whole, long before its bound.
  Pair q;
  std::thread client([&q] {
    q.Send(kHead.substr(0, 10));
    std::this_thread::sleep_for(milliseconds(20));
    q.Send(kHead.substr(10));
  });
  CHECK(AwaitNextHead(&q.connection, milliseconds(10000), kLimit) == NextHead::kIn);
  client.join();
  CHECK(q.connection.pending == kHead);
}

TEST_CASE("AwaitNextHead: nothing, or part of a head, by the bound goes to the lobby", "[server][head]") {
  Pair p;
  CHECK(AwaitNextHead(&p.connection, microseconds(500), kLimit) == NextHead::kNotYet);
  CHECK(p.connection.pending.empty());
  p.Send(kHead.substr(0, 12));
  CHECK(AwaitNextHead(&p.connection, microseconds(500), kLimit) == NextHead::kNotYet);
  CHECK(p.connection.pending == kHead.substr(0, 12));  // kept for the lobby to complete
}

TEST_CASE("AwaitNextHead: reads no more than the head limit", "[server][head]") {
  Pair p;
  p.Send(std::string(100, 'a'));
  CHECK(AwaitNextHead(&p.connection, milliseconds(5000), 40) == NextHead::kNotYet);
  CHECK(p.connection.pending.size() == 40);
}

TEST_CASE("AwaitNextHead: a client that closed is reported closed", "[server][head]") {
  Pair p;
  p.Send(kHead.substr(0, 5));
  close(p.client);
  p.client = -1;
  CHECK(AwaitNextHead(&p.connection, milliseconds(5000), kLimit) == NextHead::kClosed);
}

}  // namespace
}  // namespace causegate::server
