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
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402  (bench/quality is not a package)

DEFAULT_PROMPT = "Why does the nightly export fail? Investigate and fix it."


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(os.path.dirname(HERE)), "build", "causegate"))
    ap.add_argument("--prompt", default=DEFAULT_PROMPT, help="the user's prompt before each message")
    ap.add_argument("file", help="final messages separated by a line =====")
    args = ap.parse_args()
    with open(args.file, encoding="utf-8") as f:
        messages = [m.strip() for m in f.read().split("\n=====\n") if m.strip()]
    rows = [{"final_assistant_message": m, "observation_before_final": "ok"} for m in messages]
    with tempfile.TemporaryDirectory() as work:
        blocked = set(run.blocked_ids(args.bin, None, work, args.prompt, rows))
    for i, message in enumerate(messages):
        print("%s %s" % ("BLOCK" if i in blocked else "  -  ", message.replace("\n", " / ")[:150]))
    print("%d of %d blocked" % (len(blocked), len(messages)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
