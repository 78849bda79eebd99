#!/usr/bin/env python3
"""End-to-end: a let-through warning reaches the user of a headless agent.

`codex exec`, `claude -p` and `copilot -p` show their user nothing of a
hook's answer or stderr (tests/agents runs the real ones). The hook then
writes the warning on the agent's own stderr (hook/agent_console.h). Here
a stand-in agent, a script named like the agent, runs `causegate hook`
with its stderr on a pipe of its own and its own stderr on a file: the
warning must land in that file when the stand-in runs headless, and
nowhere but the hook's answer when it runs interactively or is no agent.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    args = parser.parse_args()
    checks = Checks()
    with tempfile.TemporaryDirectory() as work:
        payload_path = os.path.join(work, "input.json")
        with open(payload_path, "w") as f:
            f.write(transcript(os.path.join(work, "t.jsonl"), "The job crashed because the disk is full."))
        for name, agent_args, headless in RUNS:
            stand_in = os.path.join(work, name)
            with open(stand_in, "w") as f:
                f.write(STAND_IN.format(python=sys.executable, binary=os.path.abspath(args.bin)))
            os.chmod(stand_in, 0o755)
            err_path = os.path.join(work, name + ".stderr")
            with open(err_path, "w") as err:
                out = subprocess.run([stand_in, *agent_args, payload_path], stdout=subprocess.PIPE, stderr=err,
                                     timeout=60)
            with open(err_path) as f:
                agent_stderr = f.read()
            what = f"{name} {' '.join(agent_args)}"
            answer = json.loads(out.stdout or b"{}")
            checks.check("let through unproven" in answer.get("systemMessage", ""),
                         f"{what}: the hook's answer carries the let-through ({out.stdout[:200]!r})")
            if headless:
                checks.check(agent_stderr.count("let through unproven") == 1,
                             f"{what}: the warning is on the agent's stderr once ({agent_stderr!r})")
            else:
                checks.check(agent_stderr == "", f"{what}: nothing written to the agent's stderr ({agent_stderr!r})")
    print(f"hook_agent_console: {checks.count - len(checks.failures)} of {checks.count} checks passed")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    sys.exit(main())
