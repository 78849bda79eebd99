// A unified diff of two texts, line by line, for `causegate init --dry-run`:
// "--- PATH", "+++ PATH" (the file before and after), hunks with three lines of context. Lines are
// matched by a longest-common-subsequence table, which is quadratic, so
// texts of more than kMaxDiffLines lines are shown as one hunk that
// replaces everything.
// Tests: tests/unit/install/unified_diff_test.cc.
#pragma once

#include <cstddef>
#include <string>

namespace causegate::install {

inline constexpr std::size_t kMaxDiffLines = 4000;

// "" when before == after.
std::string UnifiedDiff(const std::string& path, const std::string& before, const std::string& after);

}  // namespace causegate::install
