#include "server/request_head.h"

#include <catch2/catch.hpp>

#include <string>

namespace causegate::server {
namespace {

constexpr std::size_t kNotYet = std::string_view::npos;

TEST_CASE("RequestHeadEnd: just past the empty line that ends the headers", "[server][head]") {
  const std::string get = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
  CHECK(RequestHeadEnd(get) == get.size());
  CHECK(RequestHeadEnd(get + "POST /hook HTTP/1.1\r\n") == get.size());  // pipelined bytes stay
  const std::string bare = "GET / HTTP/1.1\r\n\r\n";
  CHECK(RequestHeadEnd(bare) == bare.size());
  CHECK(RequestHeadEnd("POST /hook HTTP/1.1\r\nHost: x\r\n") == kNotYet);
  CHECK(RequestHeadEnd("POST /hook HTTP/1.1\r\nHost: x\r\n\r") == kNotYet);
  CHECK(RequestHeadEnd("") == kNotYet);
  // As cpp-httplib reads it: a bare "\n\n" ends nothing, "\n\r\n" does.
  CHECK(RequestHeadEnd("GET / HTTP/1.1\nHost: x\n\n") == kNotYet);
  const std::string lf_line = "GET / HTTP/1.1\r\nA: b\n\r\n";
  CHECK(RequestHeadEnd(lf_line) == lf_line.size());
}

TEST_CASE("RequestHeadLimit: the header limit plus room for a long request line", "[server][head]") {
  CHECK(RequestHeadLimit(16384) == 16384 + 16384);
  CHECK(RequestHeadLimit(1024) > 1024 + 8192);  // a 9 KiB URI still gets its 414
}

}  // namespace
}  // namespace causegate::server
