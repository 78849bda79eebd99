#include "server/path_roots.h"

#include <catch2/catch.hpp>

#include <filesystem>

#include "unit/evidence/test_util.h"

namespace causegate::server {
namespace {

namespace fs = std::filesystem;
using evidence::testing::TempDir;

TEST_CASE("transcript paths: only inside a root, after resolution", "[server][roots]") {
  TempDir dir;
  const std::string root = dir.path() + "/home/.claude/projects";
  fs::create_directories(root + "/proj");
  fs::create_directories(dir.path() + "/home/.claude/projects-other");
  fs::create_directories(dir.path() + "/outside");
  dir.WriteRaw("home/.claude/projects/proj/s.jsonl", "{}\n");
  dir.WriteRaw("outside/secret.jsonl", "{}\n");
  fs::create_symlink(dir.path() + "/outside/secret.jsonl", root + "/proj/link-out.jsonl");
  fs::create_symlink(dir.path() + "/outside", root + "/proj/dir-out");
  fs::create_symlink(root + "/proj/s.jsonl", dir.path() + "/outside/link-in.jsonl");

  const PathRoots roots({"~/.claude/projects"}, dir.path() + "/home");
  struct Case {
    std::string path;
    bool allowed;
  };
  const Case cases[] = {
      {root + "/proj/s.jsonl", true},
      {"~/.claude/projects/proj/s.jsonl", true},
      {root + "/proj/not-yet-written.jsonl", true},                // inside; the gate reports it missing
      {root + "/proj/../proj/s.jsonl", true},
      {root + "/proj/../../projects-other/x.jsonl", false},         // .. out of the root
      {root + "/../../../outside/secret.jsonl", false},
      {root + "-other/x.jsonl", false},                              // a sibling sharing the prefix
      {root + "/proj/link-out.jsonl", false},                        // symlink pointing out
      {root + "/proj/dir-out/secret.jsonl", false},                  // through a symlinked folder
      {dir.path() + "/outside/link-in.jsonl", true},                 // a link from outside into the root
      {root, false},                                                 // the root itself is not a transcript
      {root + "/", false},
      {"proj/s.jsonl", false},                                       // relative
      {"/etc/passwd", false},
      {"", false},
  };
  for (const Case& c : cases) {
    INFO(c.path);
    const Status s = roots.Check(c.path);
    CHECK(s.ok() == c.allowed);
    if (!c.allowed) CHECK(s.message().rfind("transcript path: ", 0) == 0);
  }
}

TEST_CASE("transcript roots: a symlinked root resolves to its target", "[server][roots]") {
  TempDir dir;
  fs::create_directories(dir.path() + "/real/sessions");
  dir.WriteRaw("real/sessions/a.jsonl", "{}\n");
  fs::create_symlink(dir.path() + "/real", dir.path() + "/via-link");
  const PathRoots roots({dir.path() + "/via-link/sessions"}, "");
  CHECK(roots.Check(dir.path() + "/real/sessions/a.jsonl").ok());
  CHECK(roots.Check(dir.path() + "/via-link/sessions/a.jsonl").ok());
  CHECK_FALSE(roots.Check(dir.path() + "/real/a.jsonl").ok());
}

TEST_CASE("transcript roots: defaults are the agents' session folders", "[server][roots]") {
  CHECK(PathRoots::Defaults("") ==
        std::vector<std::string>{"~/.claude/projects", "~/.codex/sessions", "~/.gemini/tmp", "~/.cursor/projects",
                                 "~/.copilot/session-state"});
  CHECK(PathRoots::Defaults("/cfg/claude").back() == "/cfg/claude/projects");
  const PathRoots roots(PathRoots::Defaults(""), "/home/u");
  REQUIRE(roots.roots().size() == 5);
  CHECK(roots.roots()[0] == fs::path("/home/u/.claude/projects"));
  CHECK(roots.Check("/home/u/.codex/sessions/2025/01/rollout.jsonl").ok());
  // Copilot's agentStop names events.jsonl here (gate/HOOKS.md).
  CHECK(roots.Check("/home/u/.copilot/session-state/01HW/events.jsonl").ok());
  CHECK_FALSE(roots.Check("/home/u/.ssh/id_ed25519").ok());
  // Without a home, "~" roots cannot be placed and allow nothing.
  CHECK_FALSE(PathRoots(PathRoots::Defaults(""), "").Check("/.claude/projects/x.jsonl").ok());
}

TEST_CASE("home expansion", "[server][roots]") {
  CHECK(ExpandHome("~/x", "/h") == "/h/x");
  CHECK(ExpandHome("~", "/h") == "/h");
  CHECK(ExpandHome("~user/x", "/h") == "~user/x");
  CHECK(ExpandHome("/abs", "/h") == "/abs");
  CHECK(ExpandHome("~/x", "") == "~/x");
}

}  // namespace
}  // namespace causegate::server
