// Path containment after resolution. std::filesystem::weakly_canonical
// resolves every symlink and ".." in the part of the path that exists and
// normalises the rest lexically, so "root/../etc/passwd" and a symlink
// inside a root that points out of it both resolve outside the root. The
// comparison is by whole path components ("/a/bc" is not inside "/a/b").
// A symlink swapped in between this check and the read is out of scope: it
// needs write access under a root, which is the user's own.
// Tests: tests/unit/server/path_roots_test.cc.
#include "server/path_roots.h"

#include <algorithm>
#include <system_error>

namespace causegate::server {
namespace {

namespace fs = std::filesystem;

fs::path Resolve(const fs::path& p, std::error_code* ec) {
  fs::path resolved = fs::weakly_canonical(p, *ec);
  if (*ec) return {};
  return resolved.lexically_normal();
}

// Strictly inside: every component of root is a leading component of path,
// and path has more.
bool Inside(const fs::path& path, const fs::path& root) {
  auto p = path.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++p) {
    if (r->empty()) continue;  // trailing separator of "dir/"
    if (p == path.end() || *p != *r) return false;
  }
  for (; p != path.end(); ++p) {
    if (!p->empty()) return true;
  }
  return false;
}

}  // namespace

std::string ExpandHome(const std::string& path, const std::string& home) {
  if (path == "~") return home;
  if (path.rfind("~/", 0) != 0 || home.empty()) return path;
  return home + path.substr(1);
}

PathRoots::PathRoots(const std::vector<std::string>& roots, const std::string& home) : home_(home) {
  for (const std::string& root : roots) {
    const fs::path expanded = ExpandHome(root, home);
    if (!expanded.is_absolute()) continue;  // refused at config validation; never matches
    std::error_code ec;
    fs::path resolved = Resolve(expanded, &ec);
    roots_.push_back(ec ? expanded.lexically_normal() : resolved);
  }
}

Status PathRoots::Check(const std::string& path) const {
  const fs::path expanded = ExpandHome(path, home_);
  if (!expanded.is_absolute()) return Status::Error("transcript path: \"" + path + "\" is not absolute");
  std::error_code ec;
  const fs::path resolved = Resolve(expanded, &ec);
  if (ec) return Status::Error("transcript path: \"" + path + "\": " + ec.message());
  const bool inside = std::any_of(roots_.begin(), roots_.end(), [&](const fs::path& root) { return Inside(resolved, root); });
  if (!inside) return Status::Error("transcript path: \"" + path + "\" is outside the allowed roots");
  return Status::Ok();
}

std::vector<std::string> PathRoots::Defaults(const std::string& claude_config_dir) {
  std::vector<std::string> roots = {"~/.claude/projects", "~/.codex/sessions", "~/.gemini/tmp",
                                    "~/.cursor/projects", "~/.copilot/session-state"};
  if (!claude_config_dir.empty()) roots.push_back(claude_config_dir + "/projects");
  return roots;
}

}  // namespace causegate::server
