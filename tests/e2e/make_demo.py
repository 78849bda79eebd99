#!/usr/bin/env python3
"""Runs `make demo` (the README's first command) against this build and
checks it shows one blocked and one allowed turn, each with its reason."""
import argparse
import re
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--source", required=True)
ap.add_argument("--build", required=True)
args = ap.parse_args()
p = subprocess.run(["make", "-C", args.source, "demo", "BUILD=" + args.build],
                   capture_output=True, text=True, timeout=580)
print(p.stdout[-4000:])
checks = {
    "exit status 0": p.returncode == 0,
    "a blocked turn": "decision: block" in p.stdout,
    "an allowed turn": "the stop is allowed" in p.stdout,
    "the reason names the finding": "finding: no-citation" in p.stdout,
    "the Chinese reason": "判定: no-citation" in p.stdout,
    "explain shows the citation": "found in tool-output" in p.stdout,
    # The scorer's reading: each scored sentence with its score and the
    # features that decided, with their weights.
    "explain shows the scorer's features": re.search(r"claim, score [+-]\d+\.\d\d", p.stdout) is not None
        and re.search(r"bias [+-]\d+\.\d\d, cue:claim\.\S+ [+-]\d+\.\d\d", p.stdout) is not None,
}
bad = [k for k, ok in checks.items() if not ok]
if bad:
    print("make demo is missing: " + ", ".join(bad))
    print(p.stderr[-2000:], file=sys.stderr)
    sys.exit(1)
print("make demo: all %d checks pass" % len(checks))
