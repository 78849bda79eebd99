// `--statistics`: how many unsupported claims each rule made, per finding,
// most first, as ruff and eslint users expect instead of the list of turns.
// Known turns (batch/baseline.h) are left out, like everywhere else.
// Tests: tests/unit/batch/baseline_test.cc.
#pragma once

#include <string>

#include "batch/results.h"

namespace causegate::batch {

// One line per (rule, finding): "   12  en.claim.because  no-citation",
// then the total; "no unsupported claims" when there are none.
std::string RenderStatistics(const CheckResults& results);

}  // namespace causegate::batch
