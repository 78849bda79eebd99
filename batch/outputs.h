// What `causegate check` and `causegate merge` share after the results are
// in: where each report goes (--format to stdout, --output FORMAT=FILE to
// files, several at once) and the exit code (batch/CHECK.md: 0 nothing
// flagged, 1 a turn flagged or the flagged rate over --max-block-rate, 2 a
// usage or input error, which wins).
// Tests: tests/unit/batch/outputs_test.cc.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "batch/report.h"
#include "batch/results.h"
#include "evidence/status.h"
#include "rules/rule_set.h"

namespace causegate::batch {

struct OutputSpec {
  ReportFormat format = ReportFormat::kText;
  std::string path;
};

// "FORMAT=FILE", e.g. "sarif=out/causegate.sarif".
Status ParseOutputSpec(std::string_view text, OutputSpec* out);

// Renders each report once per format and writes it; stdout_format (if
// any) goes to stdout. Errors name the file that could not be written.
Status WriteReports(std::optional<ReportFormat> stdout_format, const std::vector<OutputSpec>& files,
                    const CheckResults& results, const rules::RuleSet& rules, const ReportOptions& options);

// Parses --max-block-rate: a fraction in [0, 1] ("0.05") or a percentage
// ("5%").
Status ParseRate(std::string_view text, double* rate);

struct ExitPolicy {
  std::optional<double> max_block_rate;  // none: any flagged turn fails
};

inline constexpr int kExitClean = 0;
inline constexpr int kExitBlocked = 1;
inline constexpr int kExitInputError = 2;

// input_errors: arguments that named nothing, reports not written; every
// unreadable file in summary counts too.
int ExitCode(const Summary& summary, const ExitPolicy& policy, int input_errors);

}  // namespace causegate::batch
