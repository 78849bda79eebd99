#include "cli/report_args.h"

#include <cstdio>
#include <optional>

#include "batch/outputs.h"
#include "batch/report.h"
#include "batch/statistics.h"

namespace causegate::cli {
namespace {

struct Resolved {
  std::optional<batch::ReportFormat> stdout_format;
  std::vector<batch::OutputSpec> files;
  batch::ExitPolicy policy;
};

Status Resolve(const ReportArgs& args, Resolved* out) {
  for (const std::string& spec : args.outputs) {
    batch::OutputSpec parsed;
    if (Status s = batch::ParseOutputSpec(spec, &parsed); !s.ok()) return s;
    out->files.push_back(std::move(parsed));
  }
  if (!args.format.empty()) {
    batch::ReportFormat format;
    if (!batch::ParseReportFormat(args.format, &format)) {
      return Status::Error("--format " + args.format + ": unknown (formats: " + batch::ReportFormatList() + ")");
    }
    out->stdout_format = format;
  } else if (args.outputs.empty()) {
    out->stdout_format = batch::ReportFormat::kText;
  }
  if (!args.max_block_rate.empty()) {
    double rate = 0;
    if (Status s = batch::ParseRate(args.max_block_rate, &rate); !s.ok()) return s;
    out->policy.max_block_rate = rate;
  }
  return Status::Ok();
}

}  // namespace

void AddReportOptions(CLI::App* cmd, ReportArgs* args) {
  cmd->add_option("--format", args->format, "Report on stdout: " + batch::ReportFormatList() + " (default: text)");
  // One value each time, so `--output sarif=x.sarif a.jsonl b.jsonl` leaves
  // the paths to the command.
  cmd->add_option("--output", args->outputs, "Also write a report to a file: FORMAT=FILE (repeatable)")
      ->type_name("FORMAT=FILE")
      ->allow_extra_args(false);
  cmd->add_option("--max-block-rate", args->max_block_rate,
                  "Exit 0 while at most this share of turns is flagged: 0.05 or 5%");
  cmd->add_flag("--quiet,-q", args->quiet, "No progress line and no summary on stderr");
  cmd->add_flag("--statistics", args->statistics,
                "On stdout, the unsupported claims counted per rule and finding instead of the report");
}

bool ValidReportArgs(const char* name, const ReportArgs& args) {
  Resolved resolved;
  if (Status s = Resolve(args, &resolved); !s.ok()) {
    std::fprintf(stderr, "causegate %s: %s\n", name, s.message().c_str());
    return false;
  }
  return true;
}

int FinishReports(const char* name, const batch::CheckResults& results, const rules::RuleSet& rules,
                  const ReportArgs& args, int input_errors) {
  Resolved resolved;
  if (Status s = Resolve(args, &resolved); !s.ok()) {
    std::fprintf(stderr, "causegate %s: %s\n", name, s.message().c_str());
    return batch::kExitInputError;
  }
  batch::ReportOptions options;
  options.tool_version = CAUSEGATE_VERSION;
  if (args.statistics) {
    std::fputs(batch::RenderStatistics(results).c_str(), stdout);
    resolved.stdout_format.reset();  // the statistics are stdout's report
  }
  if (Status s = batch::WriteReports(resolved.stdout_format, resolved.files, results, rules, options); !s.ok()) {
    std::fprintf(stderr, "causegate %s: %s\n", name, s.message().c_str());
    ++input_errors;
  }
  const batch::Summary summary = batch::Summarize(results);
  // text and github list unreadable files and end with the summary; with
  // any other report on stdout, or none, stderr gets them.
  const bool summary_on_stdout = resolved.stdout_format == batch::ReportFormat::kText ||
                                 resolved.stdout_format == batch::ReportFormat::kGithub;
  for (const batch::FileRecord& file : results.files) {
    if (file.unreadable() && !summary_on_stdout) {
      std::fprintf(stderr, "causegate %s: unreadable: %s\n", name, file.error.c_str());
    }
  }
  if (!args.quiet && !summary_on_stdout) {
    std::fprintf(stderr, "causegate %s: %s\n", name, batch::SummaryLine(summary).c_str());
  }
  return batch::ExitCode(summary, resolved.policy, input_errors);
}

}  // namespace causegate::cli
