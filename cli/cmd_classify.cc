// `causegate classify`: JSONL in, JSONL out. Each input line
// {"id", "text", "lang"?} gets one output line {"id", "causal", "hedged",
// "claim", "rules", "lang"} from the same packs the gate uses (--rules
// adds or replaces packs as for every command). The format is documented in
// rules/QUALITY.md; the work is rules/classify.h. Exit 0 when every line
// was answered (error objects included), 2 when the packs do not load.
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "rules/classify.h"

namespace causegate::cli {
namespace {

void AddClassifyCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand(
      "classify", "Classify JSONL texts on stdin (causal, hedged, claim) with the gate's rule packs");
  cmd->callback([&common] {
    std::shared_ptr<const rules::RuleSet> rules;
    if (Status s = rules::LoadRuleSet(common.rules_dir, &rules); !s.ok()) {
      std::fprintf(stderr, "causegate: %s\n", s.message().c_str());
      common.exit_code = 2;
      return;
    }
    std::ios::sync_with_stdio(false);
    std::cin.tie(nullptr);
    const rules::ClassifyStats stats = rules::ClassifyStream(*rules, std::cin, std::cout);
    if (stats.errors > 0) {
      std::fprintf(stderr, "causegate: classify: %lld of %lld line(s) could not be read (see their \"error\")\n",
                   static_cast<long long>(stats.errors), static_cast<long long>(stats.lines));
    }
    common.exit_code = 0;
  });
}

const Registrar kRegister(45, AddClassifyCommand);

}  // namespace

}  // namespace causegate::cli
