// `causegate merge SHARD.json...`: the JSON results of `causegate check
// --shard I/N` runs combined into one, and rendered into any report, with
// the exit code check would have given for the whole corpus.
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "batch/outputs.h"
#include "batch/results.h"
#include "cli/commands.h"
#include "cli/report_args.h"

namespace causegate::cli {
namespace {

struct MergeArgs {
  std::vector<std::string> inputs;
  ReportArgs report;
};

int RunMerge(const MergeArgs& args, const Common& common) {
  if (!ValidReportArgs("merge", args.report)) return batch::kExitInputError;
  std::shared_ptr<const rules::RuleSet> rules;
  if (Status s = rules::LoadRuleSet(common.rules_dir, &rules); !s.ok()) {
    std::fprintf(stderr, "causegate merge: %s\n", s.message().c_str());
    return batch::kExitInputError;
  }
  batch::CheckResults merged;
  int input_errors = 0;
  for (const std::string& path : args.inputs) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    batch::CheckResults shard;
    Status s = !in ? Status::Error(path + ": cannot read") : batch::ParseResultsJson(text.str(), path, &shard);
    if (!s.ok()) {
      std::fprintf(stderr, "causegate merge: %s\n", s.message().c_str());
      ++input_errors;
      continue;
    }
    for (batch::FileRecord& file : shard.files) merged.files.push_back(std::move(file));
    merged.turns.Splice(std::move(shard.turns));
  }
  batch::Normalize(&merged);
  return FinishReports("merge", merged, *rules, args.report, input_errors);
}

void AddMergeCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("merge", "Combine the JSON results of sharded check runs into any report");
  auto args = std::make_shared<MergeArgs>();
  cmd->add_option("results", args->inputs, "JSON results of causegate check --format json")->required();
  AddReportOptions(cmd, &args->report);
  cmd->callback([&common, args] { common.exit_code = RunMerge(*args, common); });
}

const Registrar kRegister(42, AddMergeCommand);

}  // namespace
}  // namespace causegate::cli
