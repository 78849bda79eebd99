// The lines of a turn's tool output nearest to a claim: what the agent saw
// and did not quote. `causegate explain` prints them under a blocked claim
// so a person can judge the block (was the cause there to cite, or never
// shown?). Near means sharing the claim's words: ASCII words of three
// letters or more outside a short list of function words, and pairs of
// adjacent Han characters; a line scores one per distinct shared word. A
// reading aid, not evidence: the citation look-up (evidence_index.h) alone
// decides what supports a claim.
// Tests: tests/unit/evidence/nearest_lines_test.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "evidence/turn.h"

namespace causegate::evidence {

struct NearLine {
  std::size_t call = 0;   // index into the calls searched
  std::int64_t line = 0;  // 1-based line of that call's output
  std::string text;       // the line, whitespace at its ends trimmed
  int shared = 0;         // distinct claim words it holds
};

struct NearestOptions {
  std::size_t lines_per_call = 3;
  std::size_t max_calls = 4;
  // Of each output only this much is read: explain stays quick on a
  // 100 MB log, and the nearest lines of a huge output are a hint anyway.
  std::size_t max_output_bytes = std::size_t{4} << 20;
};

// The calls whose output shares most with claim, best first, with their
// nearest lines in output order; a call sharing nothing is left out.
std::vector<NearLine> NearestOutputLines(std::string_view claim, const std::vector<ToolCall>& calls,
                                         const NearestOptions& options = {});

// The words a line is scored by, lower case, each once (exposed for tests).
std::vector<std::string> ClaimWords(std::string_view text);

}  // namespace causegate::evidence
