// A feature name's 64-bit FNV-1a hash, over prefix then name, so "s:" and
// an n-gram hash as "s:b:so_the" without building that string. The
// compiled shape table (rules/shape_table.h) is keyed by it; the build step
// checks that no two of its names collide.
#pragma once

#include <cstdint>
#include <string_view>

namespace causegate::rules {

constexpr std::uint64_t FeatureHash(std::string_view prefix, std::string_view name = {}) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const std::string_view part : {prefix, name}) {
    for (const char c : part) {
      h ^= static_cast<unsigned char>(c);
      h *= 1099511628211ULL;
    }
  }
  return h;
}

}  // namespace causegate::rules
