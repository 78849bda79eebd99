#!/usr/bin/env python3
"""What one `causegate hook` call costs, as the agent pays it: a whole process.

Generates Claude Code sessions of 1, 10 and 100 MB (bench/check_corpus.py:
many earlier turns with long tool outputs) and ends each with the bundled
example's diagnostic turn (examples/transcripts/export-blocked.jsonl: a
prompt, two probes, an unsupported cause), so every call judges a real
turn and blocks. Then, fresh process per run, after warm-up:

  hook, last_assistant_message present   (Claude Code >= 2.0 sends it)
  hook, last_assistant_message absent    (the final text read from the file)
  hook on the tiny example transcript     (start-up alone)
  hook --server URL on the 10 MB session  (the round trip through a daemon)
  causegate --version                     (process start, no packs)
  causegate rules lint                    (every pack compiled: the compile time)
  /bin/true                               (the machine's process floor)

and prints median and p95 wall time, peak RSS of each, and the ratios that
matter: 100 MB over 1 MB (flat in the transcript's size?) and hook over
process start. With CAUSEGATE_LOG=debug the hook reports where its time
went (loading packs, reading the transcript, judging incl. compiling the
sets it needed); the median of each is printed too.

Usage: bench/hook_bench.py [--bin build/causegate] [--sizes 1,10,100]
                           [--runs 30] [--work /tmp/causegate-hook-bench]
                           [--json FILE]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import check_corpus  # noqa: E402  (bench/ is not a package)

MB = 1 << 20
EXAMPLE = os.path.join(REPO, "examples", "transcripts", "export-blocked")
TIMING = re.compile(r"load packs ([\d.]+) ms, read ([\d.]+) ms, judge ([\d.]+) ms, peak RSS ([\d.]+) MiB")


def session(work, mb):
    """History of about mb MB, then the example's judged turn (cached)."""
    path = os.path.join(work, "session-%gMB.jsonl" % mb)
    if os.path.exists(path):
        return path
    history = path + ".history"
    check_corpus.write_session(history, int(mb * MB), seed=7000 + int(mb * 10), codex=False)
    with open(path + ".tmp", "wb") as out:
        with open(history, "rb") as f:
            out.write(f.read())
        with open(EXAMPLE + ".jsonl", "rb") as f:
            out.write(f.read())
    os.replace(path + ".tmp", path)
    os.remove(history)
    return path


def payload(transcript, with_message):
    p = json.load(open(EXAMPLE + ".payload.json"))
    p["transcript_path"] = transcript
    if not with_message:
        del p["last_assistant_message"]
    return json.dumps(p).encode()


def measure(name, argv, stdin, runs, warmup, env, expect_block):
    """Fresh process per run. Peak RSS: the hook's own figure from its
    debug line; for other commands wait4's, which is inflated by the harness."""
    times, parts = [], []
    peak = 0
    for i in range(warmup + runs):
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        proc.stdin.write(stdin)
        proc.stdin.close()
        out = proc.stdout.read()
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            raise SystemExit("%s: exit %d: %s" % (name, proc.returncode, err.decode(errors="replace")[:300]))
        if expect_block and b'"decision":"block"' not in out.replace(b" ", b""):
            raise SystemExit("%s: expected a block, got %r" % (name, out[:200]))
        if i < warmup:
            continue
        times.append(elapsed * 1000)
        # ru_maxrss also counts the Python parent's memory copied before exec;
        # the hook's own figure (VmHWM) is exact, so prefer it.
        m = TIMING.search(err.decode(errors="replace"))
        if m:
            parts.append(tuple(float(x) for x in m.groups()))
            peak = max(peak, float(m.group(4)) * 1024)
        else:
            peak = max(peak, usage.ru_maxrss)
    times.sort()
    row = {
        "name": name,
        "runs": runs,
        "median_ms": statistics.median(times),
        "p95_ms": times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))],
        "peak_rss_mb": peak / 1024,
    }
    if parts:
        row["load_ms"], row["read_ms"], row["judge_ms"] = (statistics.median(p[i] for p in parts) for i in range(3))
    else:
        row["rss_note"] = "ru_maxrss, includes the harness's pre-exec memory"
    return row


