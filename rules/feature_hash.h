// A feature name's 64-bit FNV-1a hash, fed in parts, so "s:" and an n-gram
// hash as "s:b:so_the" without building that string. The claim scorer's
// weights are keyed by it (rules/claim_scorer.h), and the compiled shape
// table (rules/shape_table.h) too; the build step checks that no two of
// the table's names collide.
#pragma once

#include <cstdint>
#include <string_view>

namespace causegate::rules {

class FeatureHasher {
 public:
  constexpr FeatureHasher& Add(std::string_view part) {
    for (const char c : part) {
      hash_ ^= static_cast<unsigned char>(c);
      hash_ *= 1099511628211ULL;
    }
    return *this;
  }
  constexpr std::uint64_t hash() const { return hash_; }

 private:
  std::uint64_t hash_ = 14695981039346656037ULL;
};

constexpr std::uint64_t FeatureHash(std::string_view prefix, std::string_view name = {}) {
  return FeatureHasher().Add(prefix).Add(name).hash();
}

}  // namespace causegate::rules
