#include "rules/text_ranges.h"

#include <algorithm>
#include <iterator>

namespace causegate::rules {

bool ContainsRange(const std::vector<TextRange>& sorted, TextRange range) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), range.begin,
                             [](const TextRange& r, std::size_t p) { return r.begin < p; });
  return it != sorted.end() && *it == range;
}

bool InsideAny(const std::vector<TextRange>& sorted, std::size_t pos) {
  auto it = std::upper_bound(sorted.begin(), sorted.end(), pos,
                             [](std::size_t p, const TextRange& r) { return p < r.begin; });
  if (it == sorted.begin()) return false;
  --it;
  return pos >= it->begin && pos < it->end;
}

std::vector<TextRange> MergeRanges(const std::vector<TextRange>& a,
                                   const std::vector<TextRange>& b) {
  std::vector<TextRange> all;
  all.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(all),
             [](const TextRange& x, const TextRange& y) { return x.begin < y.begin; });
  std::vector<TextRange> merged;
  for (const TextRange& r : all) {
    if (r.begin >= r.end) continue;
    if (!merged.empty() && r.begin < merged.back().end) {
      merged.back().end = std::max(merged.back().end, r.end);
    } else {
      merged.push_back(r);
    }
  }
  return merged;
}

}  // namespace causegate::rules
