#include "gate/turn_config.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace causegate::gate {
namespace {

namespace fs = std::filesystem;

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Tools that run a command line (Claude Code's Bash, Codex's shell and
// exec_command, Gemini's run_shell_command, ...).
bool IsShellTool(const std::string& name) {
  const std::string lower = Lower(name);
  return lower.find("bash") != std::string::npos || lower.find("shell") != std::string::npos ||
         lower.find("exec") != std::string::npos;
}

// The path a file-writing tool writes to, or "" for a tool that writes none.
std::string WrittenPath(const evidence::ToolCall& call) {
  const std::string lower = Lower(call.name);
  const bool writes = lower == "write" || lower == "edit" || lower == "multiedit" || lower == "notebookedit" ||
                      lower == "write_file" || lower == "replace" || lower == "apply_patch" || lower == "create";
  if (!writes) return "";
  const auto input = nlohmann::json::parse(call.input, nullptr, /*allow_exceptions=*/false);
  if (!input.is_object()) return call.command;
  for (const char* field : {"file_path", "path", "notebook_path"}) {
    const auto it = input.find(field);
    if (it != input.end() && it->is_string()) return it->get<std::string>();
  }
  return call.command;
}

std::string Normal(const std::string& path, const std::string& cwd) {
  fs::path p(path);
  if (p.is_relative() && !cwd.empty()) p = fs::path(cwd) / p;
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(p, ec);
  return (ec ? p.lexically_normal() : canonical).string();
}

bool NamesConfigFile(const std::string& text) {
  return text.find(".causegate.json") != std::string::npos || text.find("causegate/config.json") != std::string::npos;
}

}  // namespace

bool TurnWritesConfig(const evidence::Turn& turn, const std::string& cwd, const std::string& path) {
  const std::string target = Normal(path, cwd);
  for (const evidence::ToolCall& call : turn.tool_calls) {
    if (call.turns_back != 0) continue;
    if (IsShellTool(call.name) && (NamesConfigFile(call.command) || NamesConfigFile(call.input))) return true;
    const std::string written = WrittenPath(call);
    if (!written.empty() && Normal(written, cwd) == target) return true;
    // A patch names its files in its text.
    if (Lower(call.name) == "apply_patch" && call.input.find(fs::path(path).filename().string()) != std::string::npos) {
      return true;
    }
  }
  return false;
}

bool UserSkipsTurn(const HookRequest& request, const evidence::Turn& turn) {
  if (request.subagent()) return false;
  return turn.prompt.find(kSkipToken) != std::string::npos;
}

std::vector<rules::Claim> SetAsideWarnedClaims(const MergedConfig& config, const rules::RuleSet& rules,
                                               rules::Verdict* verdict) {
  std::vector<rules::Claim> warned;
  if (config.rules.empty()) return warned;
  std::vector<rules::Claim> kept;
  for (rules::Claim& claim : verdict->claims) {
    const bool warn = claim.finding != rules::Finding::kSupported && claim.rule >= 0 &&
                      config.SwitchFor(rules.rule(claim.rule).id) == RuleSwitch::kWarn;
    (warn ? warned : kept).push_back(std::move(claim));
  }
  verdict->claims = std::move(kept);
  if (verdict->unsupported() == 0) verdict->decision = rules::Decision::kAllow;
  return warned;
}

bool ApplyWarnings(const MergedConfig& config, const std::vector<rules::Claim>& warned,
                   const rules::RuleSet& rules, rules::Outcome* outcome) {
  if (outcome->action == rules::Action::kBlock && config.mode.value == GateMode::kWarn) {
    outcome->action = rules::Action::kAllowUnproven;
    outcome->system_message = "causegate (mode \"warn\", " + config.mode.source +
                              "): this stop would have been sent back: " + outcome->reason;
    outcome->reason.clear();
    return true;
  }
  if (outcome->action != rules::Action::kAllow || warned.empty()) return false;
  std::string ids;
  for (const rules::Claim& claim : warned) {
    const std::string& id = rules.rule(claim.rule).id;
    if (ids.find("\"" + id + "\"") != std::string::npos) continue;
    ids += (ids.empty() ? "\"" : ", \"") + id + "\"";
  }
  const std::size_t n = warned.size();
  outcome->action = rules::Action::kAllowUnproven;
  outcome->system_message = "causegate: " + std::to_string(n) + " causal claim" + (n == 1 ? "" : "s") +
                            " without cited tool output let through: rule " + ids +
                            " is set to \"warn\" in your config. Treat the stated cause as a hypothesis.";
  return true;
}

}  // namespace causegate::gate
