#!/usr/bin/env python3
"""Judges final messages of your own as the last turn of a diagnosis session.

    python3 bench/quality/closings.py --bin build/causegate FILE [--prompt TEXT]

FILE holds final messages separated by a line `=====` (markdown welcome).
Each becomes a Claude Code session (the prompt, one Bash call that printed
"ok", the message) judged by `causegate eval`, the hook's own gate, and is
printed with BLOCK or - in front. The fifteenth session found classes of
false blocks this way (a fix's status, "the root cause analysis", 由于 X，我用
Y 装了依赖): write the sentences an agent ends a turn with, see which block,
and fix the class, not the sentence (rules/QUALITY_HISTORY.md). The default
prompt asks why something fails, so every causal sentence is judged.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (bench/quality is not a package)

DEFAULT_PROMPT = "Why does the nightly export fail? Investigate and fix it."


def judge(binary, work):
    """{message key: (decision, the sentences the scorer weighed)} from one
    `causegate eval --units` over the sessions written in work."""
    units = os.path.join(work, "units.jsonl")
    subprocess.run([binary, "eval", work, "--units", units], check=True, stdout=subprocess.DEVNULL)
    out = {}
    with open(units, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                out[row["id"]] = (row["decision"], [s for s in row.get("sentences", []) if s.get("features")])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "causegate"))
    ap.add_argument("--prompt", default=DEFAULT_PROMPT, help="the user's prompt before each message")
    ap.add_argument("--features", action="store_true",
                    help="under each message, its weighed sentences with score and strongest features")
    ap.add_argument("file", help="final messages separated by a line =====")
    args = ap.parse_args()
    with open(args.file, encoding="utf-8") as f:
        messages = [m.strip() for m in f.read().split("\n=====\n") if m.strip()]
    rows = [{"final_assistant_message": m, "observation_before_final": "ok"} for m in messages]
    with tempfile.TemporaryDirectory() as work:
        run.write_sessions(work, args.prompt, rows)
        judged = judge(args.bin, work)
    blocked = 0
    for i, message in enumerate(messages):
        decision, weighed = judged["m%04d" % i]
        blocked += decision == "block"
        print("%s %s" % ("BLOCK" if decision == "block" else "  -  ", message.replace("\n", " / ")[:150]))
        for s in weighed if args.features else []:
            feats = ", ".join("%s %+.2f" % (f["name"], f["weight"]) for f in s["features"][:6])
            print("        [%s %.2f] %s\n            %s" % ("claim" if s.get("claim") else "-", s.get("score", 0),
                                                         s["sentence"][:120], feats))
    print("%d of %d blocked" % (blocked, len(messages)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
