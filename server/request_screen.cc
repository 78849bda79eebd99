#include "server/request_screen.h"

#include "server/bearer.h"

namespace causegate::server {
namespace {

constexpr Route kRoutes[] = {
    {"/hook", "POST", true},   {"/v1/judge", "POST", true}, {"/v1/reload", "POST", true},
    {"/metrics", "GET", true}, {"/healthz", "GET", false},
};

bool SameLetters(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    const char y = b[i] >= 'A' && b[i] <= 'Z' ? static_cast<char>(b[i] - 'A' + 'a') : b[i];
    if (x != y) return false;
  }
  return true;
}

std::string_view Trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

HeadRefusal Refuse(int status, std::string message) {
  HeadRefusal r;
  r.status = status;
  r.message = std::move(message);
  return r;
}

// The declared length, or false when it is not a plain decimal number.
bool ParseLength(std::string_view text, unsigned long long* out) {
  text = Trimmed(text);
  if (text.empty() || text.size() > 19) return false;
  unsigned long long n = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    n = n * 10 + static_cast<unsigned long long>(c - '0');
  }
  *out = n;
  return true;
}

}  // namespace

const Route* FindRoute(std::string_view path) {
  for (const Route& r : kRoutes) {
    if (path == r.path) return &r;
  }
  return nullptr;
}

HeadRefusal ScreenRequest(const RequestHead& head, const ScreenLimits& limits) {
  if (head.header_count > limits.max_header_count || head.header_bytes > limits.max_header_bytes) {
    return Refuse(431, "request headers too large");
  }
  const Route* route = FindRoute(head.path);
  if (route == nullptr) return Refuse(404, "no such route");
  if (head.method != route->method) {
    HeadRefusal r = Refuse(405, std::string("use ") + route->method + " " + route->path);
    r.allow = route->method;
    return r;
  }
  if (route->needs_token && !limits.token.empty() && !BearerMatches(head.authorization, limits.token)) {
    HeadRefusal r = Refuse(401, "missing or wrong bearer token");
    r.missing_token = true;
    return r;
  }
  const std::string_view encoding = Trimmed(head.content_encoding);
  if (!encoding.empty() && !SameLetters(encoding, "identity")) {
    return Refuse(415, "request body: Content-Encoding \"" + std::string(encoding) +
                           "\" is not accepted; send the body uncompressed");
  }
  const std::string_view transfer = Trimmed(head.transfer_encoding);
  if (!transfer.empty() && !SameLetters(transfer, "chunked")) {
    return Refuse(501, "request body: Transfer-Encoding \"" + std::string(transfer) +
                           "\" is not supported; use chunked or Content-Length");
  }
  if (head.has_content_length && transfer.empty()) {
    unsigned long long length = 0;
    if (!ParseLength(head.content_length, &length)) return Refuse(400, "Content-Length: not a number");
    if (length > limits.max_body_bytes) {
      return Refuse(413, "request body too large: " + std::to_string(length) + " bytes, the limit is " +
                             std::to_string(limits.max_body_bytes));
    }
  }
  return HeadRefusal();
}

}  // namespace causegate::server
