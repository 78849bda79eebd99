// Checking many files at once: a pool of worker threads, each taking the
// next file (largest first, so that one big file does not finish last),
// sharing one compiled RuleSet. Results come back in the order of the
// files given, whatever order they finished in.
// Tests: tests/unit/batch/run_test.cc.
#pragma once

#include <string>
#include <vector>

#include "batch/check_file.h"
#include "batch/results.h"
#include "rules/rule_set.h"

namespace causegate::batch {

struct RunOptions {
  int jobs = 0;  // threads; 0: one per core (std::thread::hardware_concurrency)
  CheckOptions check;
  bool progress = false;  // draw the progress line on stderr
};

CheckResults CheckFiles(const std::vector<std::string>& files, const rules::RuleSet& rules,
                        const RunOptions& options);

// jobs as given, or the number of cores for 0; never more than files.
int WorkerCount(int jobs, std::size_t files);

}  // namespace causegate::batch
