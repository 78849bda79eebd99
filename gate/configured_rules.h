// The rule set a config asks for: the default packs, the config's "packs"
// and the --rules path, with every rule the config switches "off" dropped
// before compiling (so its claims never count, and it costs nothing).
// Tests: tests/unit/gate/configured_rules_test.cc.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "gate/user_config_files.h"
#include "rules/rule_set.h"

namespace causegate::gate {

// *warnings gets one line per "rules" entry that matches no loaded rule
// ("path:line:column: rules: \"en.claim.nope\" matches no rule"): a typo
// must be visible, but is no error.
Status LoadConfiguredRules(const MergedConfig& config, const std::string& rules_path,
                           const rules::CompileOptions& options, std::shared_ptr<const rules::RuleSet>* out,
                           std::vector<std::string>* warnings);

}  // namespace causegate::gate
