#!/usr/bin/env python3
"""Smoke benchmark: `causegate check`'s memory follows the turn, not the file.

Writes a 1 MB Claude Code history (bench/check_corpus.py) and two sessions
made of it repeated, 32 MB and 256 MB, with the same last turn, checks each
with -j 1 and -j 2, and fails only on a gross regression measured as a
ratio within this run, never on an absolute figure:

  peak RSS at 256 MB / peak RSS at 32 MB  > 1.2   (the design: ~1)

for each -j, and checks that both -j give the same JSON results. Both
sizes hold the same turns, so the same longest line and largest turn:
what differs is only how many turns there are. Below 32 MB the history's
filters are still growing towards what is kept of them in memory (4 MiB,
batch/session_history.h); from there on memory should follow the turn
alone, each turn judged leaving a stub of 64 bytes (batch/results.h).

Then the same history with one more turn, whose one tool output is 6 MB
(a line of about 13 MB: Claude Code writes an output twice), against the
same turn with a short output:

  (peak RSS, long - short) / the long line's bytes  > 3.0

simdjson's DOM of the whole line cost about 3.8 of its bytes on top of
the turn; cut out of the line (evidence/simd_json.h), the output costs
the line, its text and its folded copy, about 2.3.

Peak RSS is GNU time's maximum resident set of check alone (its child is
forked from time, not from this Python process). The figures themselves
live in bench/check_bench.py and bench/RESULTS.md.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "bench"))
import check_corpus  # noqa: E402

MB = 1 << 20
MAX_RSS_RATIO = 1.2
MAX_LINE_RATIO = 3.0
# Under AddressSanitizer (make sanitize sets ASAN_OPTIONS) freed memory
# waits in quarantine (256 MiB by default) before it is used again, so
# peak RSS follows what was allocated, not what is held: the ratios are
# printed, not checked.
CHECK_RSS = "ASAN_OPTIONS" not in os.environ
LONG_OUTPUT_BYTES = 6 << 20
TIME = "/usr/bin/time"


def peak_rss_kib(argv):
    """(peak RSS in KiB, exit code) of argv under GNU time."""
    p = subprocess.run([TIME, "-f", "%M"] + argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
    last = p.stderr.decode(errors="replace").strip().splitlines()[-1:]
    return (int(last[0]) if last and last[0].isdigit() else None), p.returncode


def turn_with_output(output_bytes):
    """One turn, as Claude Code writes it: a Bash call printing output_bytes
    of a service log, and a final message quoting a line of it."""
    rng = random.Random(3)
    writer = check_corpus.ClaudeWriter(rng, "5f1c2a9e-0000-4000-8000-000000000001", "/srv/app")
    clock = check_corpus.Clock(rng)
    cited = "Out of memory: Killed process 4812 (python) total-vm:1234kB, anon-rss:999kB"
    writer.prompt("why did the export job die?", clock.tick(rng))
    writer.assistant("msg_01long", {"type": "tool_use", "id": "toolu_01long", "name": "Bash",
                                    "input": {"command": "journalctl -u export --no-pager"}}, clock.tick(rng))
    writer.result("toolu_01long", check_corpus.log_lines(rng, clock, output_bytes, [cited]), clock.tick(rng), True)
    writer.assistant("msg_01text", {"type": "text", "text": "The job died because `%s`." % cited}, clock.tick(rng))
    return ("\n".join(writer.lines) + "\n").encode("utf-8"), max(len(l.encode("utf-8")) for l in writer.lines)


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
        if ratio > MAX_RSS_RATIO and CHECK_RSS:
            print("FAIL: check -j %d's memory grows with the transcript's size" % jobs)
            failed = True
    for name in sessions:
        if results[(name, 1)] != results[(name, 2)]:
            print("FAIL %s: -j 2's results differ from -j 1's" % name)
            failed = True

    # One long tool-result line on top of the same history.
    line_rss = {}
    long_line = 0
    for name, output_bytes in (("short", 6000), ("long", LONG_OUTPUT_BYTES)):
        turn_bytes, longest = turn_with_output(output_bytes)
        if name == "long":
            long_line = longest
        path = os.path.join(args.work, "line-%s.jsonl" % name)
        with open(path, "wb") as out:
            out.write(history)
            out.write(turn_bytes)
        for _ in range(args.runs):
            kib, code = peak_rss_kib([args.bin, "check", path, "-j", "1", "--quiet", "--output",
                                      "json=" + os.path.join(args.work, "line-%s.json" % name)])
            if code not in (0, 1) or kib is None:
                print("FAIL line-%s: exit %d" % (name, code))
                return 1
            line_rss[name] = min(line_rss.get(name, kib), kib)
    ratio = (line_rss["long"] - line_rss["short"]) * 1024 / long_line
    print("check -j 1 peak RSS: short output %.1f MiB, one %.1f MB line %.1f MiB: %.2fx the line (limit %.1f)" % (
        line_rss["short"] / 1024, long_line / 1e6, line_rss["long"] / 1024, ratio, MAX_LINE_RATIO))
    if ratio > MAX_LINE_RATIO and CHECK_RSS:
        print("FAIL: check holds a long line several times over")
        failed = True
    if failed:
        return 1
    shutil.rmtree(args.work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
