// Where a request's head (its request line and headers) ends in the bytes
// a connection has sent so far. The daemon reads heads itself, before
// cpp-httplib sees the request (server/connection_lobby.h), so that a
// client that sends its head slowly, or never, holds no worker.
// Tests: tests/unit/server/request_head_test.cc.
#pragma once

#include <cstddef>
#include <string_view>

namespace causegate::server {

// The offset just past the head: past the first line that is exactly
// "\r\n" after the request line, which is where cpp-httplib stops reading
// headers (it skips a line ending in a bare "\n", so "\n\n" ends nothing).
// npos while the head is incomplete.
std::size_t RequestHeadEnd(std::string_view bytes);

// The most bytes a head may take before it is refused with 431 unread:
// max_header_bytes for the headers (the limit the routes check exactly)
// plus room for the request line, so that a long URI still reaches
// cpp-httplib's 414.
std::size_t RequestHeadLimit(std::size_t max_header_bytes);

}  // namespace causegate::server
