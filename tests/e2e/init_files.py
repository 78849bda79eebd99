#!/usr/bin/env python3
"""End-to-end: `causegate init` on real settings files, in a private HOME.

Covers every agent's file on: no file, an empty file, a file with other
hooks, a file with unusual formatting, a file that is not valid JSON and
one that cannot be read (the last two: exit 2, every file untouched, no
backup). Each is round-tripped through --uninstall and compared with the
original: byte for byte where the original was written in the layout
init writes (two-space JSON), as the same JSON document otherwise. Also:
idempotence, the backup, --dry-run, --scope project, detection of the
agents in use, and the registered Claude Code command really blocking.
"""
import argparse
import json
import os
import shutil
import stat
import subprocess
import sys

AGENTS = {  # agent -> (user settings path under HOME, events)
    "claude-code": (".claude/settings.json", ["Stop", "SubagentStop"]),
    "codex": (".codex/hooks.json", ["Stop"]),
    "gemini": (".gemini/settings.json", ["AfterAgent"]),
    "cursor": (".cursor/hooks.json", ["beforeSubmitPrompt", "beforeReadFile", "afterShellExecution",
                                      "afterMCPExecution", "afterFileEdit", "afterAgentResponse", "stop"]),
    "copilot": (".copilot/hooks/causegate.json", ["userPromptSubmitted", "postToolUse", "agentStop", "subagentStop"]),
}

OTHER_HOOKS = {
    "claude-code": {"model": "opus", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/bin/notify"}]}],
                                               "PreToolUse": [{"matcher": "Bash", "hooks": [
                                                   {"type": "command", "command": "audit.sh"}]}]}},
    "codex": {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}},
    "gemini": {"theme": "Default", "hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": "log.sh"}]}]}},
    "cursor": {"version": 1, "hooks": {"stop": [{"command": "./hooks/audit.sh"}]}},
    "copilot": {"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": "./notify.sh"}]}},
}


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
        os.makedirs(os.path.join(project, ".git"))  # its own git root: --scope project writes here
        return home, project

    def init(self, home, project, *args):
        env = dict(os.environ, HOME=home)
        return subprocess.run([self.binary, "init", "--binary", "/opt/cg/bin/causegate"] + list(args),
                              capture_output=True, text=True, env=env, cwd=project, timeout=30)

    def check(self, ok, what):
        if not ok:
            self.failures.append(what)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def ours(entry):
    text = json.dumps(entry)
    return "/opt/cg/bin/causegate" in text and "hook" in text


def registered_events(path, agent):
    doc = json.loads(read(path))
    found = []
    for event, entries in doc.get("hooks", {}).items():
        for entry in entries:
            handlers = entry.get("hooks", [entry]) if agent in ("claude-code", "codex", "gemini") else [entry]
            if any(ours(h) for h in handlers):
                found.append(event)
    return found


def round_trip(r, agent, original, exact):
    """Installs into a file holding `original`, checks, uninstalls, compares."""
    home, project = r.fresh()
    rel, events = AGENTS[agent]
    path = os.path.join(home, rel)
    if original is not None:
        write(path, original)
    label = "%s on %s" % (agent, "no file" if original is None else repr(original[:40]))
    p = r.init(home, project, "--agent", agent)
    r.check(p.returncode == 0, "%s: install exit %d: %s" % (label, p.returncode, p.stderr))
    r.check(sorted(registered_events(path, agent)) == sorted(events), "%s: events %s" % (label, registered_events(path, agent)))
    if original is not None:
        r.check(read(path + ".causegate-backup") == original, "%s: backup differs from the original" % label)
        if original.strip():
            before, after = json.loads(original), json.loads(read(path))
            for key in before:
                if key != "hooks":
                    r.check(after[key] == before[key], "%s: key %s changed" % (label, key))
            for event, entries in before.get("hooks", {}).items():
                r.check(after["hooks"][event][:len(entries)] == entries, "%s: other hooks on %s changed" % (label, event))
    installed = read(path)
    again = r.init(home, project, "--agent", agent)
    r.check(again.returncode == 0 and read(path) == installed and "nothing to change" in again.stdout,
            "%s: second install not idempotent: %s" % (label, again.stdout))
    p = r.init(home, project, "--agent", agent, "--uninstall")
    r.check(p.returncode == 0, "%s: uninstall exit %d: %s" % (label, p.returncode, p.stderr))
    if original is None:
        r.check(not os.path.exists(path), "%s: the file causegate created was not removed" % label)
    elif exact:
        r.check(read(path) == original, "%s: uninstall not byte-identical:\n%s" % (label, read(path)))
    else:
        r.check(json.loads(read(path) or "{}") == json.loads(original or "{}"),
                "%s: uninstall not the same document:\n%s" % (label, read(path)))
    if original is None:
        return "created, then removed"
    return "exact" if read(path) == original else "same document"


