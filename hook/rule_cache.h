// Compiled rule sets the resident daemon keeps between stops, by what they
// were compiled from: the packs' paths with their files' identity (device,
// inode, size, mtime), the config's rule switches, the compile options. A
// pack edited on disk gets a new key, so the daemon never judges with a
// pack older than the one the hook would load; compiling is most of what a
// stop costs (bench/RESULTS.md), and this is where the daemon saves it.
// Tests: tests/e2e/resident_gate.py (verdicts with config files and packs).
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "evidence/status.h"
#include "rules/rule_set.h"

namespace causegate::hook {

// A rule set as compiled, with what compiling it logged, so that a stop
// served from the cache logs the same lines as one that compiled.
struct CachedRules {
  enum class Level { kWarn, kError };
  Status status;
  std::shared_ptr<const rules::RuleSet> rules;
  std::vector<std::pair<Level, std::string>> logs;

  void Replay() const;  // the logs, through spdlog
};

class RuleCache {
 public:
  explicit RuleCache(std::size_t capacity = 16) : capacity_(capacity) {}
  // The entry for key; make() builds it when absent (under the cache's
  // lock: keys are few and compiling one twice would cost more). The
  // oldest entry goes when the cache is full. Thread-safe.
  std::shared_ptr<const CachedRules> Get(const std::string& key, const std::function<CachedRules()>& make);

 private:
  std::size_t capacity_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const CachedRules>> entries_;
  std::deque<std::string> order_;  // insertion order, oldest first
};

// The identity of path for a cache key: "DEV:INO:SIZE:MTIME" of the file,
// and of each entry of a folder (sorted); "-" for what does not exist.
std::string PathSignature(const std::string& path);

}  // namespace causegate::hook
