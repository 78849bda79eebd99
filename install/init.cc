#include "install/init.h"

#include <sys/stat.h>

namespace causegate::install {
namespace {

std::string Join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

}  // namespace

Status PlanChange(Agent agent, Scope scope, Edit edit, const std::string& binary, const Places& places,
                  AgentChange* out) {
  *out = AgentChange();
  out->agent = agent;
  out->path = SettingsPath(agent, scope, places);
  if (Status s = ReadSettings(out->path, &out->before); !s.ok()) return s;
  out->kind = edit;
  // Nothing to remove from a file that is not there: after stays "".
  if (edit == Edit::kRemove && !out->before.exists) return Status::Ok();
  if (Status s = EditSettings(agent, edit, binary, out->before.text, out->before.exists, out->before.has_backup,
                              &out->edit);
      !s.ok()) {
    return s.Within(out->path);
  }
  return Status::Ok();
}

Status ApplyChange(AgentChange* change) {
  if (!change->changed()) return Status::Ok();
  if (change->edit.remove_file) return RemoveSettings(change->path);
  return WriteSettings(change->path, change->edit.after, &change->backup_path);
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
  if (!change.backup_path.empty()) out += " (backup: " + change.backup_path + ")";
  if (!change.before.exists && !dry_run) out += " (created)";
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
