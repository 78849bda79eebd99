#include "hook/hook_config.h"

#include <spdlog/spdlog.h>

#include <memory>
#include <vector>

#include "gate/configured_rules.h"

namespace causegate::hook {
namespace {

constexpr const char* kCommandLine = "command line";

void ApplyFlags(const ConfigFlags& flags, gate::MergedConfig* config) {
  if (flags.max_blocks) {
    config->max_blocks.value = *flags.max_blocks;
    config->max_blocks.source = kCommandLine;
  }
  if (flags.guess_fix) {
    config->guess_fix.value = *flags.guess_fix;
    config->guess_fix.source = kCommandLine;
  }
  if (flags.mode) {
    config->mode.value = *flags.mode;
    config->mode.source = kCommandLine;
  }
}

// Rules and packs change the rule set; the other keys only the policy.
bool ChangesRules(const gate::MergedConfig& config) { return !config.rules.empty() || !config.packs.value.empty(); }

// The rule set a turn's config asks for, with what compiling it logged.
CachedRules CompileConfigured(const gate::MergedConfig& config, const std::string& rules_path,
                              const rules::CompileOptions& options) {
  CachedRules out;
  std::vector<std::string> warnings;
  std::shared_ptr<const rules::RuleSet> compiled;
  Status s = gate::LoadConfiguredRules(config, rules_path, options, &compiled, &warnings);
  for (const std::string& warning : warnings) out.logs.emplace_back(CachedRules::Level::kWarn, "config: " + warning);
  if (!s.ok()) {
    // A pack of the config that does not load: its error, and the gate on
    // the defaults rather than off.
    out.logs.emplace_back(CachedRules::Level::kError,
                          "config: rule packs: " + s.message() + "; judging with the default packs");
    gate::MergedConfig defaults_only = config;
    defaults_only.packs.value.clear();
    warnings.clear();
    s = gate::LoadConfiguredRules(defaults_only, "", options, &compiled, &warnings);
  }
  if (s.ok()) out.rules = compiled;
  out.status = s;
  return out;
}

// What CompileConfigured's result depends on: the packs (and their files
// as they are now), the rule switches with where they were written (the
// warnings name the place), the options.
std::string ConfiguredKey(const gate::MergedConfig& config, const std::string& rules_path,
                          const rules::CompileOptions& options) {
  std::string key = std::string("config lazy=") + (options.lazy ? "1" : "0") + "\n" + PathSignature(rules_path) + "\n";
  for (const std::string& pack : config.packs.value) key += PathSignature(pack) + "\n";
  for (const gate::SourcedRule& rule : config.rules) {
    key += rule.source + ":" + std::to_string(rule.setting.line) + ":" + std::to_string(rule.setting.column) + " " +
           rule.setting.pattern + "=" + gate::RuleSwitchName(rule.setting.value) + "\n";
  }
  return key;
}

gate::TurnConfig Settle(const gate::LoadedConfig& loaded, const std::string& rules_path, const ConfigFlags& flags,
                        const rules::LoopPolicy& base, RuleCache* cache, const gate::HookRequest& request,
                        const evidence::Turn& turn) {
  gate::TurnConfig settled;
  if (gate::UserSkipsTurn(request, turn)) {
    spdlog::warn("turn let through unjudged: the user's prompt has {}", gate::kSkipToken);
    settled.skip_reason = std::string("the user's prompt has ") + std::string(gate::kSkipToken);
    return settled;
  }
  std::vector<gate::ConfigFile> trusted;
  for (const gate::ConfigFile& file : loaded.files) {
    if (gate::TurnWritesConfig(turn, request.cwd, file.path)) {
      spdlog::warn("config {} ignored for this turn: a tool call of the turn wrote to it", file.path);
      continue;
    }
    trusted.push_back(file);
  }
  settled.config = gate::MergeConfig(trusted);
  ApplyFlags(flags, &settled.config);
  settled.loop = base;
  settled.loop.max_blocks = settled.config.max_blocks.value;
  settled.loop.guess_fix = settled.config.guess_fix.value;
  if (settled.config.mode.value == gate::GateMode::kOff) {
    spdlog::debug("allowed without judging: mode \"off\" ({})", settled.config.mode.source);
    settled.skip_reason = "mode \"off\" (" + settled.config.mode.source + ")";
    return settled;
  }
  if (ChangesRules(settled.config) || !loaded.files.empty()) {
    // The front-end compiled no rules when files were found: they decide them.
    rules::CompileOptions options;
    options.lazy = rules_path.empty() && settled.config.packs.value.empty();
    const auto compile = [&] { return CompileConfigured(settled.config, rules_path, options); };
    if (cache == nullptr) {
      const CachedRules compiled = compile();
      compiled.Replay();
      settled.rules = compiled.rules;
    } else {
      const std::shared_ptr<const CachedRules> compiled =
          cache->Get(ConfiguredKey(settled.config, rules_path, options), compile);
      compiled->Replay();
      settled.rules = compiled->rules;
    }
  }
  return settled;
}

}  // namespace

HookConfig LoadHookConfig(const std::string& cwd, const std::string& rules_path, const ConfigFlags& flags,
                          const rules::LoopPolicy& base, RuleCache* cache) {
  HookConfig config;
  config.loaded = gate::LoadUserConfig(cwd);
  for (const std::string& error : config.loaded.errors) {
    spdlog::error("config ignored: {} (the defaults and the other config file stay in force)", error);
  }
  const gate::LoadedConfig loaded = config.loaded;
  config.configure = [loaded, rules_path, flags, base, cache](const gate::HookRequest& request,
                                                              const evidence::Turn& turn) {
    return Settle(loaded, rules_path, flags, base, cache, request, turn);
  };
  return config;
}

}  // namespace causegate::hook
