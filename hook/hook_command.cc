#include "hook/hook_command.h"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <vector>

#include "evidence/limits.h"
#include "hook/agent_console.h"
#include "hook/peak_rss.h"
#include "hook/resident.h"
#include "hook/stdin_reader.h"

namespace causegate::hook {

namespace {

// One stop, one verdict: a set the turn never needs (the zh rules of an
// English turn, the step rules of a turn without tool calls) is never
// compiled, and compiling is most of what a hook call costs. The built-in
// packs are linted by the tests; a user's --rules packs (a file or a
// folder) are compiled at load, so a pack of theirs that does not compile
// fails the hook open with its file:line (gate/HOOKS.md) instead of
// surfacing mid-verdict.
rules::CompileOptions CompileFor(const std::string& rules_dir, bool one_shot) {
  rules::CompileOptions options;
  options.lazy = rules_dir.empty();
  // Is the prompt a diagnosis: the rules in pack order up to the first that
  // says so, not every rule its words call for (rules::DiagnosticRule). A
  // daemon keeps its sets, so it compiles what a text needs in bulk.
  options.staged_first_match = one_shot;
  return options;
}

// The daemon's answer is the hook's stdout; a let-through in it is a
// systemMessage (the answer shapes of gate/HOOKS.md).
std::string LetThroughWarningIn(const std::string& answer) {
  if (answer.find("\"systemMessage\"") == std::string::npos) return "";  // a block or silence: no parse
  const auto doc = nlohmann::json::parse(answer, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return "";
  const auto it = doc.find("systemMessage");
  return it != doc.end() && it->is_string() ? it->get<std::string>() : "";
}

// A one-shot hook process exits as soon as it has answered: tearing the
// compiled RE2 sets down first (about 2 M instructions, 2% of a cold call
// by callgrind) would only delay the agent, so the process keeps them to
// its end. Memcheck and LeakSanitizer count memory still reachable at exit
// as no leak (tests/e2e/hook_memcheck.py). A daemon has a RuleCache instead.
void KeepUntilExit(std::shared_ptr<const CachedRules> rules) {
  static std::mutex mutex;
  static auto* const kept = new std::vector<std::shared_ptr<const CachedRules>>();
  const std::lock_guard<std::mutex> lock(mutex);
  kept->push_back(std::move(rules));
}

// The rule set of a stop whose config files do not decide it: the default
// packs and --rules, or none for observe-only events and config files (the
// turn's config compiles what it asks for).
CachedRules FrontEndRules(const HookCommandOptions& options, bool compile_none) {
  CachedRules out;
  const bool one_shot = options.cache == nullptr;
  out.status = compile_none ? rules::RuleSet::Compile({}, &out.rules)
                            : rules::LoadRuleSet(options.rules_dir, CompileFor(options.rules_dir, one_shot), &out.rules);
  return out;
}

}  // namespace

HookAnswer JudgeHookInput(const HookCommandOptions& options, const std::string& input) {
  HookAnswer answer;
  const bool observe_only = gate::IsObserveOnlyInput(input, options.agent);
  gate::GateOptions gate_options = options.gate;
  bool config_files = false;
  if (!observe_only) {
    // The config files are found from the input's cwd; an input that does
    // not parse fails open in RunGate as before.
    gate::HookRequest request;
    if (gate::ParseHookInput(input, options.agent, &request).ok()) {
      HookConfig config =
          LoadHookConfig(request.cwd, options.rules_dir, options.flags, options.gate.loop, options.cache);
      config_files = !config.loaded.files.empty();
      gate_options.configure = std::move(config.configure);
    }
  }
  // The daemon reads no config files, nor --mode: with any for this cwd,
  // or that flag, the hook judges locally so that they hold (gate/HOOKS.md).
  if (!options.daemon.url.empty() && (config_files || options.flags.mode)) {
    spdlog::debug("config files for this folder, or --mode: judging locally, not with the daemon");
  } else if (!options.daemon.url.empty()) {
    const Status asked = AskDaemon(options.daemon, input, &answer.out);
    if (asked.ok()) {  // already the hook's exact stdout
      answer.headless_warning = LetThroughWarningIn(answer.out);
      return answer;
    }
    answer.out.clear();
    spdlog::warn("{}; judging locally", asked.message());
  }
  const auto load_start = std::chrono::steady_clock::now();
  // Observe-only events (Cursor, Copilot) judge nothing: no packs to compile;
  // with config files, the turn's config compiles the packs it asks for.
  const bool compile_none = observe_only || config_files;
  const auto compile = [&] { return FrontEndRules(options, compile_none); };
  std::shared_ptr<const CachedRules> loaded =
      options.cache == nullptr
          ? std::make_shared<const CachedRules>(compile())
          : options.cache->Get(compile_none ? std::string("none")
                                            : "front " + PathSignature(options.rules_dir),
                               compile);
  if (options.cache == nullptr) KeepUntilExit(loaded);
  if (!loaded->status.ok()) {
    // A broken user pack is loud, but the agent still gets to stop.
    spdlog::error("allowed without judging (fail-open): rule packs: {}", loaded->status.message());
    return answer;
  }
  const double load_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - load_start).count();
  const gate::GateResult result = gate::RunGate(input, options.agent, *loaded->rules, gate_options);
  if (!result.judged) {
    spdlog::warn("allowed without judging (fail-open): {}", result.fail_open_reason);
    return answer;
  }
  if (!result.output.empty()) answer.out = result.output + "\n";
  if (result.skipped_by_config) return answer;  // the configure call said why
  if (!result.not_judged.empty()) {
    spdlog::info("allowed without judging: {}", result.not_judged);
    return answer;
  }
  // bench/hook_bench.py reads this line: where a hook call's time goes
  // (judge includes compiling the rule sets the turn needed).
  spdlog::debug("{}: {} claim(s), {} unsupported, load packs {:.2f} ms, read {:.2f} ms, judge {:.2f} ms, peak RSS {:.1f} MiB",
                rules::ActionName(result.outcome.action), result.verdict.claims.size(),
                result.verdict.unsupported(), load_ms, result.read_ms, result.judge_ms, PeakRssMiB());
  if (result.outcome.action == rules::Action::kAllowUnproven) {
    if (result.downgraded_by_config) {
      spdlog::warn("config: {}", result.outcome.system_message);
    } else {
      spdlog::warn("turn let through unproven after {} block(s)", result.prior_blocks);
    }
    answer.headless_warning = result.outcome.system_message;
  }
  return answer;
}

int RunHookCommand(const HookCommandOptions& options) {
  std::string input;
  if (Status s = ReadBounded(stdin, limits::kMaxHookInputBytes, &input); !s.ok()) {
    spdlog::warn("allowed without judging (fail-open): {}", s.message());
    return 0;
  }
  ResidentClient resident(options);
  if (resident.Answered(input)) return 0;
  const HookAnswer answer = JudgeHookInput(options, input);
  if (!answer.out.empty()) {
    std::fwrite(answer.out.data(), 1, answer.out.size(), stdout);
    std::fflush(stdout);
  }
  if (!answer.headless_warning.empty()) WarnHeadlessAgentUser(answer.headless_warning);
  resident.StartIfWanted();
  return 0;
}

}  // namespace causegate::hook
