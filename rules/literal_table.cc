#include "rules/literal_table.h"

#include <algorithm>

namespace causegate::rules {

std::optional<std::string_view> BuiltinFormula(std::string_view pattern) {
  const PatternFormula* begin = literal_table::kRows;
  const PatternFormula* end = begin + literal_table::kRowCount;
  const PatternFormula* row = std::lower_bound(
      begin, end, pattern, [](const PatternFormula& r, std::string_view p) { return r.pattern < p; });
  if (row == end || row->pattern != pattern) return std::nullopt;
  return row->formula;
}

}  // namespace causegate::rules
