// What the daemon decides about a request from its head alone, before a
// byte of its body is read: the route and method, the bearer token, the
// header limits, and whether the body can be read within max_body_bytes
// at all (its declared length, its codings). So an unauthenticated client
// never has its body read, and no body is inflated: a gzip body of 1 MB
// that inflates to 1 GB is refused with 415 unread, where cpp-httplib
// would inflate it whole into memory before any handler runs.
// Tests: tests/unit/server/request_screen_test.cc; tests/e2e/serve_test.py,
// serve_limits.py.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace causegate::server {

struct Route {
  const char* path;
  const char* method;
  bool needs_token;
};

// The daemon's routes (server/API.md); null for any other path.
const Route* FindRoute(std::string_view path);

struct RequestHead {
  std::string_view method;
  std::string_view path;
  std::size_t header_count = 0;
  std::size_t header_bytes = 0;          // names and values, 4 bytes more per line
  std::string_view authorization;        // each header: "" when absent
  std::string_view content_encoding;
  std::string_view transfer_encoding;
  std::string_view content_length;
  bool has_content_length = false;
};

struct ScreenLimits {
  std::size_t max_body_bytes = 0;
  std::size_t max_header_bytes = 0;
  std::size_t max_header_count = 0;
  std::string_view token;  // "" = no token required
};

struct HeadRefusal {
  int status = 0;  // 0: not refused, read the body and answer
  std::string message;
  std::string allow;           // 405: the route's method, for the Allow header
  bool missing_token = false;  // 401: WWW-Authenticate, counted and logged
};

// The first reason to refuse the request, in this order: headers too many
// or too large (431), no such route (404), wrong method (405), token
// missing or wrong (401), a Content-Encoding other than identity (415), a
// Transfer-Encoding other than chunked (501), a Content-Length that is not
// a number (400) or over max_body_bytes (413).
HeadRefusal ScreenRequest(const RequestHead& head, const ScreenLimits& limits);

}  // namespace causegate::server
