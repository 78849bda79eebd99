#!/usr/bin/env python3
"""Smoke benchmark: `causegate check`'s memory follows the turn, not the file.

Writes a 1 MB Claude Code history (bench/check_corpus.py) and two sessions
made of it repeated, 32 MB and 256 MB, with the same last turn, checks each
with -j 1 and -j 2, and fails only on a gross regression measured as a
ratio within this run, never on an absolute figure:

  peak RSS at 256 MB / peak RSS at 32 MB  > 1.5   (the design: ~1)

for each -j, and checks that both -j give the same JSON results. Both
sizes hold the same turns, so the same longest line and largest turn:
what differs is only how many turns there are. Below 32 MB the history's
filters are still growing towards their fixed budget (16 MiB for all the
turns a look-up can reach, batch/session_history.h); from there on memory
should follow the turn alone. Peak RSS is GNU time's maximum resident set
of check alone (its child is forked from time, not from this Python
process). The figures themselves live in bench/check_bench.py and
bench/RESULTS.md.
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "bench"))
import check_corpus  # noqa: E402

MB = 1 << 20
MAX_RSS_RATIO = 1.5
TIME = "/usr/bin/time"


def peak_rss_kib(argv):
    """(peak RSS in KiB, exit code) of argv under GNU time."""
    p = subprocess.run([TIME, "-f", "%M"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
    last = p.stderr.decode(errors="replace").strip().splitlines()[-1:]
    return (int(last[0]) if last and last[0].isdigit() else None), p.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--small-mb", type=int, default=32)
    ap.add_argument("--large-mb", type=int, default=256)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args()
    if not os.access(TIME, os.X_OK):
        print("SKIP: %s (GNU time) is not installed" % TIME)
        return 77
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)

    history_path = os.path.join(args.work, "history.jsonl")
    # Short turns: many of them, so what is kept per turn shows.
    turns = check_corpus.write_session(history_path, MB, seed=11, codex=False, out_mean=3000)
    with open(history_path, "rb") as f:
        history = f.read()
    with open(os.path.join(REPO, "examples", "transcripts", "export-blocked.jsonl"), "rb") as f:
        turn = f.read()
    sessions = {}
    for copies in (args.small_mb, args.large_mb):
        name = "%dMB" % copies
        path = os.path.join(args.work, name + ".jsonl")
        with open(path, "wb") as out:
            for _ in range(copies):
                out.write(history)
            out.write(turn)
        sessions[name] = path

    failed = False
    small, large = list(sessions)
    results = {}
    for jobs in (1, 2):
        rss = {}
        for name, path in sessions.items():
            out = os.path.join(args.work, "%s-j%d.json" % (name, jobs))
            for _ in range(args.runs):
                kib, code = peak_rss_kib([args.bin, "check", path, "-j", str(jobs), "--quiet", "--output",
                                          "json=" + out])
                if code not in (0, 1) or kib is None:
                    print("FAIL %s -j %d: exit %d" % (name, jobs, code))
                    return 1
                rss[name] = min(rss.get(name, kib), kib)  # the run least disturbed by other work
            with open(out, "rb") as f:
                results[(name, jobs)] = f.read()
        ratio = rss[large] / rss[small]
        print("check -j %d peak RSS: %s %.1f MiB, %s %.1f MiB, ratio %.2f (limit %.1f)" % (
            jobs, small, rss[small] / 1024, large, rss[large] / 1024, ratio, MAX_RSS_RATIO))
        if ratio > MAX_RSS_RATIO:
            print("FAIL: check -j %d's memory grows with the transcript's size" % jobs)
            failed = True
    for name in sessions:
        if results[(name, 1)] != results[(name, 2)]:
            print("FAIL %s: -j 2's results differ from -j 1's" % name)
            failed = True
    if failed:
        return 1
    shutil.rmtree(args.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
