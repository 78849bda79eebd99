// The clauses of one sentence, for the scope of hedges, negations,
// conditionals and questions (spec/judgement.md section 2: a hedge
// qualifies the claim it stands in, not a neighbouring clause). "The root
// cause is X, and I suggest raising Y" is two clauses; "The cause may be X,
// so I raised Y" is one: a consequence ("so", "because", "which") stays
// with the clause it hangs on, so only coordination splits.
// Tests: tests/unit/rules/clauses_test.cc.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace causegate::rules {

struct ClauseSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Splits a masked sentence (rules/message.h) at "; ", ", and ", ", but ",
// ", while ", ", whereas ", ", although ", " — ", "；" and "，" before 但 / 而 /
// 并且 / 而且 / 同时 / 另外 / 此外 / 不过 / 建议 / 顺便 and a plan or a hedged
// offer (或许也可以, 可能还需要). Always at least one clause; spans
// are in order and leave the separators out (a comma stays with neither).
std::vector<ClauseSpan> SplitClauses(std::string_view sentence);

}  // namespace causegate::rules
