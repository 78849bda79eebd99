#include "server/bearer.h"

#include <catch2/catch.hpp>

namespace causegate::server {
namespace {

TEST_CASE("constant-time comparison", "[server][auth]") {
  CHECK(ConstantTimeEquals("", ""));
  CHECK(ConstantTimeEquals("abc", "abc"));
  CHECK_FALSE(ConstantTimeEquals("abc", "abd"));
  CHECK_FALSE(ConstantTimeEquals("abc", "ab"));
  CHECK_FALSE(ConstantTimeEquals("ab", "abc"));
  CHECK_FALSE(ConstantTimeEquals("abc", std::string_view("abc\0", 4)));
  CHECK_FALSE(ConstantTimeEquals("", "a"));
}

TEST_CASE("bearer header", "[server][auth]") {
  const std::string token = "s3cret-token-0123456789";
  const std::pair<std::string, bool> cases[] = {
      {"Bearer s3cret-token-0123456789", true},
      {"bearer s3cret-token-0123456789", true},
      {"BEARER   s3cret-token-0123456789  ", true},
      {"Bearer s3cret-token-012345678", false},
      {"Bearer s3cret-token-01234567890", false},
      {"Bearer", false},
      {"Bearer ", false},
      {"Bearers3cret-token-0123456789", false},
      {"Basic s3cret-token-0123456789", false},
      {"s3cret-token-0123456789", false},
      {"", false},
  };
  for (const auto& [header, ok] : cases) {
    INFO(header);
    CHECK(BearerMatches(header, token) == ok);
  }
  CHECK_FALSE(BearerMatches("Bearer ", ""));
}

}  // namespace
}  // namespace causegate::server
