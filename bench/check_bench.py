#!/usr/bin/env python3
"""Throughput of `causegate check`, with ripgrep as the floor to compare with.

Generates (once, cached) a corpus of realistic sessions of 1 to 100 MB with
bench/check_corpus.py, then times, best of --runs:

  causegate check CORPUS -j 1     every turn of every file judged, one core
  causegate check CORPUS -j 2     the same on two worker threads
  rg -i -f CLAIM_PATTERNS CORPUS  ripgrep scanning the same bytes for the
                                  claim patterns of the default packs alone,
                                  on one thread and on two

and prints MB/s and the ratio of check's time to rg's. Target: >= 100 MB/s
per core with every turn judged. Then, per session, check's peak RSS on
that file alone (-j 1, GNU time's maximum resident set) and the ratio of
the largest session's to the smallest's (target: memory follows the turn,
not the file: about 1), and -j 1 against -j 2 on the largest session
alone (one file's turns judged on two threads). Not part of `make test`
(it takes minutes; tests/e2e/check_scaling.py is the ratio-only smoke).

Usage: bench/check_bench.py [--bin build/causegate] [--corpus DIR]
                            [--sizes 1,2,5,10,25,100] [--runs 3] [--codex-share 0]
"""
import argparse
import glob
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
TARGET_MB_S = 100.0


def peak_rss_kib(cmd):
    """Peak RSS of cmd in KiB via /usr/bin/time, or None without it."""
    if not os.access("/usr/bin/time", os.X_OK):
        return None
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    last = p.stderr.decode().strip().splitlines()[-1:]
    return int(last[0]) if last and last[0].isdigit() else None


def best_time(cmd, runs, ok_codes=(0, 1)):
    """(wall seconds, CPU seconds), each the best of runs. On a busy machine
    wall time includes waiting for a core; CPU time (user + system) does not."""
    best_wall = best_cpu = None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if p.returncode not in ok_codes:
            sys.exit("bench: %s exited %d: %s" % (" ".join(cmd[:3]), p.returncode, p.stderr.decode()[:400]))
        best_wall = wall if best_wall is None else min(best_wall, wall)
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
    return best_wall, best_cpu


def ensure_corpus(corpus, sizes, seed, codex_share):
    manifest = {"sizes": sizes, "seed": seed, "codex_share": codex_share,
                "generator": os.path.getmtime(os.path.join(HERE, "check_corpus.py"))}
    path = os.path.join(corpus, "manifest.json")
    try:
        with open(path) as f:
            if json.load(f) == manifest:
                return
    except (OSError, ValueError):
        pass
    if os.path.isdir(corpus):
        shutil.rmtree(corpus)
    print("generating the corpus in %s (sizes %s MB)..." % (corpus, sizes), file=sys.stderr)
    subprocess.run([sys.executable, os.path.join(HERE, "check_corpus.py"), corpus, "--sizes", sizes,
                    "--seed", str(seed), "--codex-share", str(codex_share)], check=True)
    with open(path, "w") as f:
        json.dump(manifest, f)


# RE2's \b \w \s \d are ASCII; ripgrep's default engine makes them Unicode,
# which is both a different meaning and, with -i, a slow one. Rewritten
# with ASCII-only forms, ripgrep matches what causegate's RE2 matches.
ASCII_IN_CLASS = {"w": "0-9A-Za-z_", "d": "0-9", "s": "\\t\\n\\x0B\\x0C\\r "}


