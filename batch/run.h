// Checking many files at once, and one large file on many threads: each
// thread reads the next file (largest first, so that one big file does not
// finish last) and hands its turns' judging to a queue shared by all
// threads (batch/work_queue.h), sharing one compiled RuleSet. Results come
// back in the order of the files given, and each file's turns in file
// order, whatever order they finished in: the same for every -j.
// Tests: tests/unit/batch/report_test.cc, tests/e2e/check_jobs.py.
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
  // Turn objects written to a temporary file as they are judged
  // (batch/spill_file.h), so memory does not grow with the turns; kept in
  // memory when off, or when no such file can be made.
  bool spill = true;
};

CheckResults CheckFiles(const std::vector<std::string>& files, const rules::RuleSet& rules,
                        const RunOptions& options);

// jobs as given, or the number of cores for 0; at least 1. A file may use
// them all.
int ThreadCount(int jobs);

}  // namespace causegate::batch
