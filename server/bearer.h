// Bearer-token authentication (RFC 6750): the Authorization header's token
// compared with the configured one in time that does not depend on where
// the two first differ, so the token cannot be guessed byte by byte from
// response times.
// Tests: tests/unit/server/bearer_test.cc.
#pragma once

#include <string_view>

namespace causegate::server {

// True when a and b are equal. Reads every byte of both up to the longer
// length whatever the contents (the length itself is not secret).
bool ConstantTimeEquals(std::string_view a, std::string_view b);

// True when header is "Bearer <token>" (scheme case-insensitive, one or
// more spaces) and the token equals expected. REQUIRES: expected not empty.
bool BearerMatches(std::string_view header, std::string_view expected);

}  // namespace causegate::server
