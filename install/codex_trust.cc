// Codex's hook trust: the hash Codex computes and the plan of config.toml's
// edit. The hash input is built with nlohmann::json, whose object keys are
// sorted and whose compact dump escapes as serde_json does (", \ and
// control characters only; UTF-8 kept), so a command holding any bytes
// hashes as in Codex. Places come from ListHooks in file order; causegate's
// edit never reorders other handlers, so the k-th other handler before the
// edit is the k-th after it.
// Tests: tests/unit/install/codex_trust_test.cc.
#include "install/codex_trust.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "install/hook_state_toml.h"
#include "install/sha256.h"

namespace causegate::install {
namespace {

Status StopHooks(const std::string& text, std::vector<HookEntry>* out) {
  std::vector<HookEntry> all;
  if (Status s = ListHooks(Agent::kCodex, text, &all); !s.ok()) return s;
  out->clear();
  for (HookEntry& e : all) {
    if (e.event == "Stop") out->push_back(std::move(e));
  }
  return Status::Ok();
}

}  // namespace

std::string CodexHookHash(const std::string& command, long long timeout_sec, bool async) {
  nlohmann::json hook = {{"async", async}, {"command", command}, {"timeout", timeout_sec}, {"type", "command"}};
  const nlohmann::json definition = {{"event_name", "stop"}, {"hooks", nlohmann::json::array({hook})}};
  return "sha256:" +
         Sha256Hex(definition.dump(-1, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace));
}

std::string CodexHookHash(const HookEntry& entry) {
  return CodexHookHash(entry.command, entry.timeout.value_or(kCodexDefaultTimeout), entry.async);
}

std::string CodexTrustKey(const std::string& hooks_json, const HookEntry& entry) {
  // Codex joins its paths: no "//" or "/./" from a HOME written with a trailing slash.
  const std::string path = std::filesystem::path(hooks_json).lexically_normal().string();
  return path + ":stop:" + std::to_string(entry.group) + ":" + std::to_string(entry.index);
}

std::string CodexConfigPath(const Places& places) {
  return AgentFolder(Agent::kCodex, Scope::kUser, places) + "/config.toml";
}

Status PlanCodexTrust(const std::string& hooks_json_path, const std::string& hooks_before,
                      const std::string& hooks_after, const std::string& config_path, const SettingsText& config,
                      TrustChange* out) {
  *out = TrustChange();
  out->path = config_path;
  out->before = config;
  std::vector<HookEntry> before;
  std::vector<HookEntry> after;
  if (Status s = StopHooks(hooks_before, &before); !s.ok()) return s.Within(hooks_json_path);
  if (Status s = StopHooks(hooks_after, &after); !s.ok()) return s.Within(hooks_json_path);

  HookStateEdit edit;
  const HookEntry* ours_after = nullptr;
  for (const HookEntry& e : after) {
    if (e.ours) {
      ours_after = &e;
      break;
    }
  }
  const std::string kept_key = ours_after != nullptr ? CodexTrustKey(hooks_json_path, *ours_after) : "";
  for (const HookEntry& e : before) {
    if (e.ours && CodexTrustKey(hooks_json_path, e) != kept_key)
      edit.remove.push_back(CodexTrustKey(hooks_json_path, e));
  }
  std::vector<const HookEntry*> others_before;
  std::vector<const HookEntry*> others_after;
  for (const HookEntry& e : before) {
    if (!e.ours) others_before.push_back(&e);
  }
  for (const HookEntry& e : after) {
    if (!e.ours) others_after.push_back(&e);
  }
  if (others_before.size() == others_after.size()) {
    for (std::size_t k = 0; k < others_before.size(); ++k) {
      const std::string from = CodexTrustKey(hooks_json_path, *others_before[k]);
      const std::string to = CodexTrustKey(hooks_json_path, *others_after[k]);
      if (from != to) edit.rename.emplace_back(from, to);
    }
  }
  std::string hash;
  if (ours_after != nullptr) {
    hash = CodexHookHash(*ours_after);
    edit.set_hash.emplace_back(kept_key, hash);
  }

  HookState state;
  if (ours_after != nullptr) {
    if (Status s = ReadHookState(config.text, kept_key, &state); !s.ok()) return s.Within(out->path);
  }
  if (Status s = EditHookState(config.text, edit, &out->after); !s.ok()) return s.Within(out->path);
  for (const auto& [from, to] : edit.rename) {
    HookState moved;
    if (ReadHookState(config.text, from, &moved).ok() && moved.found) ++out->moved;
  }
  if (ours_after != nullptr) {
    out->key = kept_key;
    if (out->after == config.text) {
      out->kind = TrustChange::Kind::kUpToDate;
    } else {
      out->kind =
          state.found && !state.trusted_hash.empty() ? TrustChange::Kind::kUpdated : TrustChange::Kind::kRecorded;
    }
  } else if (out->after != config.text) {
    out->kind = TrustChange::Kind::kRemoved;
    out->key = edit.remove.empty() ? "" : edit.remove.front();
  }
  const bool blank = out->after.find_first_not_of(" \t\r\n") == std::string::npos;
  out->remove_file = blank && config.exists && !config.has_backup && out->after != config.text;
  return Status::Ok();
}

}  // namespace causegate::install
