#!/usr/bin/env python3
"""End-to-end: what `causegate explain` shows a person (issue 16, item 6).

- Under a blocked claim, the lines of the turn's tool output nearest to it:
  the journal line the agent saw and did not quote.
- Lines wrapped at word boundaries to the terminal's width ($COLUMNS), no
  word cut; the reason the agent gets is printed as the agent gets it.
- A Claude Code subagent's own file (agent-*.jsonl) is read as one without
  --subagent, as check does.

Runs on the bundled example transcript; writes its subagent copy in --work.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

FAILURES = []


def check(cond, what):
    print(("  ok   " if cond else "  FAIL ") + what)
    if not cond:
        FAILURES.append(what)


def explain(binary, path, columns, *extra):
    env = dict(os.environ, COLUMNS=str(columns), NO_COLOR="1")
    p = subprocess.run([binary, "explain", path] + list(extra), capture_output=True, env=env, timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    blocked = os.path.join(args.source, "examples", "transcripts", "export-blocked.jsonl")

    code, out, err = explain(args.bin, blocked, 72)
    check(code == 1, "the example is blocked (exit 1, got %d: %s)" % (code, err[:200]))
    view, _, reason = out.partition("reason the agent gets:")
    check("tool output it did not quote, nearest lines:" in view, "nearest lines are shown under the claim")
    check("No space left on device" in " ".join(view.split("claims:", 1)[-1].split()),
          "the journal's ENOSPC line is among them")
    wide = [l for l in view.splitlines() if len(l) > 72 and " " in l.strip()]
    check(not wide, "every line with a space to break at fits 72 columns (%r)" % wide[:2])
    check("- \"The export failed because the log rotation job deleted the staging folder while part 14 was "
          "being written.\"" in reason, "the reason the agent gets is not wrapped")
    _, unwrapped, _ = explain(args.bin, blocked, 10000)
    check(unwrapped.split() == out.split(), "wrapping only moves line breaks: no word is cut or lost")

    # The same session as a subagent's own file.
    sub = os.path.join(args.work, "agent-a1b2c3d4.jsonl")
    with open(blocked, encoding="utf-8") as f, open(sub, "w", encoding="utf-8") as o:
        for line in f:
            if line.strip():
                rec = json.loads(line)
                rec.update({"isSidechain": True, "agentId": "a1b2c3d4"})
                o.write(json.dumps(rec) + "\n")
    code, out, err = explain(args.bin, sub, 100)
    check(code == 1 and "prompt: \"the nightly export job failed again" in out,
          "a subagent file is read as one without --subagent (got %d: %s)" % (code, (err or out)[:200]))

    print("%d failed" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
