// `causegate rules lint|test|list [PATH]`: checking rule packs before they
// gate anything. PATH is a pack file or a folder of them; without it,
// --rules, and without that the built-in packs. lint lists every problem
// of every file as file:line:column: rule "id": what (rules/pack_lint.h),
// including an id that a built-in rule already has; test runs every rule
// against its own match and no_match examples; list shows each rule the
// gate would load and what it is for. lint and test exit 1 on any
// problem; all three exit 2 when PATH cannot be read.
#include <cstdio>

#include "cli/commands.h"
#include "rules/pack_lint.h"
#include "rules/rule_set.h"

namespace causegate::cli {
namespace {

void PrintProblem(const rules::Rule& r, const std::string& what) {
  std::printf("%s\n", rules::PackProblem{r.file, r.line, r.column, r.id, what}.Message().c_str());
}

int Lint(const std::string& path) {
  rules::LintReport report;
  if (Status s = rules::LintPacks(path, rules::CompileOptions(), &report); !s.ok()) {
    std::fprintf(stderr, "causegate: %s\n", s.message().c_str());
    return 2;
  }
  for (const rules::PackProblem& p : report.problems) std::printf("%s\n", p.Message().c_str());
  std::printf("%zu pack(s), %zu rule(s), %zu problem(s)\n", report.packs, report.rules, report.problems.size());
  return report.problems.empty() ? 0 : 1;
}

// Packs to test: those at path alone (not joined with the built-in ones:
// their own examples are what is tested), or the built-in packs.
bool CollectPacks(const std::string& path, std::vector<rules::Pack>* packs, int* problems) {
  if (path.empty()) {
    *packs = rules::DefaultPacks();
    return true;
  }
  std::vector<std::string> files;
  if (Status s = rules::PackFiles(path, &files); !s.ok()) {
    std::fprintf(stderr, "causegate: %s\n", s.message().c_str());
    return false;
  }
  for (const std::string& f : files) {
    rules::Pack pack;
    if (Status s = rules::LoadPackFile(f, &pack); !s.ok()) {
      std::printf("%s\n", s.message().c_str());
      ++*problems;
      continue;
    }
    packs->push_back(std::move(pack));
  }
  return true;
}

int Test(const std::string& path) {
  std::vector<rules::Pack> packs;
  int problems = 0;
  if (!CollectPacks(path, &packs, &problems)) return 2;
  std::shared_ptr<const rules::RuleSet> set;
  if (Status s = rules::RuleSet::Compile(packs, &set); !s.ok()) {
    std::printf("%s\n", s.message().c_str());
    return 1;
  }
  int passed = 0;
  for (std::size_t i = 0; i < set->rules().size(); ++i) {
    const rules::Rule& r = set->rule(static_cast<int>(i));
    for (const std::string& ex : r.must_match) {
      if (set->MatchRule(static_cast<int>(i), ex)) {
        ++passed;
      } else {
        PrintProblem(r, "should match: \"" + ex + "\"");
        ++problems;
      }
    }
    for (const std::string& ex : r.must_not_match) {
      if (!set->MatchRule(static_cast<int>(i), ex)) {
        ++passed;
      } else {
        PrintProblem(r, "should not match: \"" + ex + "\"");
        ++problems;
      }
    }
  }
  std::printf("%zu rule(s), %d example(s): %d passed, %d failed\n", set->rules().size(), passed + problems, passed,
              problems);
  return problems ? 1 : 0;
}

int List(const std::string& path) {
  std::shared_ptr<const rules::RuleSet> set;
  if (Status s = rules::LoadRuleSet(path, &set); !s.ok()) {
    std::fprintf(stderr, "causegate: %s\n", s.message().c_str());
    return 2;
  }
  for (const rules::Pack& p : set->packs()) std::printf("pack %s %s (%s)\n", p.name.c_str(), p.version.c_str(), p.file.c_str());
  for (const rules::Rule& r : set->rules()) {
    std::printf("%-34s %-18s %s\n", r.id.c_str(), rules::RuleKindName(r.kind), rules::RulePurpose(r).c_str());
  }
  return 0;
}

void AddRulesCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("rules", "Check rule packs: lint, test, list");
  cmd->require_subcommand(1);
  auto path = std::make_shared<std::string>();
  // The packs a subcommand works on: PATH, else --rules, else the built-in ones.
  auto packs = [&common, path] { return path->empty() ? common.rules_dir : *path; };
  const char* kPathHelp = "A pack file or a folder of packs (default: --rules, else the built-in packs)";
  auto* lint = cmd->add_subcommand("lint", "Every problem of the packs, as file:line:column: rule \"id\": what");
  lint->add_option("path", *path, kPathHelp);
  lint->callback([&common, packs] { common.exit_code = Lint(packs()); });
  auto* test = cmd->add_subcommand("test", "Check every rule against its own examples");
  test->add_option("path", *path, kPathHelp);
  test->callback([&common, packs] { common.exit_code = Test(packs()); });
  auto* list = cmd->add_subcommand("list", "The rules the gate loads (built-in plus PATH or --rules) and what each is for");
  list->add_option("path", *path, "A pack file or a folder of packs to add (default: --rules)");
  list->callback([&common, packs] { common.exit_code = List(packs()); });
}

const Registrar kRegister(60, AddRulesCommand);

}  // namespace

}  // namespace causegate::cli
