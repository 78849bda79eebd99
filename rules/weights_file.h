// The weights file format of the claim scorer and the sentence-shape model
// (rules/scorer/*.tsv): one "name<TAB>weight" per line, "#" starts a
// comment, "bias" and "threshold" required, each name once. Read by
// ClaimScorer::Parse at run time and by the build step that compiles the
// shape model's weights into the binary (rules/shape_table/), so both read
// one format one way. Standard library only.
// Tests: tests/unit/rules/claim_scorer_test.cc (ClaimScorer::Parse).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace causegate::rules {

struct WeightsFile {
  double bias = 0;
  double threshold = 0;
  std::vector<std::pair<std::string, double>> weights;  // in file order
};

// Reads text (named file in errors); false with *error ("file:line: what")
// when it does not read.
bool ReadWeightsFile(std::string_view text, const std::string& file, WeightsFile* out, std::string* error);

}  // namespace causegate::rules
