// `causegate check PATH...`: every turn of every saved transcript judged as
// the live hook would have judged each stop, in parallel over files, with
// the reports CI tools read. The work is in batch/; this file is the
// command line. Contract (formats, JSON schema, exit codes): batch/CHECK.md.
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "batch/baseline.h"
#include "batch/discover.h"
#include "batch/outputs.h"
#include "batch/run.h"
#include "batch/shard.h"
#include "cli/commands.h"
#include "cli/report_args.h"
#include "cli/shared_options.h"
#include "gate/configured_rules.h"
#include "gate/user_config_files.h"

namespace causegate::cli {
namespace {

struct CheckArgs {
  std::vector<std::string> paths;
  int jobs = 0;
  std::string shard;
  int max_blocks = 2;
  bool max_blocks_given = false;  // the flag wins over the config files
  std::string baseline;        // --baseline FILE
  std::string write_baseline;  // --write-baseline FILE
  ReportArgs report;
};

// --baseline: the known flagged turns stop counting (batch/baseline.h).
// false when the file cannot be read.
bool ApplyBaselineFile(const std::string& path, bool quiet, batch::CheckResults* results) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text_stream;
  text_stream << in.rdbuf();
  if (!in) {
    std::fprintf(stderr, "causegate check: --baseline %s: cannot read\n", path.c_str());
    return false;
  }
  const std::string text = text_stream.str();
  batch::Baseline baseline;
  if (Status s = batch::ParseBaseline(text, path, &baseline); !s.ok()) {
    std::fprintf(stderr, "causegate check: --baseline %s\n", s.message().c_str());
    return false;
  }
  const int known = batch::ApplyBaseline(baseline, results);
  if (!quiet) {
    std::fprintf(stderr, "causegate check: %d known flagged turn%s skipped (baseline %s, %zu claims)\n", known,
                 known == 1 ? "" : "s", path.c_str(), baseline.fingerprints.size());
  }
  return true;
}

bool WriteBaselineFile(const std::string& path, const batch::CheckResults& results, bool quiet) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  const std::string doc = batch::RenderBaseline(results);
  const bool ok = f != nullptr && std::fwrite(doc.data(), 1, doc.size(), f) == doc.size();
  if (f != nullptr && std::fclose(f) != 0) return false;
  if (!ok) {
    std::fprintf(stderr, "causegate check: --write-baseline %s: cannot write\n", path.c_str());
    return false;
  }
  if (!quiet) std::fprintf(stderr, "causegate check: wrote the baseline %s\n", path.c_str());
  return true;
}

// A check reads, copies and frees megabytes of tool output per turn. With
// glibc's defaults each such block is a fresh mmap whose pages fault in
// again every time; keeping freed memory in the heap instead costs no more
// memory than the largest turn, and saves the faults (bench/README.md).
void KeepFreedMemory() {
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}

// The temporary file that held stdin is "-" in the reports.
void NameStdin(const std::string& temp, batch::CheckResults* results) {
  auto rename = [&temp](std::string* text) {
    for (std::size_t at = text->find(temp); at != std::string::npos; at = text->find(temp, at + 1)) {
      text->replace(at, temp.size(), kStdinName);
    }
  };
  for (batch::FileRecord& f : results->files) {
    rename(&f.path);
    rename(&f.error);
  }
  // Each turn kept whole from here on, with its object renamed: the whole
  // record, not the compact one check keeps beside a spilled object, since
  // a record with no spill is read as it is (TurnRecord::Full) and the html
  // report shows the final message and the nearest tool lines from it.
  // A transcript on stdin is one file; its records fit in memory.
  batch::TurnList named;
  for (std::size_t i = 0; i < results->turns.size(); ++i) {
    batch::TurnRecord t = results->turns[i];
    rename(&t.file);
    if (t.json_spill.file != nullptr) {
      std::string object;
      if (t.LoadJson(&object).ok()) {  // else the json report says why
        t.json = std::move(object);
        t.json_spill = batch::SpillRef();
      }
    }
    rename(&t.json);
    named.push_back(std::move(t));
  }
  results->turns = std::move(named);
}

