// The folders the daemon may read transcripts from. A hook request names
// its transcript by path, and anyone who can reach the port can send one,
// so a path is read only when, after "~/" expansion and with every symlink
// and ".." resolved, it lies strictly inside one of the roots. Default
// roots: the agents' own session folders under the user's home.
// Thread-safe after construction (immutable).
// Tests: tests/unit/server/path_roots_test.cc.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "evidence/status.h"

namespace causegate::server {

class PathRoots {
 public:
  PathRoots() = default;
  // Resolves each root now ("~/" expanded with home; symlinks resolved as
  // far as the folder exists). A root that does not exist yet still counts.
  PathRoots(const std::vector<std::string>& roots, const std::string& home);

  // Ok when path is absolute (or starts with "~/") and its resolved form
  // lies inside a root. Error "transcript path: ... is outside the allowed
  // roots" otherwise. Never throws.
  Status Check(const std::string& path) const;

  const std::vector<std::filesystem::path>& roots() const { return roots_; }

  // ~/.claude/projects, ~/.codex/sessions, ~/.gemini/tmp, ~/.cursor/projects,
  // and $CLAUDE_CONFIG_DIR/projects when claude_config_dir is not empty.
  static std::vector<std::string> Defaults(const std::string& claude_config_dir);

 private:
  std::string home_;
  std::vector<std::filesystem::path> roots_;
};

// "~/x" -> home + "/x"; any other path unchanged.
std::string ExpandHome(const std::string& path, const std::string& home);

}  // namespace causegate::server
