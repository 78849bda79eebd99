#include "hook/hook_command.h"

#include <spdlog/spdlog.h>

#include <cstdio>

#include "evidence/limits.h"
#include "hook/stdin_reader.h"

namespace causegate::hook {

int RunHookCommand(const HookCommandOptions& options) {
  std::string input;
  if (Status s = ReadBounded(stdin, limits::kMaxHookInputBytes, &input); !s.ok()) {
    spdlog::warn("allowed without judging (fail-open): {}", s.message());
    return 0;
  }
  if (!options.daemon.url.empty()) {
    std::string answer;
    const Status asked = AskDaemon(options.daemon, input, &answer);
    if (asked.ok()) {
      std::fwrite(answer.data(), 1, answer.size(), stdout);  // already the hook's exact stdout
      std::fflush(stdout);
      return 0;
    }
    spdlog::warn("{}; judging locally", asked.message());
  }
  std::shared_ptr<const rules::RuleSet> rules;
  // Observe-only events (Cursor, Copilot) judge nothing: no packs to compile.
  if (Status s = gate::IsObserveOnlyInput(input, options.agent) ? rules::RuleSet::Compile({}, &rules)
                                                                : rules::LoadRuleSet(options.rules_dir, &rules);
      !s.ok()) {
    // A broken user pack is loud, but the agent still gets to stop.
    spdlog::error("allowed without judging (fail-open): rule packs: {}", s.message());
    return 0;
  }
  const gate::GateResult result = gate::RunGate(input, options.agent, *rules, options.gate);
  if (!result.judged) {
    spdlog::warn("allowed without judging (fail-open): {}", result.fail_open_reason);
    return 0;
  }
  if (!result.output.empty()) {
    std::fwrite(result.output.data(), 1, result.output.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  }
  spdlog::debug("{}: {} claim(s), {} unsupported, read {:.2f} ms, judge {:.2f} ms",
                rules::ActionName(result.outcome.action), result.verdict.claims.size(),
                result.verdict.unsupported(), result.read_ms, result.judge_ms);
  if (result.outcome.action == rules::Action::kAllowUnproven) {
    spdlog::warn("turn let through unproven after {} block(s)", result.prior_blocks);
  }
  return 0;
}

}  // namespace causegate::hook
