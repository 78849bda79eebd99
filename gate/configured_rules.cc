#include "gate/configured_rules.h"

namespace causegate::gate {
namespace {

Status ReadPacksAt(const std::string& path, std::vector<rules::Pack>* out) {
  std::vector<std::string> files;
  if (Status s = rules::PackFiles(path, &files); !s.ok()) return s;
  for (const std::string& file : files) {
    rules::Pack pack;
    if (Status s = rules::LoadPackFile(file, &pack); !s.ok()) return s;
    out->push_back(std::move(pack));
  }
  return Status::Ok();
}

}  // namespace

Status LoadConfiguredRules(const MergedConfig& config, const std::string& rules_path,
                           const rules::CompileOptions& options, std::shared_ptr<const rules::RuleSet>* out,
                           std::vector<std::string>* warnings) {
  std::vector<rules::Pack> user;
  std::vector<std::string> paths = config.packs.value;
  if (!rules_path.empty()) paths.push_back(rules_path);  // the flag's last: it wins a name
  for (const std::string& path : paths) {
    if (Status s = ReadPacksAt(path, &user); !s.ok()) return s;
  }
  std::vector<rules::Pack> packs = rules::DefaultPacks();
  if (const auto problems = rules::JoinPacks(std::move(user), &packs); !problems.empty()) {
    return Status::Error(rules::SummarizeProblems(problems, paths.empty() ? "" : paths.back()));
  }
  std::vector<bool> matched(config.rules.size(), false);
  for (rules::Pack& pack : packs) {
    std::vector<rules::Rule> kept;
    for (rules::Rule& rule : pack.rules) {
      for (std::size_t i = 0; i < config.rules.size(); ++i) {
        if (RulePatternMatches(config.rules[i].setting.pattern, rule.id)) matched[i] = true;
      }
      if (config.SwitchFor(rule.id) != RuleSwitch::kOff) kept.push_back(std::move(rule));
    }
    pack.rules = std::move(kept);
  }
  for (std::size_t i = 0; i < config.rules.size(); ++i) {
    if (matched[i]) continue;
    const SourcedRule& entry = config.rules[i];
    warnings->push_back(entry.source + ":" + std::to_string(entry.setting.line) + ":" +
                        std::to_string(entry.setting.column) + ": rules: \"" + entry.setting.pattern +
                        "\" matches no rule (ignored)");
  }
  return rules::RuleSet::Compile(std::move(packs), options, out);
}

}  // namespace causegate::gate
