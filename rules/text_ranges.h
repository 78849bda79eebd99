// Sorted lists of byte ranges of one text (code spans, quoted spans): the
// look-ups the message segmenter makes when it masks quoted material.
// Tests: tests/unit/rules/message_test.cc (through ParseMessage).
#pragma once

#include <cstddef>
#include <vector>

#include "rules/sentence_split.h"

namespace causegate::rules {

// True when range is one of sorted's ranges, exactly.
bool ContainsRange(const std::vector<TextRange>& sorted, TextRange range);

// True when pos lies inside one of sorted's disjoint ranges.
bool InsideAny(const std::vector<TextRange>& sorted, std::size_t pos);

// Sorted, disjoint union of two sorted range lists (empty ranges dropped).
std::vector<TextRange> MergeRanges(const std::vector<TextRange>& a, const std::vector<TextRange>& b);

}  // namespace causegate::rules
