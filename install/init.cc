#include "install/init.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

namespace causegate::install {
namespace {

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

}  // namespace

Status PlanChange(Agent agent, Scope scope, Edit edit, const HookCommand& command, const Places& places,
                  AgentChange* out) {
  *out = AgentChange();
  out->agent = agent;
  out->path = SettingsPath(agent, scope, places);
  out->folder = AgentFolder(agent, scope, places);
  if (Status s = ReadSettings(out->path, &out->before); !s.ok()) return s;
  out->kind = edit;
  out->scope = scope;
  // Nothing to remove from a file that is not there: after stays "".
  if (edit == Edit::kRemove && !out->before.exists) return Status::Ok();
  if (Status s = EditSettings(agent, edit, command, out->before.text, out->before.exists, out->before.has_backup,
                              &out->edit);
      !s.ok()) {
    return s.Within(out->path);
  }
  if (agent != Agent::kCodex || places.home.empty()) return Status::Ok();
  // Codex skips an untrusted hook in `codex exec` silently: record the trust
  // the TUI would ask for, in the user's config.toml (for either scope).
  const std::string config_path = CodexConfigPath(places);
  SettingsText config;
  if (Status s = ReadSettings(config_path, &config); !s.ok()) return s;
  return PlanCodexTrust(out->path, out->before.text, out->edit.remove_file ? "" : out->edit.after, config_path, config,
                        &out->trust);
}

Status ApplyChange(AgentChange* change) {
  if (change->settings_changed()) {
    const Status s = change->edit.remove_file ? RemoveSettings(change->path)
                                              : WriteSettings(change->path, change->edit.after, &change->backup_path);
    if (!s.ok()) return s;
    if (change->edit.remove_file && change->scope == Scope::kProject) {
      // rmdir removes only an empty folder; stop at the first that is not.
      const std::filesystem::path top = change->folder;
      for (std::filesystem::path p = std::filesystem::path(change->path).parent_path();
           p.string().size() >= top.string().size() && p.string().compare(0, top.string().size(), top.string()) == 0;
           p = p.parent_path()) {
        if (rmdir(p.c_str()) != 0) break;
      }
    }
  }
  const TrustChange& trust = change->trust;
  if (!trust.changed()) return Status::Ok();
  if (trust.remove_file) return RemoveSettings(trust.path);
  return WriteSettings(trust.path, trust.after, &change->trust_backup_path);
}

std::string DescribeChange(const AgentChange& change, bool dry_run) {
  std::string out = std::string(AgentName(change.agent)) + ": " + change.path + ": ";
  const EditResult& e = change.edit;
  std::vector<std::string> parts;
  const char* add = dry_run ? "would add " : "added ";
  const char* update = dry_run ? "would update " : "updated ";
  const char* remove = dry_run ? "would remove " : "removed ";
  if (!e.added.empty()) parts.push_back(add + Join(e.added));
  if (!e.updated.empty()) parts.push_back(update + Join(e.updated));
  if (!e.removed.empty()) parts.push_back(remove + Join(e.removed));
  if (parts.empty()) {
    return out + (change.kind == Edit::kRemove ? "no causegate hooks, nothing to change"
                                                : "up to date, nothing to change");
  }
  out += Join(parts) + " hook" + (e.added.size() + e.updated.size() + e.removed.size() == 1 ? "" : "s");
  if (e.remove_file) out += dry_run ? "; would delete the file (it held nothing else)" : "; deleted the file (it held nothing else)";
  if (!change.before.target.empty()) out += " (through the link to " + change.before.target + ")";
  if (!change.backup_path.empty()) out += " (backup: " + change.backup_path + ")";
  if (!change.before.exists && !dry_run) out += " (created)";
  return out;
}

std::string DescribeTrust(const AgentChange& change, bool dry_run) {
  if (change.agent != Agent::kCodex) return "";
  const TrustChange& t = change.trust;
  const std::string head = std::string(AgentName(change.agent)) + ": " + t.path + ": ";
  if (t.path.empty()) {
    return change.kind == Edit::kAdd ? "codex: HOME is not set: Codex's hook trust was not recorded, and `codex exec` "
                                       "skips an untrusted hook"
                                     : "";
  }
  const std::string key = " (hooks.state \"" + t.key + "\")";
  std::string out;
  switch (t.kind) {
    case TrustChange::Kind::kNone: return "";
    case TrustChange::Kind::kUpToDate: out = head + "Codex's hook trust already recorded, nothing to change"; break;
    case TrustChange::Kind::kRecorded:
      out = head + (dry_run ? "would record" : "recorded") + " Codex's hook trust for causegate" + key;
      break;
    case TrustChange::Kind::kUpdated:
      out = head + (dry_run ? "would update" : "updated") +
            " Codex's hook trust for causegate to the hook as written" + key;
      break;
    case TrustChange::Kind::kRemoved:
      out = head + (dry_run ? "would remove" : "removed") + " causegate's hook trust entry";
      break;
  }
  if (t.moved > 0) {
    out += "; " + std::to_string(t.moved) + " other hook" + (t.moved == 1 ? "'s" : "s'") + " trust moved with " +
           (t.moved == 1 ? "its" : "their") + " new place";
  }
  if (t.remove_file) {
    out += dry_run ? "; would delete the file (it held nothing else)" : "; deleted the file (it held nothing else)";
  }
  if (!change.trust_backup_path.empty()) out += " (backup: " + change.trust_backup_path + ")";
  if (change.scope == Scope::kProject && change.kind == Edit::kAdd) {
    const std::string project = std::filesystem::path(change.path).parent_path().parent_path().string();
    out += "; Codex loads a project's hooks only in a trusted project ([projects.\"" + project +
           "\"] trust_level = \"trusted\")";
  }
  return out;
}

std::vector<Agent> AgentsInUse(Scope scope, const Places& places) {
  std::vector<Agent> agents;
  for (const Agent agent : kAllAgents) {
    struct stat st {};
    if (stat(AgentFolder(agent, scope, places).c_str(), &st) == 0 && S_ISDIR(st.st_mode)) agents.push_back(agent);
  }
  return agents;
}

}  // namespace causegate::install
