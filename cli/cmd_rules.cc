// `causegate rules lint|test|list [DIR]`: checking rule packs before they
// gate anything. lint parses and compiles every pack (the built-in ones, or
// those in DIR) and reports each problem as file:line: rule "id": what;
// test runs every rule against its own must-match and must-not-match
// examples. Both exit 1 on any problem, 2 on usage errors.
#include <cstdio>
#include <filesystem>
#include <algorithm>

#include "cli/commands.h"
#include "rules/rule_set.h"

namespace causegate::cli {
namespace {

// Packs to check: those in dir, or the built-in ones when dir is "".
bool CollectPacks(const std::string& dir, std::vector<rules::Pack>* packs, int* problems) {
  if (dir.empty()) {
    *packs = rules::DefaultPacks();
    return true;
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    std::fprintf(stderr, "causegate: %s: not a directory\n", dir.c_str());
    return false;
  }
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".json") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
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

std::string Where(const rules::Rule& r) {
  return r.file + ":" + std::to_string(r.line) + ": rule \"" + r.id + "\"";
}

int Lint(const std::string& dir) {
  std::vector<rules::Pack> packs;
  int problems = 0;
  if (!CollectPacks(dir, &packs, &problems)) return 2;
  std::size_t rule_count = 0;
  for (const rules::Pack& pack : packs) {
    for (const rules::Rule& r : pack.rules) {
      ++rule_count;
      std::shared_ptr<const rules::RuleSet> one;
      rules::Pack single = pack;
      single.rules = {r};
      if (Status s = rules::RuleSet::Compile({single}, &one); !s.ok()) {
        std::printf("%s\n", s.message().c_str());
        ++problems;
      }
      if (r.must_match.empty()) {
        std::printf("%s: no \"match\" examples\n", Where(r).c_str());
        ++problems;
      }
      if (r.must_not_match.empty()) {
        std::printf("%s: no \"no_match\" examples\n", Where(r).c_str());
        ++problems;
      }
    }
  }
  if (problems == 0) {
    std::shared_ptr<const rules::RuleSet> all;
    if (Status s = rules::RuleSet::Compile(packs, &all); !s.ok()) {
      std::printf("%s\n", s.message().c_str());
      ++problems;
    }
  }
  std::printf("%zu pack(s), %zu rule(s), %d problem(s)\n", packs.size(), rule_count, problems);
  return problems ? 1 : 0;
}

int Test(const std::string& dir) {
  std::vector<rules::Pack> packs;
  int problems = 0;
  if (!CollectPacks(dir, &packs, &problems)) return 2;
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
        std::printf("%s: should match: \"%s\"\n", Where(r).c_str(), ex.c_str());
        ++problems;
      }
    }
    for (const std::string& ex : r.must_not_match) {
      if (!set->MatchRule(static_cast<int>(i), ex)) {
        ++passed;
      } else {
        std::printf("%s: should not match: \"%s\"\n", Where(r).c_str(), ex.c_str());
        ++problems;
      }
    }
  }
  std::printf("%zu rule(s): %d passed, %d failed\n", set->rules().size(), passed, problems);
  return problems ? 1 : 0;
}

int List(const std::string& dir) {
  std::shared_ptr<const rules::RuleSet> set;
  if (Status s = rules::LoadRuleSet(dir, &set); !s.ok()) {
    std::fprintf(stderr, "causegate: %s\n", s.message().c_str());
    return 2;
  }
  for (const rules::Pack& p : set->packs()) std::printf("pack %s %s (%s)\n", p.name.c_str(), p.version.c_str(), p.file.c_str());
  for (const rules::Rule& r : set->rules()) {
    std::printf("%-34s %-18s %s\n", r.id.c_str(), rules::RuleKindName(r.kind), r.description.c_str());
  }
  return 0;
}

void AddRulesCommand(CLI::App& app, Common& common) {
  auto* cmd = app.add_subcommand("rules", "Check rule packs: lint, test, list");
  cmd->require_subcommand(1);
  auto dir = std::make_shared<std::string>();
  auto* lint = cmd->add_subcommand("lint", "Parse and compile packs; report file:line: rule \"id\": what");
  lint->add_option("dir", *dir, "Folder of packs (default: the built-in packs)");
  lint->callback([&common, dir] { common.exit_code = Lint(*dir); });
  auto* test = cmd->add_subcommand("test", "Check every rule against its own examples");
  test->add_option("dir", *dir, "Folder of packs (default: the built-in packs)");
  test->callback([&common, dir] { common.exit_code = Test(*dir); });
  auto* list = cmd->add_subcommand("list", "List loaded packs and rules (built-in plus --rules)");
  list->callback([&common] { common.exit_code = List(common.rules_dir); });
}

const Registrar kRegister(60, AddRulesCommand);

}  // namespace

}  // namespace causegate::cli
