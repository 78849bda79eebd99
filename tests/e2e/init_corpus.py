#!/usr/bin/env python3
"""End-to-end: `causegate init` respects the files it edits.

A corpus of settings files as people keep them (compact one-liners,
compact arrays in pretty files, tabs, CRLF, other hooks and flags,
Gemini CLI's JSONC with comments and trailing commas, a dotfile reached
through a symbolic link), for each agent init supports. For every file:

- the install diff is only added lines (a line may gain the comma that
  separates it from the new item, nothing else changes);
- a re-run changes nothing; uninstall gives the original bytes back;
- the backup holds the original, also after uninstall and a second install.

Also: flags added by hand survive a re-run and a new --binary; --args
registers and replaces them; comments in a strict agent's file are an error
with line and column; --scope project writes at the git root and registers
`causegate` on PATH, which runs from another folder and blocks.
"""
import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys

BIN = "/opt/cg/bin/causegate"

AGENTS = {  # agent -> user settings path under HOME
    "claude-code": ".claude/settings.json",
    "codex": ".codex/hooks.json",
    "gemini": ".gemini/settings.json",
    "cursor": ".cursor/hooks.json",
    "copilot": ".copilot/hooks/causegate.json",
}

CLAUDE_PRETTY = """{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "env": { "FOO": "bar", "DEBUG": "1" },
  "permissions": {
    "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],
    "deny": ["Bash(curl:*)"]
  },
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "~/bin/audit.sh" }] }
    ],
    "Stop": [{ "hooks": [{ "type": "command", "command": "notify-send 'done'" }] }]
  },
  "statusLine": { "type": "command", "command": "~/.claude/statusline.sh" }
}
"""

CORPUS = [  # (agent, name, text)
    ("claude-code", "pretty, compact arrays and objects, other hooks", CLAUDE_PRETTY),
    ("claude-code", "one line", '{"model":"opus","permissions":{"allow":["Bash(ls:*)","Read"],"deny":[]},"env":{"A":"1"}}'),
    ("claude-code", "CRLF, four spaces, no final newline",
     '{\r\n    "model": "sonnet",\r\n    "includeCoAuthoredBy": false\r\n}'),
    # An empty "hooks" that was there goes with the last hook on uninstall.
    ("claude-code", "hooks object empty", '{\n  "model": "opus",\n  "hooks": {}\n}\n'),
    ("codex", "other Stop hook, 4 spaces", """{
    "hooks": {
        "Stop": [
            {
                "hooks": [
                    { "type": "command", "command": "notify-send codex-done", "timeout": 5 }
                ]
            }
        ]
    }
}
"""),
    ("codex", "one line", '{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"echo hi"}]}]}}\n'),
    ("gemini", "JSONC: comments and trailing commas", """// Gemini CLI settings, kept in dotfiles
{
  "theme": "GitHub", // dark at night
  "general": {
    "vimMode": true,
  },
  /* the team's hooks */
  "hooks": {
    "AfterAgent": [
      {"matcher": "*", "hooks": [{"type": "command", "command": "~/bin/log-turn.sh", "name": "log"}]},
    ],
  },
}
"""),
    ("gemini", "JSONC: commented-out key, no hooks", """{
  "theme": "Default",
  // "sandbox": true,
  "mcpServers": { "github": { "command": "gh-mcp", "args": ["--stdio"] } }
}
"""),
    ("cursor", "one line with another hook", '{"version":1,"hooks":{"afterFileEdit":[{"command":"./hooks/format.sh"}]}}'),
    ("cursor", "tabs", '{\n\t"version": 1,\n\t"hooks": {\n\t\t"stop": [\n\t\t\t{ "command": "./hooks/audit.sh" }\n\t\t]\n\t}\n}\n'),
    ("copilot", "another agentStop hook", """{
  "version": 1,
  "hooks": {
    "agentStop": [{ "type": "command", "bash": "./notify.sh", "timeoutSec": 10 }]
  }
}
"""),
]


