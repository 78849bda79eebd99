// The sentence-shape model's weights (rules/scorer/shape_weights.tsv),
// compiled into the binary at build time by rules/shape_table/: a sorted
// table of (FeatureHash(name), weight), so a hook call reads no weights
// file. Some 17,000 weights parsed from text cost a cold call as much as
// the rest of its judgement did; looked up in place they cost nothing
// until a sentence is weighed.
// Tests: tests/unit/rules/shape_backstop_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>

namespace causegate::rules {

struct HashedWeight {
  std::uint64_t hash;
  double weight;
};

namespace shape_table {
extern const double kBias;
extern const double kThreshold;
// Sorted by hash, each hash once. Written into the build folder.
extern const HashedWeight kWeights[];
extern const std::size_t kWeightCount;
}  // namespace shape_table

}  // namespace causegate::rules