int RunCheck(const CheckArgs& args, const Common& common) {
  batch::Shard shard;
  if (!args.shard.empty()) {
    if (Status s = batch::ParseShard(args.shard, &shard); !s.ok()) {
      std::fprintf(stderr, "causegate check: %s\n", s.message().c_str());
      return batch::kExitInputError;
    }
  }
  if (!ValidReportArgs("check", args.report)) return batch::kExitInputError;
  // The config files of the folder check runs in, as the hook reads them
  // for its cwd: rules switched off, packs, max_blocks, exclude.
  std::error_code cwd_error;
  const std::string cwd = std::filesystem::current_path(cwd_error).string();
  const gate::LoadedConfig loaded = gate::LoadUserConfig(cwd);
  for (const std::string& error : loaded.errors) {
    std::fprintf(stderr, "causegate check: config ignored: %s\n", error.c_str());
  }
  const gate::MergedConfig config = gate::MergeConfig(loaded.files);
  std::shared_ptr<const rules::RuleSet> rules;
  std::vector<std::string> config_warnings;
  const Status loaded_rules =
      loaded.files.empty()
          ? rules::LoadRuleSet(common.rules_dir, &rules)
          : gate::LoadConfiguredRules(config, common.rules_dir, rules::CompileOptions(), &rules, &config_warnings);
  for (const std::string& warning : config_warnings) std::fprintf(stderr, "causegate check: config: %s\n", warning.c_str());
  if (!loaded_rules.ok()) {
    std::fprintf(stderr, "causegate check: %s\n", loaded_rules.message().c_str());
    return batch::kExitInputError;
  }

  // "-": a transcript on stdin, read into a temporary file and named "-"
  // in every report.
  std::vector<std::string> paths = args.paths;
  StdinTranscript from_stdin;
  if (std::count(paths.begin(), paths.end(), kStdinName) > 1) {
    std::fprintf(stderr, "causegate check: - (stdin) given more than once\n");
    return batch::kExitInputError;
  }
  if (auto dash = std::find(paths.begin(), paths.end(), kStdinName); dash != paths.end()) {
    if (Status s = from_stdin.Read(); !s.ok()) {
      std::fprintf(stderr, "causegate check: %s\n", s.message().c_str());
      return batch::kExitInputError;
    }
    *dash = from_stdin.path();
  }
  const batch::Discovery found = batch::DiscoverTranscripts(paths);
  int input_errors = 0;
  for (const std::string& error : found.errors) {
    std::fprintf(stderr, "causegate check: %s\n", error.c_str());
    ++input_errors;
  }
  if (found.files.empty() && found.errors.empty()) {
    std::fprintf(stderr, "causegate check: no transcripts (*.jsonl) found\n");
    ++input_errors;
  }
  std::vector<std::string> files;
  for (const std::string& file : found.files) {
    if (batch::InShard(file, shard) && !gate::ExcludedPath(config.exclude.value, file, cwd)) files.push_back(file);
  }

  KeepFreedMemory();
  batch::RunOptions options;
  options.jobs = args.jobs;
  options.check.loop.max_blocks = args.max_blocks_given ? args.max_blocks : config.max_blocks.value;
  options.progress = !args.report.quiet && isatty(STDERR_FILENO);
  batch::CheckResults results = batch::CheckFiles(files, *rules, options);
  if (!from_stdin.path().empty()) NameStdin(from_stdin.path(), &results);
  if (!args.baseline.empty() && !ApplyBaselineFile(args.baseline, args.report.quiet, &results)) {
    return batch::kExitInputError;
  }
  if (!args.write_baseline.empty()) {
    // Recording today's flagged turns is the point of the run: it fails
    // only when it cannot read or write.
    if (!WriteBaselineFile(args.write_baseline, results, args.report.quiet)) return batch::kExitInputError;
    const int code = FinishReports("check", results, *rules, args.report, input_errors);
    return code == batch::kExitInputError ? code : batch::kExitClean;
  }
  return FinishReports("check", results, *rules, args.report, input_errors);
}

void AddCheckCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand(
      "check", "Judge every turn of saved transcripts (files, folders, globs) and report for CI");
  auto args = std::make_shared<CheckArgs>();
  cmd->add_option("paths", args->paths, "Transcript files, folders (every *.jsonl below) or globs; - reads one from stdin")
      ->required();
  cmd->add_option("-j,--jobs", args->jobs, "Threads judging turns, of one file or many (0 to 1024; default 0: one per core)")
      ->type_name("N")
      ->check(WholeNumber(0, 1024));
  cmd->add_option("--shard", args->shard, "Check only share I of N of the files, by path hash (e.g. 2/4)");
  AddMaxBlocksOption(cmd, &args->max_blocks, "Blocks per turn before the gate lets a turn through");
  cmd->add_option("--baseline", args->baseline,
                  "Known flagged turns (from --write-baseline): reported as known, failing nothing");
  cmd->add_option("--write-baseline", args->write_baseline,
                  "Record today's flagged claims in FILE, to pass to --baseline later (exit 0)");
  AddReportOptions(cmd, &args->report);
  cmd->callback([cmd, &common, args] {
    args->max_blocks_given = cmd->count("--max-blocks") > 0;
    common.exit_code = RunCheck(*args, common);
  });
}

const Registrar kRegister(40, AddCheckCommand);

}  // namespace
}  // namespace causegate::cli