def re2_to_rg(pattern):
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            e = pattern[i + 1]
            out.append("(?-u:\\%s)" % e if e in "bBwWsSdD" else pattern[i:i + 2])
            i += 2
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            cls = pattern[i:j + 1]
            if re.search(r"\\[WSD]", cls):
                out.append("(?-u:%s)" % cls)
            else:
                out.append(re.sub(r"\\([wds])", lambda m: ASCII_IN_CLASS[m.group(1)], cls))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def claim_patterns(rg, workdir):
    """The claim rules of the default packs, as a pattern file rg accepts."""
    patterns = []
    for pack in sorted(glob.glob(os.path.join(SOURCE, "rules", "packs", "*.json"))):
        with open(pack, encoding="utf-8") as f:
            patterns += [re2_to_rg(r["pattern"]) for r in json.load(f)["rules"] if r["kind"] == "claim"]
    kept = []
    for p in patterns:
        probe = subprocess.run([rg, "--no-config", "-i", "-e", p, os.devnull], capture_output=True)
        if probe.returncode in (0, 1):
            kept.append(p)
        else:
            print("bench: rg refuses claim pattern %r; left out" % p, file=sys.stderr)
    path = os.path.join(workdir, "claim-patterns.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(kept) + "\n")
    return path, len(kept), len(patterns)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(SOURCE, "build", "causegate"))
    ap.add_argument("--corpus", default=os.path.join(tempfile.gettempdir(), "causegate-check-corpus"))
    ap.add_argument("--sizes", default="1,2,5,10,25,100")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--codex-share", type=float, default=0.0)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    rg = shutil.which("rg")
    if rg is None:
        sys.exit("bench: ripgrep (rg) is not installed: scripts/install-deps --bench")
    ensure_corpus(args.corpus, args.sizes, args.seed, args.codex_share)
    files = sorted(glob.glob(os.path.join(args.corpus, "*.jsonl")))
    total = sum(os.path.getsize(f) for f in files)
    mb = total / (1 << 20)

    with tempfile.TemporaryDirectory() as tmp:
        results = os.path.join(tmp, "r.json")
        subprocess.run([args.bin, "check", args.corpus, "--quiet", "--output", "json=" + results],
                       stdout=subprocess.DEVNULL)
        with open(results) as f:
            summary = json.load(f)["summary"]
        check_times = {j: best_time([args.bin, "check", args.corpus, "-j", str(j), "--quiet", "--output",
                                     "json=" + os.path.join(tmp, "x.json")], args.runs) for j in (1, 2)}
        patterns, kept, all_patterns = claim_patterns(rg, tmp)
        rg_times = {j: best_time([rg, "--no-config", "-i", "-c", "-j", str(j), "-f", patterns, args.corpus], args.runs)
                    for j in (1, 2)}
        # Peak RSS of one run each, through GNU time: its child is forked
        # from time itself, so the figure is check's, not this script's.
        check_rss = {j: peak_rss_kib([args.bin, "check", args.corpus, "-j", str(j), "--quiet", "--output",
                                      "json=" + os.path.join(tmp, "x.json")]) for j in (1, 2)}
        # For scale: one literal word, which ripgrep finds at memory speed.
        literal_time = best_time([rg, "--no-config", "-c", "-j", "1", "-F", "because", args.corpus], args.runs)

    print("corpus: %d files, %.1f MB (%s MB each), %d turns judged, %d claims, %d turns blocked"
          % (len(files), mb, args.sizes, summary["turns"], summary["claims"], summary["blocked"]))
    print("%-46s %8s %9s %9s %10s %8s" % ("", "wall s", "MB/s", "CPU s", "MB/CPU-s", "vs rg"))
    rows = [("causegate check -j %d (every turn judged)" % j, check_times[j], "%.1fx" % (check_times[j][0] / rg_times[j][0]))
            for j in (1, 2)]
    rows += [("rg -j %d, %d/%d claim patterns alone" % (j, kept, all_patterns), rg_times[j], "") for j in (1, 2)]
    rows.append(("rg -j 1 -F because (one literal, for scale)", literal_time, ""))
    for name, (wall, cpu), ratio in rows:
        print("%-46s %8.2f %9.1f %9.2f %10.1f %8s" % (name, wall, mb / wall, cpu, mb / cpu if cpu else 0, ratio))
    for j in (1, 2):
        if check_rss[j] is not None:
            print("causegate check -j %d peak RSS: %.1f MiB (largest file %.1f MB)"
                  % (j, check_rss[j] / 1024, max(os.path.getsize(f) for f in files) / (1 << 20)))
    # Memory per session, each file alone: what one file costs.
    print("%-46s %8s %8s %12s %12s" % ("session (check FILE -j 1)", "MB", "turns", "peak RSS MiB", "vs previous"))
    per_file = []
    with tempfile.TemporaryDirectory() as tmp:
        for f in sorted(files, key=os.path.getsize):
            out = os.path.join(tmp, "one.json")
            rss = peak_rss_kib([args.bin, "check", f, "-j", "1", "--quiet", "--output", "json=" + out])
            with open(out) as r:
                turns = json.load(r)["summary"]["turns"]
            previous = per_file[-1][1] if per_file else None
            per_file.append((f, rss))
            print("%-46s %8.1f %8d %12s %12s" % (os.path.basename(f), os.path.getsize(f) / (1 << 20), turns,
                                                "%.1f" % (rss / 1024) if rss is not None else "-",
                                                "%.2fx" % (rss / previous) if rss and previous else ""))
        if len(per_file) > 1 and per_file[0][1] and per_file[-1][1]:
            print("peak RSS largest / smallest session: %.2fx (%.1f MB / %.1f MB of transcript)"
                  % (per_file[-1][1] / per_file[0][1], os.path.getsize(per_file[-1][0]) / (1 << 20),
                     os.path.getsize(per_file[0][0]) / (1 << 20)))
        largest = per_file[-1][0]
        large_mb = os.path.getsize(largest) / (1 << 20)
        one = {j: best_time([args.bin, "check", largest, "-j", str(j), "--quiet", "--output",
                             "json=" + os.path.join(tmp, "x.json")], args.runs) for j in (1, 2)}
        for j in (1, 2):
            print("largest session alone, -j %d: %.2f s wall, %.1f MB/s, %.2f CPU s"
                  % (j, one[j][0], large_mb / one[j][0], one[j][1]))
        print("one file on two threads: -j 2 %.2fx faster than -j 1 (wall)" % (one[1][0] / one[2][0]))
    per_core = mb / check_times[1][0]
    print("per core: %.1f MB/s wall, %.1f MB per CPU-second (target >= %.0f MB/s): %s"
          % (per_core, mb / check_times[1][1], TARGET_MB_S, "met" if per_core >= TARGET_MB_S else "MISSED"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
