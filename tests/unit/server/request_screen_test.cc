// Refusals decided from the request head, before its body is read.
#include "server/request_screen.h"

#include <catch2/catch.hpp>

namespace causegate::server {
namespace {

constexpr std::string_view kToken = "t0ken-for-the-unit-test-0123";

ScreenLimits Limits(std::string_view token = kToken) {
  ScreenLimits l;
  l.max_body_bytes = 1000;
  l.max_header_bytes = 500;
  l.max_header_count = 10;
  l.token = token;
  return l;
}

RequestHead Post(std::string_view path = "/hook") {
  RequestHead h;
  h.method = "POST";
  h.path = path;
  h.header_count = 3;
  h.header_bytes = 100;
  h.authorization = "Bearer t0ken-for-the-unit-test-0123";
  return h;
}

TEST_CASE("screen: a good request goes on to its body", "[server][screen]") {
  CHECK(ScreenRequest(Post(), Limits()).status == 0);
  RequestHead chunked = Post();
  chunked.transfer_encoding = "Chunked";
  CHECK(ScreenRequest(chunked, Limits()).status == 0);
  RequestHead identity = Post();
  identity.content_encoding = "identity";
  identity.has_content_length = true;
  identity.content_length = "1000";  // at the limit
  CHECK(ScreenRequest(identity, Limits()).status == 0);
  RequestHead health;
  health.method = "GET";
  health.path = "/healthz";  // no token needed
  CHECK(ScreenRequest(health, Limits()).status == 0);
}

TEST_CASE("screen: the token is checked before the body, on every route but /healthz", "[server][screen]") {
  RequestHead none = Post();
  none.authorization = "";
  none.has_content_length = true;
  none.content_length = "100000000";  // refused for the token, not read for its size
  const HeadRefusal r = ScreenRequest(none, Limits());
  CHECK(r.status == 401);
  CHECK(r.missing_token);
  RequestHead wrong = Post("/v1/judge");
  wrong.authorization = "Bearer t0ken-for-the-unit-test-0124";
  CHECK(ScreenRequest(wrong, Limits()).status == 401);
  CHECK(ScreenRequest(none, Limits("")).status == 413);  // no token configured: the size decides
}

TEST_CASE("screen: compressed bodies and unknown transfer codings are refused unread", "[server][screen]") {
  for (const char* coding : {"gzip", "deflate", "br", "GZIP", "gzip, identity"}) {
    RequestHead h = Post();
    h.content_encoding = coding;
    INFO(coding);
    CHECK(ScreenRequest(h, Limits()).status == 415);
  }
  RequestHead te = Post();
  te.transfer_encoding = "gzip, chunked";
  CHECK(ScreenRequest(te, Limits()).status == 501);
}

TEST_CASE("screen: a declared length over the limit, or not a number", "[server][screen]") {
  RequestHead h = Post();
  h.has_content_length = true;
  h.content_length = "1001";
  const HeadRefusal big = ScreenRequest(h, Limits());
  CHECK(big.status == 413);
  CHECK(big.message.find("1001") != std::string::npos);
  h.content_length = "99999999999999999999999";
  CHECK(ScreenRequest(h, Limits()).status == 400);
  h.content_length = "-1";
  CHECK(ScreenRequest(h, Limits()).status == 400);
}

TEST_CASE("screen: routes, methods and header limits", "[server][screen]") {
  CHECK(ScreenRequest(Post("/nope"), Limits()).status == 404);
  RequestHead get = Post();
  get.method = "GET";
  const HeadRefusal r = ScreenRequest(get, Limits());
  CHECK(r.status == 405);
  CHECK(r.allow == "POST");
  RequestHead many = Post();
  many.header_count = 11;
  CHECK(ScreenRequest(many, Limits()).status == 431);
  RequestHead large = Post();
  large.header_bytes = 501;
  CHECK(ScreenRequest(large, Limits()).status == 431);
}

}  // namespace
}  // namespace causegate::server
