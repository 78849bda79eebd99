// SHA-256 (FIPS 180-4) of a byte string, as lower-case hex. Used for the
// trust hash Codex keeps for each hook (install/codex_trust.h); not for
// anything secret.
// Tests: tests/unit/install/sha256_test.cc.
#pragma once

#include <string>
#include <string_view>

namespace causegate::install {

// 64 lower-case hex digits.
std::string Sha256Hex(std::string_view data);

}  // namespace causegate::install
