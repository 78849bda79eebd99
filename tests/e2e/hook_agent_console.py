#!/usr/bin/env python3
"""End-to-end: a let-through warning reaches the user of a headless agent.

`codex exec`, `claude -p` and `copilot -p` show their user nothing of a
hook's answer or stderr (tests/agents runs the real ones). The hook then
writes the warning on the agent's own stderr (hook/agent_console.h). Here
a stand-in agent, a script named like the agent, runs `causegate hook`
with its stderr on a pipe of its own and its own stderr on a file: the
warning must land in that file when the stand-in runs headless, and
nowhere but the hook's answer when it runs interactively or is no agent.
The same again through the resident gate (gate/HOOKS.md): causegate-hook
against a warm daemon, which writes the warning for its client, every stop
the daemon's.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_util import Checks, transcript  # noqa: E402

STAND_IN = r'''#!{python}
import subprocess, sys
payload = open(sys.argv[-1], "rb").read()
hook = subprocess.run([{binary!r}, "hook", "--max-blocks", "0"], input=payload,
                      stdout=subprocess.PIPE, stderr=subprocess.PIPE)
sys.stdout.buffer.write(hook.stdout)
'''

# (name of the stand-in, its arguments, whether its user must get the warning)
RUNS = [
    ("codex", ["exec", "--json"], True),
    ("codex", ["resume"], False),          # the TUI draws its own screen
    ("claude", ["-p", "why?"], True),
    ("claude", ["--continue"], False),
    ("copilot", ["--prompt", "why?"], True),
    ("some-other-tool", ["-p"], False),    # not an agent: stderr is left alone
]


def served(binary, env):
    p = subprocess.run([binary, "status"], capture_output=True, text=True, env=env)
    m = re.search(r"(\d+) verdicts served", p.stdout)
    return int(m.group(1)) if m else -1


def resident_env(binary, work, payload_path):
    """An environment with the resident gate on and its daemon warm, or None."""
    home, runtime = os.path.join(work, "home"), os.path.join(work, "run")
    os.makedirs(os.path.join(home, ".config", "causegate"))
    os.makedirs(runtime, mode=0o700)
    with open(os.path.join(home, ".config", "causegate", "config.json"), "w") as f:
        json.dump({"resident": True}, f)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CAUSEGATE_", "XDG_"))}
    env.update(HOME=home, XDG_RUNTIME_DIR=runtime)
    subprocess.run([binary, "hook"], stdin=open(payload_path, "rb"), capture_output=True, env=env)
    deadline = time.time() + 20
    while served(binary, env) < 0:
        if time.time() > deadline:
            return None
        time.sleep(0.05)
    return env


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    checks = Checks()
    binary = os.path.abspath(args.bin)
    client = os.path.join(os.path.dirname(binary), "causegate-hook")
    if not os.access(client, os.X_OK):
        client = binary
    with tempfile.TemporaryDirectory() as work:
        payload_path = os.path.join(work, "input.json")
        with open(payload_path, "w") as f:
            f.write(transcript(os.path.join(work, "t.jsonl"), "The job crashed because the disk is full."))
        env = resident_env(binary, os.path.join(work, "resident"), payload_path)
        checks.check(env is not None, "resident: a daemon runs")
        try:
            run_all(checks, work, binary, payload_path, None, None)
            if env is not None:
                run_all(checks, work, client, payload_path, env, binary)
        finally:
            if env is not None:
                subprocess.run([binary, "status", "--stop"], capture_output=True, env=env)
    print(f"hook_agent_console: {checks.count - len(checks.failures)} of {checks.count} checks passed")
    return 1 if checks.failures else 0


def run_all(checks, work, hook_binary, payload_path, env, binary):
    """Every stand-in; env set: through the resident daemon (binary asks it for its count)."""
    for name, agent_args, headless in RUNS:
        stand_in = os.path.join(work, name)
        with open(stand_in, "w") as f:
            f.write(STAND_IN.format(python=sys.executable, binary=hook_binary))
        os.chmod(stand_in, 0o755)
        err_path = os.path.join(work, name + ".stderr")
        before = served(binary, env) if env is not None else 0
        with open(err_path, "w") as err:
            out = subprocess.run([stand_in, *agent_args, payload_path], stdout=subprocess.PIPE, stderr=err,
                                 timeout=60, env=env)
        if env is not None:
            checks.check(served(binary, env) == before + 1, f"resident {name}: the daemon judged the stop")
        with open(err_path) as f:
            agent_stderr = f.read()
        what = f"{'resident ' if env is not None else ''}{name} {' '.join(agent_args)}"
        answer = json.loads(out.stdout or b"{}")
        checks.check("let through unproven" in answer.get("systemMessage", ""),
                     f"{what}: the hook's answer carries the let-through ({out.stdout[:200]!r})")
        if headless:
            checks.check(agent_stderr.count("let through unproven") == 1,
                         f"{what}: the warning is on the agent's stderr once ({agent_stderr!r})")
        else:
            checks.check(agent_stderr == "", f"{what}: nothing written to the agent's stderr ({agent_stderr!r})")


if __name__ == "__main__":
    sys.exit(main())
