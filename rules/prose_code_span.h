// Which inline code spans of a message are quoted material. A code span
// that holds nothing but a causal connective ("failed `because` the disk
// filled") is markup on the agent's own sentence, not quoted material: no
// tool prints the word alone, and masking it would hide the claim it joins
// (issue 13, class 7: a claim word in a code span).
#pragma once

#include <string_view>
#include <vector>

#include "rules/text_ranges.h"

namespace causegate::rules {

// The spans of text (inline code contents) to mask as quoted material:
// all of spans but those that hold only a connective.
std::vector<TextRange> QuotedCodeSpans(std::string_view text, const std::vector<TextRange>& spans);

}  // namespace causegate::rules
