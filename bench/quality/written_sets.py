#!/usr/bin/env python3
"""The gate on our own written turns: development sets and held-out ones.

    python3 bench/quality/written_sets.py --bin build/causegate
    python3 bench/quality/written_sets.py --bin build/causegate --misses   # the development sets only
    python3 bench/quality/written_sets.py --bin build/causegate --where-lost  # counts, every set

Each set was written by its own helper session from ../shared/spec alone,
never looking at the packs, the scorer, an error list or another set (each
folder's README): `written_dev` .. `written_dev4` and `written_heldout2` ..
`written_heldout4` and `written_heldout6` have since been read turn by turn to find what the
gate misses, so their figures are development figures (`written_dev4` and
`written_heldout2` .. `written_heldout4` were first held-out measures of
sessions' changes, rules/QUALITY.md); `written_heldout`,
`written_heldout5`, `written_heldout7`, `written_heldout8` and `written_heldout9` are a measure only, and
--misses refuses to list their turns, so reading them cannot turn them
into development sets by accident. The committed fit reads none; the
development sets' claims.jsonl (each final message's claim sentences,
labelled by the spec) is there for `fit_scorer.py --with-written`,
measured and not kept (rules/QUALITY.md).

Each set is rendered with ../shared/tools/casegen.py (the tool the labelled
cases use) and judged by `causegate eval`, the hook's own gate. Prints
precision, recall and false blocks per language. --where-lost adds, per set
and language, where each missed block turn was lost (LOST_KINDS), as counts
only: it reads no text out, so it may run on a held-out set. Exit 0; 77 when the
casegen tool is absent (it lives beside the project, in ../shared).
"""
import argparse
import collections
import json
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
        ("written_heldout5", "held-out: a measure only"),
        ("written_heldout6", "development: a held-out measure for one session, then its misses were read"),
        ("written_heldout7", "held-out: a measure only"),
        ("written_dev5", "development: written in real agents' style, read and fitted on"),
        ("written_dev6", "development: written in real agents' style, read and fitted on"),
        ("written_heldout8", "held-out: a measure only, in real agents' style"),
        ("written_dev7", "development: written in real agents' style, read and fitted on"),
        ("written_dev8", "development: written in real agents' style, read and fitted on"),
        ("written_dev9", "development: written in real agents' style, read and fitted on"),
        ("written_dev10", "development: written in real agents' style, read and fitted on"),
        ("written_heldout9", "held-out: a measure only, in real agents' style"),
        ("written_dev11", "development: real agents' voices, fourteenth session (first measured unread)"),
        ("written_dev12", "development: real agents' voices and SWE-bench reasoning, fourteenth session (first measured unread)"),
        ("written_heldout10", "held-out: a measure only, ordinary closings of debugging turns (fifteenth session)"),
        ("written_dev13", "development: varied claim phrasing in real agents' voices, sixteenth session (first measured unread)"),
        ("written_dev14", "development: claims with no textbook connective, sixteenth session (first measured unread)"))
# The sets --misses may list: those SETS calls development, so a set moves
# from held-out to development in one place.
DEVELOPMENT = tuple(name for name, what in SETS if what.startswith("development"))


# Where a block turn the gate let through was lost, first that holds.
LOST_KINDS = (
    ("no diagnosis", "the prompt read as no diagnosis, and no sentence names a failure"),
    ("nothing weighed", "no sentence carries a claim cue, form or place"),
    ("overruled", "the best sentence was set aside by a hard rule (no diagnosis, a heading)"),
    ("qualified", "the best sentence is below the threshold and holds a hedge, negation, conditional, question or uncertainty"),
    ("weak", "the best sentence is below the threshold with no such qualifier: its form weighs too little"),
    ("claim allowed", "a claim was found, and judged supported or exempt"),
)
_QUALIFIERS = ("hedge", "negation", "conditional", "question", "uncertainty")


def judge(binary, casegen, folder, work, units=False):
    """causegate eval's summary lines and misses for one rendered set, the
    rendered folder, and with units its rows (eval --units: each case's
    decision and weighed sentences), else None."""
    out = os.path.join(work, os.path.basename(folder))
    subprocess.run([sys.executable, casegen, "--all", folder, out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cmd = [binary, "eval", out]
    if units:
        cmd += ["--units", out + ".units.jsonl"]
    run = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if run.returncode not in (0, 1):
        raise RuntimeError("causegate eval %s exited %d: %s" % (out, run.returncode, run.stderr.strip()[:300]))
    if not units:
        return run.stdout, out, None
    with open(out + ".units.jsonl", encoding="utf-8") as f:
        judged = [json.loads(line) for line in f if line.strip()]
    return run.stdout, out, judged


def lost_kind(row):
    """Which of LOST_KINDS a block turn the gate allowed falls under."""
    sentences = row.get("sentences", [])
    if any(s.get("claim") for s in sentences):
        return "claim allowed"
    weighed = [s for s in sentences if s.get("features")]
    if not weighed:
        return "no diagnosis" if not row.get("diagnostic_turn") else "nothing weighed"
    best = max(weighed, key=lambda s: s.get("score", 0))
    if best.get("overruled"):
        return "overruled"
    names = [f["name"].split("@")[0] for f in best["features"]]
    return "qualified" if any(n in _QUALIFIERS for n in names) else "weak"


def where_lost(rendered, judged):
    """{lang: Counter of LOST_KINDS names} over the set's missed block turns
    (the labels as casegen wrote them beside the rendered cases)."""
    labels = {}
    with open(os.path.join(rendered, "labels.jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                case = json.loads(line)
                labels[case["id"]] = (case.get("label"), case.get("lang", "en"))
    lost = collections.defaultdict(collections.Counter)
    for row in judged:
        label, lang = labels.get(row["id"], (None, None))
        if label == "block" and row.get("decision") != "block":
            lost[lang][lost_kind(row)] += 1
    return lost


def report(binary, shared, misses=False, lost=False, out=sys.stdout):
    casegen = os.path.join(shared, "tools", "casegen.py")
    if not os.path.isfile(casegen):
        print("SKIP: no %s (the case renderer lives beside the project, in ../shared)" % casegen, file=out)
        return 77
    with tempfile.TemporaryDirectory(prefix="causegate-written-") as work:
        for name, what in SETS:
            folder = os.path.join(HERE, name)
            if not os.path.isdir(folder):
                continue
            text, rendered, judged = judge(binary, casegen, folder, work, units=lost)
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
            if lost:
                by_lang = where_lost(rendered, judged)
                for lang in sorted(by_lang):
                    counts = by_lang[lang]
                    print("  %-4s missed block turns: %s" % (lang, ", ".join(
                        "%s %d" % (kind, counts[kind]) for kind, _ in LOST_KINDS if counts[kind])), file=out)
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
    ap.add_argument("--where-lost", action="store_true",
                    help="count where each set's missed block turns were lost (counts only, every set)")
    args = ap.parse_args()
    if args.where_lost:
        print("where a missed block turn is lost (the first that holds):")
        for kind, what in LOST_KINDS:
            print("  %-15s %s" % (kind, what))
    if not os.access(args.bin, os.X_OK):
        print("no causegate binary at %s (build it, or pass --bin)" % args.bin, file=sys.stderr)
        return 2
    return report(args.bin, args.shared, args.misses, args.where_lost)


if __name__ == "__main__":
    sys.exit(main())
