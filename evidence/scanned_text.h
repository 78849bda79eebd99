// A folded text of the evidence index (an output, an input, a prompt)
// with the needles found in it, read once per NeedleSet: the first
// question about any needle of a set scans the text for all of them, and
// later questions about that set cost a binary search. Internal to
// evidence/, used by EvidenceIndex.
// Tests: through tests/unit/evidence/evidence_index_test.cc.
#pragma once

#include <cstddef>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "evidence/needle_set.h"

namespace causegate::evidence {

// Where one folded fragment's needle lives among an index's sets.
struct NeedleRef {
  int set = -1;
  int needle = -1;
};

class ScannedText {
 public:
  ScannedText() = default;
  explicit ScannedText(std::string text) : text_(std::move(text)) {}

  const std::string& text() const { return text_; }
  bool empty() const { return text_.empty(); }

  // Offset of the needle's first occurrence in text(), or npos.
  // REQUIRES: ref names a set in sets; sets only grow.
  std::size_t Find(const std::deque<NeedleSet>& sets, NeedleRef ref);

 private:
  std::string text_;
  std::vector<std::vector<NeedleSet::Hit>> hits_;  // per set, once scanned
  std::vector<char> scanned_;                      // per set
};

}  // namespace causegate::evidence
