#!/usr/bin/env python3
"""End-to-end: the user's config files through the real binary, as Claude
Code calls `causegate hook` (hook input on stdin, a real transcript file),
with HOME and XDG_CONFIG_HOME in a temp folder:

- a rule switched "off" stops a block; "warn" gives a systemMessage, no block;
  the sentence-shape model's rules too;
- mode "off" allows (and says so at CAUSEGATE_LOG=debug), mode "warn" warns;
  `hook --mode` does the same without a file and wins over one;
- the project file overrides the user file; a flag overrides both;
- with a config file, `hook --server` judges locally (the daemon reads none);
- a config file the agent edited in the turn is ignored for that turn;
- the user's #causegate-skip lets one turn through, with a stderr line;
- a broken config file is reported with line:column and ignored;
- `causegate check` in the project folder: "exclude" and a rule switched off;
- `causegate config show` prints each value's source, exits 2 on a broken file.

Self-contained (writes its own sessions).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

SESSION = "3b7e2a10-9c4d-4e8f-a1b2-c3d4e5f60718"
DMESG = "[Mon Dec  1 02:14:07 2026] Out of memory: Killed process 48121 (python) total-vm:297716424kB"
CLAIM = "The run died because the node ran out of host memory."
CLAIM_RULE = "en.claim.because"
# A cause stated as a mechanism with no cue of the packs: only the
# sentence-shape model takes it for a claim (rules/shape_backstop.h). If a
# refit of rules/scorer/shape_weights.tsv stops taking it, "shape model:
# blocks" below says so; pick another such sentence with `causegate explain`.
MECHANISM = "The retry loop has no backoff, so every client hammers the API at once after the outage."


def transcript(path, cwd, prompt, calls, final=CLAIM):
    """A Claude Code transcript: the prompt, tool calls, the final claim."""
    lines, parent = [], None

    def add(obj):
        nonlocal parent
        uid = "00000000-0000-4000-9000-%012d" % (len(lines) + 1)
        base = {"parentUuid": parent, "isSidechain": False, "userType": "external", "cwd": cwd,
                "sessionId": SESSION, "version": "2.1.63", "uuid": uid,
                "timestamp": "2026-12-01T10:00:%02d.000Z" % len(lines)}
        base.update(obj)
        lines.append(base)
        parent = uid

    def assistant(block):
        add({"type": "assistant", "message": {"model": "claude-opus-4-6", "id": "msg_%d" % len(lines),
                                              "type": "message", "role": "assistant", "content": [block]}})

    add({"type": "user", "message": {"role": "user", "content": prompt}})
    for name, inp, output in calls:
        tool_id = "toolu_%02d" % len(lines)
        assistant({"type": "tool_use", "id": tool_id, "name": name, "input": inp})
        add({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tool_id, "content": output, "is_error": False}]}})
    assistant({"type": "text", "text": final})
    with open(path, "w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    return {"session_id": SESSION, "transcript_path": path, "cwd": cwd, "hook_event_name": "Stop",
            "stop_hook_active": False, "last_assistant_message": final}


def write_json(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text if isinstance(text, str) else json.dumps(text, indent=2))


class Env:
    def __init__(self, work):
        self.home = os.path.join(work, "home")
        self.xdg = os.path.join(work, "xdg")
        self.project = os.path.join(work, "project")
        self.user_file = os.path.join(self.xdg, "causegate", "config.json")
        self.project_file = os.path.join(self.project, ".causegate.json")
        os.makedirs(os.path.join(self.project, ".git"), exist_ok=True)
        os.makedirs(self.home, exist_ok=True)

    def reset(self, user=None, project=None):
        for path, value in ((self.user_file, user), (self.project_file, project)):
            if os.path.exists(path):
                os.remove(path)
            if value is not None:
                write_json(path, value)

    def vars(self, **extra):
        env = dict(os.environ, HOME=self.home, XDG_CONFIG_HOME=self.xdg)
        env.pop("CAUSEGATE_LOG", None)
        env.update(extra)
        return env


def hook(binary, env, payload, *flags, log=None):
    extra = {"CAUSEGATE_LOG": log} if log else {}
    p = subprocess.run([binary, "hook", *flags], input=json.dumps(payload).encode(), capture_output=True,
                       timeout=30, env=env.vars(**extra), cwd=env.project)
    if p.returncode != 0:
        raise AssertionError("hook exited %d: %s" % (p.returncode, p.stderr.decode()[:300]))
    out = p.stdout.decode().strip()
    return (json.loads(out) if out else {}), p.stderr.decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    args.bin = os.path.abspath(args.bin)  # the hook runs in the project folder
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    env = Env(args.work)
    failures = []
    probe = [("Bash", {"command": "dmesg -T | tail -20"}, DMESG)]
    plain = transcript(os.path.join(args.work, "plain.jsonl"), env.project, "Why did the run die?", probe)

    def expect(name, answer, stderr, decision="allow", message=None, stderr_has=(), no_output=False,
               stderr_lacks=()):
        got = answer.get("decision", "allow")
        if got != decision:
            failures.append("%s: decision %s, expected %s (%r)\n%s" % (name, got, decision, answer, stderr))
        if message is not None and message not in answer.get("systemMessage", ""):
            failures.append("%s: systemMessage lacks %r: %r" % (name, message, answer))
        if no_output and answer:
            failures.append("%s: expected no answer, got %r" % (name, answer))
        for s in stderr_has:
            if s not in stderr:
                failures.append("%s: stderr lacks %r:\n%s" % (name, s, stderr))
        for s in stderr_lacks:
            if s in stderr:
                failures.append("%s: stderr has %r:\n%s" % (name, s, stderr))

    env.reset()
    expect("no config: blocks", *hook(args.bin, env, plain), decision="block")

    env.reset(user={"rules": {CLAIM_RULE: "off"}})
    expect("rule off", *hook(args.bin, env, plain), no_output=True)
    env.reset(user={"rules": {"en.claim.becau*": "off"}})
    expect("rule off by glob", *hook(args.bin, env, plain), no_output=True)

    # The daemon reads no config: with a file, --server judges locally.
    expect("rule off with --server", *hook(args.bin, env, plain, "--server", "http://127.0.0.1:9"),
           no_output=True, stderr_lacks=("judging locally",))
    env.reset()
    expect("no config, --server down: judged locally", *hook(args.bin, env, plain, "--server", "http://127.0.0.1:9"),
           decision="block", stderr_has=("judging locally",))

    env.reset(user={"rules": {CLAIM_RULE: "warn", "en.claim.no-such-rule": "off"}})
    expect("rule warn", *hook(args.bin, env, plain), message='"%s" is set to "warn"' % CLAIM_RULE,
           stderr_has=("config:", '"en.claim.no-such-rule" matches no rule', env.user_file))

    # The shape model's claims answer to its rules like any rule's.
    mechanism = transcript(os.path.join(args.work, "mechanism.jsonl"), env.project, "Why did the API go down?",
                           probe, final=MECHANISM)
    env.reset()
    expect("shape model: blocks", *hook(args.bin, env, mechanism), decision="block")
    env.reset(user={"rules": {"*.feature.shape-model": "off"}})
    expect("shape model off by glob", *hook(args.bin, env, mechanism), no_output=True)
    env.reset(user={"rules": {"en.feature.shape-model": "warn"}})
    expect("shape model warn", *hook(args.bin, env, mechanism), message='"en.feature.shape-model" is set to "warn"')

    env.reset(user={"mode": "off"})
    expect("mode off", *hook(args.bin, env, plain), no_output=True)
    expect("mode off, debug", *hook(args.bin, env, plain, log="debug"), no_output=True,
           stderr_has=('mode "off"',))
    env.reset(user={"mode": "warn"})
    expect("mode warn", *hook(args.bin, env, plain), message="would have been sent back",
           stderr_has=("config:",))

    expect("--mode block wins over the config's mode", *hook(args.bin, env, plain, "--mode", "block"),
           decision="block")
    env.reset()
    expect("--mode warn, no config file", *hook(args.bin, env, plain, "--mode", "warn"),
           message="would have been sent back")
    expect("--mode off, no config file", *hook(args.bin, env, plain, "--mode", "off"), no_output=True)
    expect("--mode off with --server: judged locally", *hook(args.bin, env, plain, "--mode", "off", "--server",
                                                               "http://127.0.0.1:9"), no_output=True,
           stderr_lacks=("judging locally",))

    env.reset(user={"mode": "off"}, project={"mode": "block"})
    expect("project overrides user", *hook(args.bin, env, plain), decision="block")
    env.reset(project={"max_blocks": 0})
    expect("config max_blocks 0", *hook(args.bin, env, plain), message="let through unproven")
    expect("flag wins over config", *hook(args.bin, env, plain, "--max-blocks", "2"), decision="block")

    env.reset(project={"mode": "off"})
    edited = transcript(os.path.join(args.work, "edited.jsonl"), env.project, "Why did the run die?",
                        probe + [("Write", {"file_path": env.project_file, "content": '{"mode": "off"}'}, "ok")])
    expect("config the agent wrote is ignored", *hook(args.bin, env, edited), decision="block",
           stderr_has=("ignored for this turn", env.project_file))
    shelled = transcript(os.path.join(args.work, "shelled.jsonl"), env.project, "Why did the run die?",
                         probe + [("Bash", {"command": "echo '{\"mode\":\"off\"}' > .causegate.json"}, "")])
    expect("config the agent's shell wrote is ignored", *hook(args.bin, env, shelled), decision="block",
           stderr_has=("ignored for this turn",))

    env.reset()
    skipped = transcript(os.path.join(args.work, "skipped.jsonl"), env.project,
                         "Why did the run die? #causegate-skip", probe)
    expect("skip token", *hook(args.bin, env, skipped), no_output=True, stderr_has=("#causegate-skip",))
    sub = dict(skipped, hook_event_name="SubagentStop", agent_id="a1b2c3", agent_transcript_path=skipped["transcript_path"])
    expect("skip token in a subagent's task prompt counts not", *hook(args.bin, env, sub), decision="block")

    env.reset(user={"mode": "warn"}, project='{\n  "mode": "off",\n  "colour": "blue"\n}\n')
    expect("broken project file ignored, user file kept", *hook(args.bin, env, plain),
           message="would have been sent back", stderr_has=(env.project_file + ":3:3: unknown key",))
    env.reset(project='{\n  "mode": "off",\n}\n')
    expect("invalid JSON ignored", *hook(args.bin, env, plain), decision="block",
           stderr_has=(env.project_file + ":3:1: not valid JSON",))

    # check, run in the project: its files' exclude globs and rules.
    os.makedirs(os.path.join(env.project, "scratch"), exist_ok=True)
    shutil.copy(plain["transcript_path"], os.path.join(env.project, "scratch", "plain.jsonl"))

    def check(name, expected):
        p = subprocess.run([args.bin, "check", "."], capture_output=True, text=True, env=env.vars(), cwd=env.project)
        if p.returncode != expected:
            failures.append("check, %s: exit %d, expected %d: %s" % (name, p.returncode, expected, p.stderr[-300:]))

    env.reset()
    check("no config: flagged", 1)
    env.reset(project={"exclude": ["*/scratch/*"]})
    check("scratch excluded by its absolute path", 0)
    env.reset(project={"exclude": ["scratch/*.jsonl"]})
    check("scratch excluded by the path as found", 0)
    env.reset(project={"rules": {CLAIM_RULE: "off"}})
    check("rule off", 0)

    # config show: sources, and exit 2 on a broken file.
    env.reset(user={"mode": "warn", "max_blocks": 3}, project={"mode": "block", "rules": {CLAIM_RULE: "warn"}})
    p = subprocess.run([args.bin, "config", "show"], capture_output=True, text=True, env=env.vars(), cwd=env.project)
    if p.returncode != 0:
        failures.append("config show: exit %d: %s" % (p.returncode, p.stderr))
    else:
        shown = json.loads(p.stdout)
        if shown["mode"] != {"value": "block", "from": env.project_file}:
            failures.append("config show: mode %r" % shown["mode"])
        if shown["max_blocks"] != {"value": 3, "from": env.user_file}:
            failures.append("config show: max_blocks %r" % shown["max_blocks"])
        if shown["guess_fix"]["from"] != "default":
            failures.append("config show: guess_fix %r" % shown["guess_fix"])
        if not shown["rules"].get(CLAIM_RULE, {}).get("from", "").startswith(env.project_file + ":"):
            failures.append("config show: rules %r" % shown["rules"])
    env.reset(project="{ nope")
    p = subprocess.run([args.bin, "config", "show"], capture_output=True, text=True, env=env.vars(), cwd=env.project)
    if p.returncode != 2 or env.project_file + ":1:4: not valid JSON" not in p.stderr:
        failures.append("config show, broken file: exit %d, stderr %r" % (p.returncode, p.stderr))

    for f in failures:
        print("FAIL " + f)
    print("config files: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
