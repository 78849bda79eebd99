#!/usr/bin/env python3
"""What a stop costs with the resident gate: the hook process against a warm
daemon (gate/HOOKS.md, "The resident gate"), beside local judging measured
in the same run.

On the 10 MB session of bench/hook_bench.py (many earlier turns, then the
bundled example's blocked turn), in a HOME, config and runtime folder of
its own with "resident": true, after a warm-up that starts the daemon:

  /bin/true                              (the machine's process floor)
  causegate hook, CAUSEGATE_RESIDENT=0   (local judging: the baseline)
  causegate hook, warm daemon            (the full binary as the client)
  causegate-hook hook, warm daemon       (the static client init --resident registers)
  peers, when installed (claimcheck)     (fetched by nothing: skipped when absent)

Wall time: fresh process per run, median and p95. Instructions: callgrind
`Ir` of the client process alone (the daemon's judging is its own process;
its CPU per verdict is serve_load.py's subject), one run each, since
callgrind counts do not move with load. Prints the ratios against the
baseline and whether the targets of issue 18 hold (p50 <= 3 ms, <= 1.5 M
instructions for the client path).

Usage: bench/resident_bench.py [--bin build/causegate] [--runs 30] [--mb 10]
                               [--work /tmp/causegate-resident-bench]
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
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import hook_bench  # noqa: E402  (bench/ is not a package)

COLLECTED = re.compile(rb"Collected : (\d+)")


def run_once(argv, stdin, env):
    start = time.perf_counter()
    p = subprocess.run(argv, input=stdin, capture_output=True, env=env)
    elapsed = (time.perf_counter() - start) * 1000
    if p.returncode != 0:
        raise SystemExit("%s: exit %d: %s" % (" ".join(argv), p.returncode, p.stderr[:300]))
    if b'"decision":"block"' not in p.stdout:
        raise SystemExit("%s: expected a block, got %r (stderr %r)" % (" ".join(argv), p.stdout[:200], p.stderr[:300]))
    return elapsed


def percentiles(times):
    times = sorted(times)
    return statistics.median(times), times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]


def wall(argv, stdin, env, runs, warmup=3):
    for _ in range(warmup):
        run_once(argv, stdin, env)
    return percentiles([run_once(argv, stdin, env) for _ in range(runs)])


def instructions(argv, stdin, env, work):
    if shutil.which("valgrind") is None:
        return None
    out = os.path.join(work, "callgrind.out")
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + argv, input=stdin,
                       capture_output=True, env=env)
    m = COLLECTED.search(p.stderr)
    return int(m.group(1)) if m else None


def served(binary, env):
    p = subprocess.run([binary, "status"], capture_output=True, text=True, env=env)
    m = re.search(r"(\d+) verdicts served", p.stdout)
    return int(m.group(1)) if m else -1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "causegate"))
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--mb", type=float, default=10)
    ap.add_argument("--work", default="/tmp/causegate-resident-bench")
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    client = os.path.join(os.path.dirname(binary), "causegate-hook")
    for b in (binary, client):
        if not os.access(b, os.X_OK):
            print("no binary at %s (build first: make)" % b, file=sys.stderr)
            return 2
    os.makedirs(args.work, exist_ok=True)
    transcript = hook_bench.session(args.work, args.mb)
    stdin = hook_bench.payload(transcript, False)
    home = os.path.join(args.work, "home")
    runtime = os.path.join(args.work, "run")
    for d in (home, os.path.join(home, ".config", "causegate"), runtime):
        os.makedirs(d, exist_ok=True)
    os.chmod(runtime, 0o700)
    with open(os.path.join(home, ".config", "causegate", "config.json"), "w") as f:
        json.dump({"resident": True}, f)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CAUSEGATE_", "XDG_"))}
    env.update(HOME=home, XDG_RUNTIME_DIR=runtime, NO_COLOR="1")
    local_env = dict(env, CAUSEGATE_RESIDENT="0")
    hook = ["hook", "--agent", "claude-code"]

    subprocess.run([binary, "status", "--stop"], capture_output=True, env=env)
    time.sleep(0.3)
    run_once([binary] + hook, stdin, env)  # no daemon yet: judged locally, one started
    deadline = time.time() + 20
    while served(binary, env) < 0:
        if time.time() > deadline:
            raise SystemExit("the resident daemon did not start")
        time.sleep(0.05)
    for _ in range(5):  # warm: its rule sets compiled, the session's pages cached
        run_once([binary] + hook, stdin, env)

    rows = []

    def row(name, argv, row_env, resident):
        before = served(binary, env)
        p50, p95 = wall(argv, stdin, row_env, args.runs)
        ir = instructions(argv, stdin, row_env, args.work)
        got = served(binary, env) - before
        if resident and got < args.runs:
            raise SystemExit("%s: the daemon served %d of at least %d runs" % (name, got, args.runs))
        if not resident and got != 0:
            raise SystemExit("%s: the daemon served %d runs of a local row" % (name, got))
        rows.append({"name": name, "p50": p50, "p95": p95, "ir": ir})

    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        subprocess.run(["/bin/true"])
        times.append((time.perf_counter() - start) * 1000)
    p50, p95 = percentiles(times)
    rows.append({"name": "/bin/true", "p50": p50, "p95": p95, "ir": None})
    row("causegate hook, local (CAUSEGATE_RESIDENT=0)", [binary] + hook, local_env, False)
    row("causegate hook, warm daemon", [binary] + hook, env, True)
    row("causegate-hook hook, warm daemon", [client] + hook, env, True)
    peers = []
    for peer in ("claimcheck",):
        if shutil.which(peer) is None:
            peers.append("%s: not installed, skipped" % peer)

    size = os.path.getsize(transcript) / (1 << 20)
    print("session: %.1f MB, last turn blocked; %d runs per row, fresh process each" % (size, args.runs))
    print("%-46s %9s %9s %14s" % ("what", "p50 ms", "p95 ms", "instructions"))
    for r in rows:
        print("%-46s %9.2f %9.2f %14s" % (r["name"], r["p50"], r["p95"], "{:,}".format(r["ir"]) if r["ir"] else "-"))
    for line in peers:
        print("peer " + line)
    local, full, small = rows[1], rows[2], rows[3]
    if small["ir"] and full["ir"] and local["ir"]:
        print("instructions: local / causegate-hook %.0fx, causegate hook (daemon) / causegate-hook %.1fx" % (
            local["ir"] / small["ir"], full["ir"] / small["ir"]))
    print("wall p50: local / causegate-hook %.1fx, causegate hook (daemon) / causegate-hook %.2fx" % (
        local["p50"] / small["p50"], full["p50"] / small["p50"]))
    print("targets (issue 18, client path, warm daemon): p50 <= 3 ms: %s (%.2f ms); <= 1.5 M instructions: %s (%s)" % (
        "yes" if small["p50"] <= 3 else "NO", small["p50"],
        "yes" if small["ir"] and small["ir"] <= 1_500_000 else "NO", "{:,}".format(small["ir"]) if small["ir"] else "-"))
    subprocess.run([binary, "status", "--stop"], capture_output=True, env=env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
