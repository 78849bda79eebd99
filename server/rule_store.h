// The daemon's active rule set and how it is replaced. Requests take a
// shared_ptr copy of the current set and judge with it to the end, so a
// reload never changes the rules under a request in flight; Reload loads
// and compiles the packs off to the side and swaps the pointer only when
// every pack is good. A bad pack leaves the last good set in place.
// Thread-safe: any number of Current() callers, reloads serialised.
// Tests: tests/unit/server/rule_store_test.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "evidence/status.h"
#include "rules/rule_set.h"

namespace causegate::server {

class RuleStore {
 public:
  // dir: the --rules pack file or folder ("" = built-in packs only).
  // Nothing is loaded until the first Reload.
  explicit RuleStore(std::string dir);

  // Loads the packs (rules::LoadRuleSet) and, on success, makes them
  // current. On failure the current set stays, and the error reads
  // "file:line:column: rule \"id\": what".
  Status Reload();

  // The active set; null only before the first successful Reload.
  std::shared_ptr<const rules::RuleSet> Current() const;

  const std::string& dir() const { return dir_; }

 private:
  const std::string dir_;
  std::mutex reload_mu_;  // one reload at a time
  mutable std::mutex current_mu_;
  std::shared_ptr<const rules::RuleSet> current_;
};

// A fingerprint of the pack files at dir, a folder or one pack file (name,
// size and modification time of every *.json, or of that file); it changes
// when a pack is added, removed or written. "" for dir "", a file that is
// not there, or a folder that cannot be listed.
std::string PackFolderSignature(const std::string& dir);

}  // namespace causegate::server
