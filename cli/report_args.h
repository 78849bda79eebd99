// The report options `causegate check` and `causegate merge` share
// (--format, --output FORMAT=FILE, --max-block-rate) and what both do once
// the results are in: write every report and pick the exit code
// (batch/outputs.h).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "batch/results.h"
#include "rules/rule_set.h"

namespace causegate::cli {

struct ReportArgs {
  std::string format;                // "" : text, unless --output is given
  std::vector<std::string> outputs;  // FORMAT=FILE
  std::string max_block_rate;        // "" : any flagged turn fails
  bool quiet = false;
  bool statistics = false;           // stdout: counts per rule and finding instead of the report
};

void AddReportOptions(CLI::App* cmd, ReportArgs* args);

// Writes the reports and returns the exit code; input_errors counts
// problems already reported on stderr. name: "check" or "merge", for
// messages.
int FinishReports(const char* name, const batch::CheckResults& results, const rules::RuleSet& rules,
                  const ReportArgs& args, int input_errors);

// Checks the options before any work: false (after printing why) when one
// is malformed.
bool ValidReportArgs(const char* name, const ReportArgs& args);

}  // namespace causegate::cli
