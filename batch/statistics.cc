#include "batch/statistics.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

namespace causegate::batch {

std::string RenderStatistics(const CheckResults& results) {
  std::map<std::pair<std::string, std::string>, int> counts;
  int total = 0;
  for (const TurnRecord& turn : results.turns) {
    if (!turn.flagged()) continue;
    for (const ClaimRecord& claim : turn.claims) {
      if (claim.supported()) continue;
      ++counts[{claim.rule, claim.finding}];
      ++total;
    }
  }
  if (total == 0) return "no unsupported claims\n";
  std::vector<std::pair<std::pair<std::string, std::string>, int>> rows(counts.begin(), counts.end());
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::size_t rule_width = 0;
  for (const auto& row : rows) rule_width = std::max(rule_width, row.first.first.size());
  std::string out;
  char line[512];
  for (const auto& [key, n] : rows) {
    std::snprintf(line, sizeof line, "%6d  %-*s  %s\n", n, static_cast<int>(rule_width), key.first.c_str(),
                  key.second.c_str());
    out += line;
  }
  std::snprintf(line, sizeof line, "%6d  unsupported claim%s in all\n", total, total == 1 ? "" : "s");
  out += line;
  return out;
}

}  // namespace causegate::batch
