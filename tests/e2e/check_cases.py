#!/usr/bin/env python3
"""End-to-end: `causegate check` gives every labelled case's last turn the
decision the live hook gives it. The cases in ../shared/cases are rendered
as real sessions (../shared/tools/casegen.py); the hook judges each
payload.json on stdin, exactly as Claude Code calls it, and `check` judges
the same transcripts from disk with every turn (SubagentStop cases: the
subagent's own file). Any difference fails.

Exits 77 (skipped) when ../shared is absent, as in a user's clone.
"""
import argparse
import json
import os
import subprocess
import sys


def hook_action(binary, payload):
    with open(payload, "rb") as f:
        p = subprocess.run([binary, "hook"], stdin=f, capture_output=True, timeout=30)
    out = p.stdout.decode("utf-8", "replace").strip()
    if not out:
        return "allow"
    answer = json.loads(out)
    if answer.get("decision") == "block":
        return "block"
    return "allow-unproven" if answer.get("systemMessage") else "allow"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    casegen = os.path.join(args.shared, "tools", "casegen.py")
    cases = os.path.join(args.shared, "cases")
    if not os.path.isfile(casegen) or not os.path.isdir(cases):
        print("SKIP: %s not found (labelled cases live beside the project in CI only)" % casegen)
        return 77
    work = os.path.abspath(args.work)
    subprocess.run([sys.executable, casegen, "--all", cases, work], check=True, stdout=subprocess.DEVNULL)
    # The case folders' transcripts (a glob, expanded by check: labels.jsonl is not one).
    p = subprocess.run([args.bin, "check", os.path.join(work, "*", "*.jsonl"), "--format", "json", "--quiet"],
                       capture_output=True, timeout=300)
    if p.returncode not in (0, 1):
        print("FAIL: check exited %d: %s" % (p.returncode, p.stderr.decode()[:500]))
        return 1
    results = json.loads(p.stdout)
    last = {}
    for turn in results["turns"]:
        last[turn["file"]] = turn  # turns come in file order
    labels = [json.loads(l) for l in open(os.path.join(work, "labels.jsonl"), encoding="utf-8")]
    failures = []
    for row in labels:
        case_dir = os.path.join(work, row["id"])
        payload = os.path.join(case_dir, "payload.json")
        with open(payload, encoding="utf-8") as f:
            request = json.load(f)
        path = request.get("agent_transcript_path") if request.get("hook_event_name") == "SubagentStop" \
            else request["transcript_path"]
        turn = last.get(path)
        if turn is None:
            failures.append("%s: check has no turn for %s" % (row["id"], path))
            continue
        expected = hook_action(args.bin, payload)
        if turn["action"] != expected:
            failures.append("%s: hook %s, check %s (turn %d of %s)" % (row["id"], expected, turn["action"],
                                                                       turn["turn"], os.path.basename(path)))
    print("cases: %d, check and hook differ on: %d; turns judged by check: %d in %d files"
          % (len(labels), len(failures), results["summary"]["turns"], results["summary"]["files"]))
    for f in failures:
        print("  FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
