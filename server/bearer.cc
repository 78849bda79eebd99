#include "server/bearer.h"

#include <algorithm>
#include <cctype>

namespace causegate::server {

bool ConstantTimeEquals(std::string_view a, std::string_view b) {
  const std::size_t n = std::max(a.size(), b.size());
  // volatile: the compiler may not turn the loop into an early exit.
  volatile unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff = static_cast<unsigned char>(diff | (x ^ y));
  }
  return diff == 0;
}

bool BearerMatches(std::string_view header, std::string_view expected) {
  constexpr std::string_view kScheme = "bearer";
  if (expected.empty() || header.size() <= kScheme.size()) return false;
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(header[i])) != kScheme[i]) return false;
  }
  std::string_view token = header.substr(kScheme.size());
  if (token.front() != ' ') return false;
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t')) token.remove_suffix(1);
  return ConstantTimeEquals(token, expected);
}

}  // namespace causegate::server
