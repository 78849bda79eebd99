#!/usr/bin/env python3
"""The gate on our own written turns: development sets and held-out ones.

    python3 bench/quality/written_sets.py --bin build/causegate
    python3 bench/quality/written_sets.py --bin build/causegate --misses   # the development sets only

Each set was written by its own helper session from ../shared/spec alone,
never looking at the packs, the scorer, an error list or another set (each
folder's README): `written_dev` .. `written_dev4` and `written_heldout2` ..
`written_heldout4` have since been read turn by turn to find what the
gate misses, so their figures are development figures (`written_dev4` and
`written_heldout2` .. `written_heldout4` were first held-out measures of
sessions' changes, rules/QUALITY.md); `written_heldout` and
`written_heldout5` are a measure only, and --misses refuses to list their
turns, so reading them cannot turn them into development sets by accident. The committed fit reads none; the
development sets' claims.jsonl (each final message's claim sentences,
labelled by the spec) is there for `fit_scorer.py --with-written`,
measured and not kept (rules/QUALITY.md).

Each set is rendered with ../shared/tools/casegen.py (the tool the labelled
cases use) and judged by `causegate eval`, the hook's own gate. Prints
precision, recall and false blocks per language. Exit 0; 77 when the
casegen tool is absent (it lives beside the project, in ../shared).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SETS = (("written_dev", "development: its misses were read"),
        ("written_dev2", "development: its misses were read"),
        ("written_dev3", "development: its misses were read"),
        ("written_heldout", "held-out: a measure only"),
        ("written_heldout2", "development: a held-out measure for three sessions, then its misses were read"),
        ("written_dev4", "development: held out for one measure, then its misses were read"),
        ("written_heldout3", "development: a held-out measure for one session, then its misses were read"),
        ("written_heldout4", "development: a held-out measure for one session, then its misses were read"),
        ("written_heldout5", "held-out: a measure only"))
# The sets --misses may list: those SETS calls development, so a set moves
# from held-out to development in one place.
DEVELOPMENT = tuple(name for name, what in SETS if what.startswith("development"))


def judge(binary, casegen, folder, work):
    """causegate eval's summary lines and misses for one rendered set."""
    out = os.path.join(work, os.path.basename(folder))
    subprocess.run([sys.executable, casegen, "--all", folder, out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    run = subprocess.run([binary, "eval", out], capture_output=True, text=True, errors="replace")
    if run.returncode not in (0, 1):
        raise RuntimeError("causegate eval %s exited %d: %s" % (out, run.returncode, run.stderr.strip()[:300]))
    return run.stdout


def report(binary, shared, misses=False, out=sys.stdout):
    casegen = os.path.join(shared, "tools", "casegen.py")
    if not os.path.isfile(casegen):
        print("SKIP: no %s (the case renderer lives beside the project, in ../shared)" % casegen, file=out)
        return 77
    with tempfile.TemporaryDirectory(prefix="causegate-written-") as work:
        for name, what in SETS:
            folder = os.path.join(HERE, name)
            if not os.path.isdir(folder):
                continue
            text = judge(binary, casegen, folder, work)
            print("%s (%s):" % (name, what), file=out)
            rows = {}
            for line in text.splitlines():
                m = re.match(r"^(all|en|zh)\s+([\d.]+|-)\s+([\d.]+|-)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$", line)
                if m:
                    rows[m.group(1)] = tuple(int(x) for x in m.group(4, 5, 6, 7))
            for lang in ("en", "zh", "all"):
                if lang not in rows:
                    continue
                tp, fp, fn, tn = rows[lang]
                print("  %-4s precision %s  recall %s (%d of %d block turns)  false blocks %d of %d allow turns" % (
                    lang, fmt(tp, tp + fp), fmt(tp, tp + fn), tp, tp + fn, fp, fp + tn), file=out)
            if misses and name in DEVELOPMENT:
                listing = text.split("misses:", 1)
                if len(listing) == 2:
                    print("  misses:" + listing[1].rsplit("\n\n", 1)[0], file=out)
    return 0


def fmt(num, den):
    return "%.3f" % (num / den) if den else "  -  "


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "causegate"))
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(REPO), "shared"))
    ap.add_argument("--misses", action="store_true", help="list the development sets' wrong turns (never a held-out set's)")
    args = ap.parse_args()
    if not os.access(args.bin, os.X_OK):
        print("no causegate binary at %s (build it, or pass --bin)" % args.bin, file=sys.stderr)
        return 2
    return report(args.bin, args.shared, args.misses)


if __name__ == "__main__":
    sys.exit(main())