def refused(r, agent, content, make):
    home, project = r.fresh()
    rel, _ = AGENTS[agent]
    path = os.path.join(home, rel)
    make(path, content)
    # A second agent's valid file must not be touched either: init plans all first.
    other = os.path.join(home, ".gemini/settings.json") if agent != "gemini" else os.path.join(home, ".codex/hooks.json")
    write(other, "{}\n")
    before = os.stat(path).st_mtime_ns if os.path.isfile(path) else None
    p = r.init(home, project, "--agent", "all")
    label = "%s refused (%s)" % (agent, make.__name__)
    r.check(p.returncode == 2, "%s: exit %d, expected 2" % (label, p.returncode))
    r.check("No file was changed" in p.stderr and rel.split("/")[-1] in p.stderr, "%s: stderr %r" % (label, p.stderr))
    if before is not None:
        r.check(os.stat(path).st_mtime_ns == before and read(path) == content, "%s: file touched" % label)
    r.check(not os.path.exists(path + ".causegate-backup"), "%s: backup written" % label)
    r.check(read(other) == "{}\n", "%s: another agent's file changed" % label)


def invalid_json(path, content):
    write(path, content)


def a_folder(path, content):
    os.makedirs(path)


def no_permission(path, content):
    write(path, content)
    os.chmod(path, 0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    r = Runner(os.path.abspath(args.bin), args.work)
    results = {}

    for agent in AGENTS:
        results[(agent, "no file")] = round_trip(r, agent, None, exact=False)
        results[(agent, "empty file")] = round_trip(r, agent, "", exact=False)
        results[(agent, "other hooks, 2-space")] = round_trip(r, agent, json.dumps(OTHER_HOOKS[agent], indent=2) + "\n",
                                                             exact=True)
        results[(agent, "other hooks, 4-space, no final newline")] = round_trip(
            r, agent, json.dumps(OTHER_HOOKS[agent], indent=4), exact=True)
        odd = json.dumps(OTHER_HOOKS[agent], separators=(" ,", " :  ")).replace("{", "{ ", 2) + "\n\n"
        results[(agent, "unusual formatting")] = round_trip(r, agent, odd, exact=False)
        refused(r, agent, '{"hooks": {"Stop": [}', invalid_json)
        if agent != "gemini":  # Gemini CLI reads JSONC (tests/e2e/init_corpus.py)
            refused(r, agent, "// a comment\n{}\n", invalid_json)
        refused(r, agent, "", a_folder)
        if os.geteuid() != 0:  # root reads anything
            refused(r, agent, "{}", no_permission)

    # --dry-run: the diff, and nothing written.
    home, project = r.fresh()
    original = json.dumps(OTHER_HOOKS["claude-code"], indent=2) + "\n"
    path = os.path.join(home, AGENTS["claude-code"][0])
    write(path, original)
    p = r.init(home, project, "--agent", "claude-code", "--dry-run")
    r.check(p.returncode == 0 and read(path) == original and not os.path.exists(path + ".causegate-backup"),
            "dry-run wrote: %s" % p.stderr)
    r.check(("--- %s" % path) in p.stdout and '+            "command": "/opt/cg/bin/causegate",' in p.stdout
            and "would add Stop, SubagentStop" in p.stdout, "dry-run diff:\n%s" % p.stdout)

    # --scope project, and detection of the agents in use.
    home, project = r.fresh()
    p = r.init(home, project, "--agent", "copilot", "--scope", "project")
    r.check(p.returncode == 0 and os.path.isfile(os.path.join(project, ".github/hooks/causegate.json")),
            "project scope copilot: %s %s" % (p.stdout, p.stderr))
    os.makedirs(os.path.join(home, ".gemini"))
    os.makedirs(os.path.join(home, ".cursor"))
    p = r.init(home, project)
    changed = sorted(a for a in AGENTS if os.path.exists(os.path.join(home, AGENTS[a][0])))
    r.check(p.returncode == 0 and changed == ["cursor", "gemini"], "detected agents %s: %s" % (changed, p.stdout))

    # The registered Claude Code hook, run as Claude Code would run it, blocks.
    home, project = r.fresh()
    env = dict(os.environ, HOME=home)
    subprocess.run([r.binary, "init", "--agent", "claude-code"], env=env, cwd=project, capture_output=True, check=True)
    settings = json.loads(read(os.path.join(home, AGENTS["claude-code"][0])))
    handler = settings["hooks"]["Stop"][0]["hooks"][0]
    payload = json.loads(read(os.path.join(args.source, "examples/transcripts/export-blocked.payload.json")))
    payload["transcript_path"] = os.path.join(args.source, payload["transcript_path"])
    p = subprocess.run([handler["command"]] + handler["args"], input=json.dumps(payload), capture_output=True,
                       text=True, env=env, timeout=30)
    r.check(p.returncode == 0 and json.loads(p.stdout or "{}").get("decision") == "block",
            "registered command did not block: %r %r" % (p.stdout[:200], p.stderr[:200]))

    for (agent, case), how in sorted(results.items()):
        print("  %-12s %-40s round trip: %s" % (agent, case, how))
    print("init runs: %d folders, failures: %d" % (r.n, len(r.failures)))
    for f in r.failures:
        print("  FAIL " + f)
    return 1 if r.failures else 0


if __name__ == "__main__":
    sys.exit(main())
