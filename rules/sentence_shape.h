// The shape of a sentence: its closed-class words (so, which, is, because,
// the, not, ...; 是, 的, 了, 就, 所以, 没有, ...) kept as they are and every
// other word reduced to its form (a word, an -ing word, an -ed word, a
// plural, a code token, a number; a run of Chinese content characters),
// read as word n-grams. "metricsd only listens on loopback, so
// connections ... find nothing bound" and "the key now hashes the lock
// file, so every PR misses the cache" share "Ws on W , so", whatever their
// nouns. The sentence-shape model (rules/shape_model.h) weighs these
// n-grams: content words are left out on purpose, because a claim's nouns
// are its writer's and its domain's, while its syntax carries across
// writers (measured in rules/QUALITY_HISTORY.md, the eleventh session).
// Tests: tests/unit/rules/sentence_shape_test.cc.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace causegate::rules {

// The shape tokens of a masked sentence (rules/message.h: quotes and code
// are the word QUOTE, a code token), at most kMaxShapeTokens of them.
std::vector<std::string> ShapeTokens(std::string_view masked);

// The features of a masked sentence for the shape model: "u:" + each
// closed-class word, "b:" + each pair and "t:" + each triple of
// neighbouring shape tokens ("<s>" and "</s>" at the ends), each once, in
// the order first seen.
std::vector<std::string> ShapeFeatures(std::string_view masked);

// FeatureHash(prefix + each of ShapeFeatures(masked)), each once (sorted):
// what the model looks up, without building the names.
std::vector<std::uint64_t> ShapeHashes(std::string_view masked, std::string_view prefix);

inline constexpr std::size_t kMaxShapeTokens = 60;

}  // namespace causegate::rules