class Runner:
    def __init__(self, binary, root):
        self.binary = binary
        self.root = root
        self.failures = []
        self.n = 0

    def fresh(self):
        self.n += 1
        home = os.path.join(self.root, "home%d" % self.n)
        project = os.path.join(self.root, "project%d" % self.n)
        os.makedirs(home)
        os.makedirs(os.path.join(project, ".git"))
        return home, project

    def init(self, home, cwd, *args, binary=BIN, env=None):
        env = dict(env or os.environ, HOME=home)
        argv = [self.binary, "init"] + (["--binary", binary] if binary else []) + list(args)
        return subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=30)

    def check(self, ok, what):
        if not ok:
            self.failures.append(what)
        return ok


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def read(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def subsequence(short, long):
    it = iter(long)
    return all(c in it for c in short)


def only_added(before, after):
    """The number of lines of before that gained bytes (a comma, or new items
    inside a container written on one line) when after is before with bytes
    added only, each old line keeping its indentation; else what changed."""
    if not subsequence(before, after):
        return "bytes of the original are gone"
    a = before.splitlines(keepends=True)
    b = after.splitlines(keepends=True)
    grown = 0
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op in ("equal", "insert"):
            continue
        if op == "delete":
            return "lines removed: %r" % a[i1:i2]
        # Lines that grew: the old ones' bytes all there, in order, and the
        # first keeps its indentation (a re-indented file fails here).
        old, new = a[i1:i2], b[j1:j2]
        indent = old[0][:len(old[0]) - len(old[0].lstrip())]
        if not subsequence("".join(old), "".join(new)) or not new[0].startswith(indent) \
                or new[0][len(indent):len(indent) + 1].isspace():
            return "lines changed: %r" % old
        grown += len(old)
    return grown


def strip_jsonc(text):
    text = re.sub(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', lambda m: m.group(1) or "", text, flags=re.S)
    return re.sub(r",(\s*[}\]])", r"\1", text)


def ours_in(text, agent):
    doc = json.loads(strip_jsonc(text))
    found = []
    for event, entries in doc.get("hooks", {}).items():
        for entry in entries:
            for h in entry.get("hooks", [entry]) if "hooks" in entry else [entry]:
                line = json.dumps(h)
                if "causegate" in line and "hook" in line:
                    found.append((event, h))
    return found


def corpus_case(r, agent, name, text):
    label = "%s, %s" % (agent, name)
    home, project = r.fresh()
    path = os.path.join(home, AGENTS[agent])
    write(path, text)
    p = r.init(home, project, "--agent", agent)
    if not r.check(p.returncode == 0, "%s: install exit %d: %s" % (label, p.returncode, p.stderr)):
        return None
    after = read(path)
    commas = only_added(text, after)
    r.check(isinstance(commas, int), "%s: %s\n%s" % (label, commas, after))
    r.check(len(ours_in(after, agent)) > 0, "%s: no causegate entry after install" % label)
    for comment in re.findall(r"//[^\n]*|/\*.*?\*/", text, flags=re.S):
        r.check(comment in after, "%s: comment lost: %r" % (label, comment))
    r.check(read(path + ".causegate-backup") == text, "%s: backup is not the original" % label)
    again = r.init(home, project, "--agent", agent)
    r.check(again.returncode == 0 and read(path) == after and "nothing to change" in again.stdout,
            "%s: re-run changed the file: %s" % (label, again.stdout))
    p = r.init(home, project, "--agent", agent, "--uninstall")
    expect = text.replace(',\n  "hooks": {}', "") if name == "hooks object empty" else text
    r.check(p.returncode == 0 and read(path) == expect, "%s: uninstall not byte for byte:\n%r" % (label, read(path)))
    p = r.init(home, project, "--agent", agent)
    r.check(read(path + ".causegate-backup") == text, "%s: backup overwritten by a second install" % label)
    added = len(after.splitlines()) - len(text.splitlines())
    return "+%d lines, %s line(s) grew" % (added, commas if isinstance(commas, int) else "?")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    args.source = os.path.abspath(args.source)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    r = Runner(os.path.abspath(args.bin), args.work)
    results = []

    for agent, name, text in CORPUS:
        results.append(("%s, %s" % (agent, name), corpus_case(r, agent, name, text)))

    # A dotfile reached through a symbolic link: the link stays, its target is edited.
    home, project = r.fresh()
    target = os.path.join(home, "dotfiles/claude/settings.json")
    write(target, CLAUDE_PRETTY)
    link = os.path.join(home, AGENTS["claude-code"])
    os.makedirs(os.path.dirname(link))
    os.symlink("../dotfiles/claude/settings.json", link)
    p = r.init(home, project, "--agent", "claude-code")
    r.check(p.returncode == 0 and os.path.islink(link), "symlink: the link was replaced: %s" % p.stderr)
    r.check(len(ours_in(read(target), "claude-code")) == 2 and isinstance(only_added(CLAUDE_PRETTY, read(target)), int),
            "symlink: target not edited as expected:\n%s" % read(target))
    r.check("through the link to %s" % os.path.realpath(target) in p.stdout, "symlink: not said: %s" % p.stdout)
    r.check(read(link + ".causegate-backup") == CLAUDE_PRETTY, "symlink: backup")
    p = r.init(home, project, "--agent", "claude-code", "--uninstall")
    r.check(os.path.islink(link) and read(target) == CLAUDE_PRETTY, "symlink: uninstall")
    results.append(("claude-code, symbolic link to a dotfile", "link kept, target edited, uninstall exact"))

    # Flags added by hand survive; --args registers and replaces them.
    for agent in ("claude-code", "codex"):
        home, project = r.fresh()
        path = os.path.join(home, AGENTS[agent])
        r.init(home, project, "--agent", agent)
        text = read(path)
        if agent == "claude-code":
            hand = text.replace('"claude-code"]', '"claude-code", "--server", "http://127.0.0.1:8787"]')
        else:
            hand = text.replace("hook --agent codex", "hook --agent codex --server http://127.0.0.1:8787")
        r.check(hand != text, "%s: could not add the flag by hand" % agent)
        write(path, hand)
        p = r.init(home, project, "--agent", agent)
        r.check(read(path) == hand and "nothing to change" in p.stdout, "%s: re-run dropped a hand flag: %s" % (agent, p.stdout))
        p = r.init(home, project, "--agent", agent, binary="/usr/local/bin/causegate")
        now = read(path)
        r.check("/usr/local/bin/causegate" in now and "http://127.0.0.1:8787" in now and BIN not in now,
                "%s: a new --binary lost the hand flag:\n%s" % (agent, now))
        p = r.init(home, project, "--agent", agent, "--args", "--max-blocks 1 --guess-fix 'block'")
        now = read(path)
        words = [w for _, h in ours_in(now, agent) for w in (h.get("args") or h["command"].split())]
        r.check("--max-blocks" in words and "block" in words and "http://127.0.0.1:8787" not in now,
                "%s: --args not registered: %s\n%s" % (agent, p.stderr, now))
        p = r.init(home, project, "--agent", agent, "--args", "")
        r.check("--max-blocks" not in read(path), "%s: --args \"\" did not clear" % agent)
        if agent == "claude-code":  # the registered command really runs with its extra flags
            h = ours_in(read(path), agent)[0][1]
            r.check(h["args"] == ["hook", "--agent", "claude-code"], "claude-code: args %r" % h["args"])
    results.append(("claude-code, codex: flags by hand, --args", "kept on re-run and new --binary; replaced by --args"))

    # A strict agent's file with a comment or a trailing comma: exit 2, line and column, nothing written.
    for agent, text, where in (("claude-code", '{\n  "model": "opus",\n}\n', "line 2, column 18: a trailing comma"),
                               ("codex", '{\n  // mine\n  "hooks": {}\n}\n', "line 2, column 3: a comment")):
        home, project = r.fresh()
        path = os.path.join(home, AGENTS[agent])
        write(path, text)
        p = r.init(home, project, "--agent", agent)
        r.check(p.returncode == 2 and where in p.stderr and read(path) == text
                and not os.path.exists(path + ".causegate-backup"),
                "%s: JSONC refused: rc %d %r" % (agent, p.returncode, p.stderr))
    results.append(("claude-code, codex: comment / trailing comma", "exit 2 with line and column"))

    # --scope project from deep inside a repository: the git root, `causegate` on PATH.
    home, project = r.fresh()
    deep = os.path.join(project, "src", "deep")
    os.makedirs(deep)
    bindir = os.path.dirname(r.binary)
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    p = r.init(home, deep, "--agent", "claude-code", "--scope", "project", binary=None, env=env)
    settings = os.path.join(project, ".claude/settings.json")
    r.check(p.returncode == 0 and os.path.isfile(settings) and not os.path.exists(os.path.join(deep, ".claude")),
            "project scope: not at the git root: %s %s" % (p.stdout, p.stderr))
    r.check("warning" not in p.stderr, "project scope: warned with causegate on PATH: %s" % p.stderr)
    handler = json.loads(read(settings))["hooks"]["Stop"][0]["hooks"][0]
    r.check(handler["command"] == "causegate", "project scope: command %r" % handler["command"])
    payload = json.loads(read(os.path.join(args.source, "examples/transcripts/export-blocked.payload.json")))
    payload["transcript_path"] = os.path.join(args.source, payload["transcript_path"])
    run = subprocess.run([handler["command"]] + handler["args"], input=json.dumps(payload), capture_output=True,
                         text=True, env=dict(env, HOME=home), cwd=args.work, timeout=30)
    r.check(run.returncode == 0 and json.loads(run.stdout or "{}").get("decision") == "block",
            "project scope: the registered command did not block: %r %r" % (run.stdout[:200], run.stderr[:200]))
    bare = dict(os.environ, PATH="/usr/bin:/bin")
    p = r.init(home, deep, "--agent", "codex", "--scope", "project", binary=None, env=bare)
    r.check(p.returncode == 0 and "causegate is not on PATH here" in p.stderr, "project scope: no PATH warning: %s" % p.stderr)
    p = r.init(home, deep, "--agent", "claude-code", "--scope", "project", "--uninstall", binary=None, env=env)
    p = r.init(home, deep, "--agent", "codex", "--scope", "project", "--uninstall", binary=None, env=bare)
    left = sorted(n for n in os.listdir(project) if n != "src")
    r.check(left == [".git"], "project scope: uninstall left %r" % left)
    results.append(("--scope project from src/deep", "git root, `causegate` on PATH, blocks; uninstall leaves no folder"))

    for name, how in results:
        print("  %-62s %s" % (name, how))
    print("init corpus: %d files and scenarios, %d folders, failures: %d" % (len(results), r.n, len(r.failures)))
    for f in r.failures:
        print("  FAIL " + f)
    return 1 if r.failures else 0


if __name__ == "__main__":
    sys.exit(main())