def start_daemon(binary, work):
    """causegate serve on a free loopback port, allowed to read work/."""
    port_file = os.path.join(work, "daemon.port")
    if os.path.exists(port_file):
        os.remove(port_file)
    proc = subprocess.Popen([binary, "serve", "--listen", "127.0.0.1:0", "--port-file", port_file,
                             "--root", os.path.abspath(work)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while not os.path.exists(port_file) or not open(port_file).read().strip():
        if proc.poll() is not None or time.time() > deadline:
            raise SystemExit("causegate serve did not start")
        time.sleep(0.02)
    return proc, "http://" + open(port_file).read().strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "causegate"))
    ap.add_argument("--sizes", default="1,10,100")
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--work", default="/tmp/causegate-hook-bench")
    ap.add_argument("--json", help="also write the rows as JSON here")
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        print("no binary at %s (build first: make)" % binary, file=sys.stderr)
        return 2
    os.makedirs(args.work, exist_ok=True)
    env = dict(os.environ, CAUSEGATE_LOG="debug", NO_COLOR="1")
    hook = [binary, "hook", "--agent", "claude-code"]
    sizes = [float(s) for s in args.sizes.split(",")]

    rows = []
    floor = measure("/bin/true", ["/bin/true"], b"", args.runs, args.warmup, env, False)
    rows.append(floor)
    rows.append(measure("causegate --version", [binary, "--version"], b"", args.runs, args.warmup, env, False))
    # Every built-in pack parsed and compiled at load (lint compiles
    # eagerly): this row minus --version is the whole packs' compile time.
    rows.append(measure("causegate rules lint (all packs compiled)", [binary, "rules", "lint"], b"", args.runs,
                        args.warmup, env, False))
    tiny = os.path.join(REPO, "examples", "transcripts", "export-blocked.jsonl")
    rows.append(measure("hook, tiny transcript (start-up)", hook, payload(tiny, True), args.runs, args.warmup, env, True))
    by_size = {}
    for mb in sizes:
        path = session(args.work, mb)
        real_mb = os.path.getsize(path) / MB
        for with_message in (True, False):
            name = "hook, %.0f MB, last_assistant_message %s" % (real_mb, "present" if with_message else "absent")
            row = measure(name, hook, payload(path, with_message), args.runs, args.warmup, env, True)
            row["transcript_mb"] = real_mb
            rows.append(row)
            by_size[(mb, with_message)] = row

    # The same 10 MB stop through a resident daemon: the hook process only
    # forwards its input (hook --server), the daemon has the packs compiled.
    mid = sorted(sizes)[len(sizes) // 2]
    daemon = start_daemon(binary, args.work)
    try:
        row = measure("hook --server (daemon), %.0f MB, message absent" % by_size[(mid, False)]["transcript_mb"],
                      hook + ["--server", daemon[1]], payload(session(args.work, mid), False),
                      args.runs, args.warmup, env, True)
        rows.append(row)
    finally:
        daemon[0].terminate()
        daemon[0].wait(timeout=20)

    print("%-50s %9s %9s %9s %8s %8s %8s" % ("what", "p50 ms", "p95 ms", "RSS MB", "load", "read", "judge"))
    for r in rows:
        print("%-50s %9.2f %9.2f %9s %8s %8s %8s" % (
            r["name"], r["median_ms"], r["p95_ms"], "%.1f%s" % (r["peak_rss_mb"], "*" if "rss_note" in r else ""),
            *("%.2f" % r[k] if k in r else "-" for k in ("load_ms", "read_ms", "judge_ms"))))
    print("* ru_maxrss from wait4: includes the Python harness's memory copied before exec")
    if len(sizes) >= 2:
        lo, hi = min(sizes), max(sizes)
        for with_message in (True, False):
            a, b = by_size[(lo, with_message)], by_size[(hi, with_message)]
            print("ratio %g MB / %g MB (message %s): time %.2fx, peak RSS %.2fx" % (
                hi, lo, "present" if with_message else "absent",
                b["median_ms"] / a["median_ms"], b["peak_rss_mb"] / a["peak_rss_mb"]))
    start = rows[3]["median_ms"]
    print("compiling every pack: %.2f ms (rules lint minus --version)" % (rows[2]["median_ms"] - rows[1]["median_ms"]))
    print("hook on the tiny transcript: %.2fx causegate --version, %.2fx /bin/true" % (
        start / rows[1]["median_ms"], start / floor["median_ms"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
