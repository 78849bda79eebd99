#!/usr/bin/env python3
"""Smoke benchmark: a hook call costs what the turn costs, not what the file weighs.

Writes a 1 MB and a 100 MB Claude Code session (the 100 MB one is the 1 MB
history repeated, then the same judged turn at the end), runs
`causegate hook` on each, interleaved, and fails only on a gross
regression measured as a ratio within this run, never on an absolute time:

  median time at 100 MB / median time at 1 MB   > 3   (the design: ~1)
  peak RSS at 100 MB / peak RSS at 1 MB          > 2   (the design: ~1)

and the same for the resident path (gate/HOOKS.md, "The resident gate"):
causegate-hook (or causegate hook when it is not built) against a warm
daemon, whose median time at 100 MB over 1 MB must stay under 3 too, every
run served by the daemon.

A machine busy with other work slows both sizes alike, so the ratios hold
where absolute times would flake. The figures themselves live in
bench/hook_bench.py and bench/RESULTS.md.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "bench"))
import check_corpus  # noqa: E402

MB = 1 << 20
MAX_TIME_RATIO = 3.0
MAX_RSS_RATIO = 2.0
PEAK_RSS = re.compile(r"peak RSS ([\d.]+) MiB")


def write_session(path, history, copies, turn):
    with open(path, "wb") as out:
        for _ in range(copies):
            out.write(history)
        out.write(turn)


def timed(argv, stdin, env):
    """(seconds, stdout, stderr, exit code) of one fresh process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    proc.stdin.write(stdin)
    proc.stdin.close()
    out = proc.stdout.read()
    err = proc.stderr.read()
    _, status, _ = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, out, err, os.waitstatus_to_exitcode(status)


def served(binary, env):
    p = subprocess.run([binary, "status"], capture_output=True, text=True, env=env)
    m = re.search(r"(\d+) verdicts served", p.stdout)
    return int(m.group(1)) if m else -1


def resident_ratio(binary, work, sessions, runs):
    """Median time at 100 MB / 1 MB through a warm resident daemon, or None on failure."""
    client = os.path.join(os.path.dirname(binary), "causegate-hook")
    if not os.access(client, os.X_OK):
        client = binary
    home, runtime = os.path.join(work, "home"), os.path.join(work, "run")
    os.makedirs(os.path.join(home, ".config", "causegate"))
    os.makedirs(runtime, mode=0o700)
    with open(os.path.join(home, ".config", "causegate", "config.json"), "w") as f:
        json.dump({"resident": True}, f)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CAUSEGATE_", "XDG_"))}
    env.update(HOME=home, XDG_RUNTIME_DIR=runtime)
    argv = [client, "hook", "--agent", "claude-code"]
    try:
        timed(argv, sessions["1MB"], env)  # judged locally; starts the daemon
        deadline = time.time() + 20
        while served(binary, env) < 0:
            if time.time() > deadline:
                print("FAIL resident: the daemon did not start")
                return None
            time.sleep(0.05)
        before = served(binary, env)
        times = {name: [] for name in sessions}
        for i in range(runs + 1):
            for name, stdin in sessions.items():
                elapsed, out, err, code = timed(argv, stdin, env)
                if code != 0 or b'"decision":"block"' not in out.replace(b" ", b""):
                    print("FAIL resident %s: exit %d, stdout %r, stderr %r" % (name, code, out[:200], err[:300]))
                    return None
                if i > 0:
                    times[name].append(elapsed)
        if served(binary, env) - before != 2 * (runs + 1):
            print("FAIL resident: the daemon served %d of %d stops" % (served(binary, env) - before, 2 * (runs + 1)))
            return None
    finally:
        subprocess.run([binary, "status", "--stop"], capture_output=True, env=env)
    small, big = statistics.median(times["1MB"]), statistics.median(times["100MB"])
    print("resident (%s, warm daemon) median: 1 MB %.2f ms, 100 MB %.2f ms, ratio %.2f (limit %.1f)" % (
        os.path.basename(client), small * 1000, big * 1000, big / small, MAX_TIME_RATIO))
    return big / small


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)

    history_path = os.path.join(args.work, "history.jsonl")
    check_corpus.write_session(history_path, MB, seed=11, codex=False)
    history = open(history_path, "rb").read()
    example = os.path.join(REPO, "examples", "transcripts", "export-blocked")
    turn = open(example + ".jsonl", "rb").read()
    payload = json.load(open(example + ".payload.json"))

    sessions = {}
    for name, copies in (("1MB", 1), ("100MB", 100)):
        path = os.path.join(args.work, name + ".jsonl")
        write_session(path, history, copies, turn)
        p = dict(payload, transcript_path=path)
        del p["last_assistant_message"]  # read the final text from the file's end
        sessions[name] = json.dumps(p).encode()

    env = dict(os.environ, CAUSEGATE_LOG="debug")
    times = {name: [] for name in sessions}
    rss = {name: 0 for name in sessions}
    for i in range(args.runs + 1):
        for name, stdin in sessions.items():
            start = time.perf_counter()
            proc = subprocess.Popen([args.bin, "hook", "--agent", "claude-code"], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
            proc.stdin.write(stdin)
            proc.stdin.close()
            out = proc.stdout.read()
            err = proc.stderr.read()
            _, status, _ = os.wait4(proc.pid, 0)
            elapsed = time.perf_counter() - start
            code = os.waitstatus_to_exitcode(status)
            if code != 0 or b'"decision":"block"' not in out.replace(b" ", b""):
                print("FAIL %s: exit %d, stdout %r, stderr %r" % (name, code, out[:200], err[:300]))
                return 1
            if i == 0:
                continue  # warm-up: page cache, first exec
            times[name].append(elapsed)
            # The hook's own peak (VmHWM): wait4's ru_maxrss would count this
            # Python process's memory, copied into the child before exec.
            m = PEAK_RSS.search(err.decode(errors="replace"))
            if not m:
                print("FAIL %s: no peak RSS in the hook's debug line: %r" % (name, err[-300:]))
                return 1
            rss[name] = max(rss[name], float(m.group(1)))

    small, big = statistics.median(times["1MB"]), statistics.median(times["100MB"])
    time_ratio, rss_ratio = big / small, rss["100MB"] / rss["1MB"]
    print("hook median: 1 MB %.1f ms, 100 MB %.1f ms, ratio %.2f (limit %.1f)" % (
        small * 1000, big * 1000, time_ratio, MAX_TIME_RATIO))
    print("hook peak RSS: 1 MB %.1f MiB, 100 MB %.1f MiB, ratio %.2f (limit %.1f)" % (
        rss["1MB"], rss["100MB"], rss_ratio, MAX_RSS_RATIO))
    resident = resident_ratio(os.path.abspath(args.bin), os.path.join(args.work, "resident"), sessions, args.runs)
    shutil.rmtree(args.work, ignore_errors=True)
    if time_ratio > MAX_TIME_RATIO or rss_ratio > MAX_RSS_RATIO:
        print("FAIL: the hook's cost grows with the transcript's size")
        return 1
    if resident is None or resident > MAX_TIME_RATIO:
        print("FAIL: the resident path's cost grows with the transcript's size")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
