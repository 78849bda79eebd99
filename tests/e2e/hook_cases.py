#!/usr/bin/env python3
"""End-to-end: every labelled case in ../shared/cases, rendered as a real
Claude Code session by ../shared/tools/casegen.py, is judged by the real
binary over stdin, exactly as Claude Code would call it.

Fails on any decision that differs from the case's label, on any stdout that
is not one JSON object (or empty), and on a non-zero exit. Prints finding
agreement as a secondary figure, then `causegate eval` on the same folder.
Exits 77 (skipped) when ../shared is absent, as in a user's clone.
"""
import argparse
import json
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cases", help="folder of case JSON (default: SHARED/cases)")
    args = ap.parse_args()

    casegen = os.path.join(args.shared, "tools", "casegen.py")
    cases = args.cases or os.path.join(args.shared, "cases")
    if not os.path.isfile(casegen) or not os.path.isdir(cases):
        print("SKIP: %s not found (labelled cases live beside the project in CI only)" % casegen)
        return 77
    subprocess.run([sys.executable, casegen, "--all", cases, args.work], check=True,
                   stdout=subprocess.DEVNULL)

    failures, findings_agree, blocked = [], 0, 0
    labels = [json.loads(l) for l in open(os.path.join(args.work, "labels.jsonl"), encoding="utf-8")]
    for row in labels:
        payload = os.path.join(args.work, row["id"], "payload.json")
        with open(payload, "rb") as f:
            p = subprocess.run([args.bin, "hook"], stdin=f, capture_output=True, timeout=30)
        out = p.stdout.decode("utf-8", "replace").strip()
        if p.returncode != 0:
            failures.append("%s: exit %d: %s" % (row["id"], p.returncode, p.stderr.decode()[:200]))
            continue
        decision = "allow"
        if out:
            try:
                answer = json.loads(out)
            except ValueError:
                failures.append("%s: stdout is not JSON: %r" % (row["id"], out[:120]))
                continue
            if answer.get("decision") == "block":
                decision = "block"
                if len(answer.get("reason", "")) > 10000:
                    failures.append("%s: reason longer than 10,000 characters" % row["id"])
        if decision != row["label"]:
            failures.append("%s: expected %s, got %s" % (row["id"], row["label"], decision))
        if row["label"] == "block":
            blocked += 1
            if decision == "block" and ("finding: %s " % row["finding"]) in answer.get("reason", "") \
                    or ("判定: %s " % row["finding"]) in answer.get("reason", ""):
                findings_agree += 1

    print("cases: %d, decisions that differ from the label: %d" % (len(labels), len(failures)))
    print("findings agree (secondary): %d of %d blocked cases" % (findings_agree, blocked))
    for f in failures:
        print("  FAIL " + f)
    ev = subprocess.run([args.bin, "eval", args.work], capture_output=True, text=True)
    print("\n--- causegate eval (same cases) ---\n" + ev.stdout.rsplit("\n\n", 1)[0])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
