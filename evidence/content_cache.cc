#include "evidence/content_cache.h"

#include <cstdlib>

namespace causegate::evidence {

std::size_t CacheBytesFromEnvironment(const char* name, std::size_t fallback_mib) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback_mib * kMiB;
  char* end = nullptr;
  const unsigned long mb = std::strtoul(value, &end, 10);
  return *end == '\0' && mb <= 4096 ? mb * kMiB : fallback_mib * kMiB;
}

}  // namespace causegate::evidence
