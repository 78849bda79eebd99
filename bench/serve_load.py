#!/usr/bin/env python3
"""Load benchmark for `causegate serve` (not part of `make test`).

Builds a realistic debugging turn of about 20 KB (a diagnostic prompt,
eight tool calls with log, dmesg, stack-trace and config output, and a
final message with one cited and one uncited causal claim, so every
verdict is a block), then measures in one run:

  1. POST /hook     (wrk, keep-alive): the daemon reads the turn from the
                    transcript file, judges it, answers the block;
  2. POST /v1/judge (wrk, keep-alive): the same turn inline, ~20 KB body;
  3. `causegate hook` spawned once per request, CONCURRENCY at a time:
                    what an agent pays without the daemon;

and GET /healthz, which judges nothing, as the floor of the HTTP layer.

For each it prints verdicts/s and p50/p99 latency, and checks through
/metrics that every request was judged (no fail-open, no error). For the
daemon it also prints its CPU time per verdict and, of that, the mean time
inside the judging call (reading the turn + judging, from /metrics), which
says how much is HTTP and how much is the gate.
Usage: bench/serve_load.py --bin build/causegate [--duration 10] [--connections 8]
"""
import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
from serve_util import Daemon, metric  # noqa: E402

PROMPT = ("The nightly ETL job on worker-3 died again around 02:10 and the export to the warehouse is "
          "missing. Can you figure out why it crashed and what we should change?")

TOOLS = [
    ("Bash", "systemctl status etl-nightly --no-pager", "\n".join(
        ["● etl-nightly.service - Nightly ETL export",
         "     Loaded: loaded (/etc/systemd/system/etl-nightly.service; enabled)",
         "     Active: failed (Result: signal) since Tue 2026-03-03 02:11:07 UTC; 7h ago",
         "    Process: 48213 ExecStart=/opt/etl/bin/run-export --target warehouse (code=killed, signal=KILL)",
         "   Main PID: 48213 (code=killed, signal=KILL)",
         "        CPU: 41min 12.331s"] +
        ["Mar 03 02:%02d:%02d worker-3 run-export[48213]: batch %d/400 rows=250000 rss=%d MiB" % (
            m // 60, m % 60, m, 9000 + 37 * m) for m in range(40)])),
    ("Bash", "dmesg -T | tail -40", "\n".join(
        ["[Tue Mar  3 02:%02d:%02d 2026] eth0: rx ring %d refill" % (i // 60, i % 60, i) for i in range(25)] +
        ["[Tue Mar  3 02:11:06 2026] run-export invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE), order=0",
         "[Tue Mar  3 02:11:06 2026] Memory cgroup out of memory: Killed process 48213 (run-export) "
         "total-vm:48123456kB, anon-rss:31457280kB, file-rss:2048kB, shmem-rss:0kB, UID:1001 pgtables:61840kB",
         "[Tue Mar  3 02:11:07 2026] oom_reaper: reaped process 48213 (run-export), now anon-rss:0kB"])),
    ("Bash", "journalctl -u etl-nightly --since 01:50 | tail -60", "\n".join(
        ["Mar 03 02:%02d:%02d worker-3 run-export[48213]: INFO merge partition %d of 512: %d rows, spill=%s" % (
            i // 60, i % 60, i, 180000 + 913 * i, "no" if i % 7 else "yes") for i in range(60)])),
    ("Read", "/opt/etl/config/export.yaml", "\n".join(
        ["target: warehouse", "batch_rows: 250000", "parallel_partitions: 16", "sort_buffer: 24GiB",
         "spill_dir: /var/tmp/etl-spill", "memory_limit: none", "retries: 3"] +
        ["  - table: events_%02d\n    key: [tenant_id, ts]\n    dedupe: true" % i for i in range(30)])),
    ("Bash", "cat /sys/fs/cgroup/system.slice/etl-nightly.service/memory.max", "34359738368"),
    ("Grep", "sort_buffer", "\n".join(
        ["/opt/etl/src/merge.py:%d:    buf = bytearray(cfg.sort_buffer)  # allocated per partition" % (120 + i)
         for i in range(3)] + ["/opt/etl/CHANGELOG.md:14:- raise sort_buffer to 24GiB for the Q1 backfill"])),
    ("Bash", "git -C /opt/etl log --oneline -8", "\n".join(
        ["%07x %s" % (0xa1b2c3d + i * 7919, msg) for i, msg in enumerate(
            ["raise sort_buffer to 24GiB for the Q1 backfill", "add events_29 table", "retry warehouse uploads",
             "pin pyarrow 15", "log rss per batch", "split merge into partitions", "ci: cache wheels",
             "docs: export runbook"])])),
    ("Bash", "python3 -c 'import traceback' ; tail -30 /var/log/etl/export.err", "\n".join(
        ["Traceback (most recent call last):",
         '  File "/opt/etl/src/merge.py", line 188, in merge_partition',
         "    buf = bytearray(cfg.sort_buffer)",
         "MemoryError"] +
        ["  previous attempt %d: partition %d retried after MemoryError" % (i, 300 + i) for i in range(26)])),
]

FINAL = (
    "I looked at the unit status, the kernel log, the journal, the export config and the cgroup limit.\n\n"
    "The export was killed by the kernel OOM killer, not by a crash in our code: dmesg shows "
    "`Memory cgroup out of memory: Killed process 48213 (run-export)` at 02:11:06, and systemd records "
    "the service as `Active: failed (Result: signal)`.\n\n"
    "The root cause is the larger sort buffer combined with 16 parallel partitions, which pushes the "
    "process past the 32 GiB cgroup limit.\n\n"
    "Next steps:\n"
    "1. Lower `sort_buffer` to 1GiB or set `parallel_partitions: 4`.\n"
    "2. Set `memory_limit` so the job spills to disk instead of growing.\n"
    "3. Re-run the export for 2026-03-03 once the change is deployed.\n" + "\n".join(
        "- partition %d: %d rows merged before the kill" % (i, 180000 + 913 * i) for i in range(12)))


def line(obj):
    return json.dumps(obj, ensure_ascii=False)


def write_session(path):
    """A Claude Code transcript: one earlier turn, then the judged turn."""
    rows = [line({"type": "user", "uuid": "u0", "message": {"role": "user", "content": "run the export dry-run"}}),
            line({"type": "assistant", "uuid": "a0", "message": {"id": "m0", "role": "assistant", "content": [
                {"type": "text", "text": "The dry run finished: 400 batches planned."}]}}),
            line({"type": "user", "uuid": "u1", "message": {"role": "user", "content": PROMPT}})]
    for i, (name, command, output) in enumerate(TOOLS):
        key = {"Bash": "command", "Read": "file_path", "Grep": "pattern"}[name]
        rows.append(line({"type": "assistant", "uuid": "at%d" % i, "message": {
            "id": "mt%d" % i, "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_%02d" % i, "name": name, "input": {key: command}}]}}))
        rows.append(line({"type": "user", "uuid": "ut%d" % i, "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_%02d" % i, "content": output}]}}))
    rows.append(line({"type": "assistant", "uuid": "af", "message": {"id": "mf", "role": "assistant", "content": [
        {"type": "text", "text": FINAL}]}}))
    with open(path, "w") as f:
        f.write("\n".join(rows) + "\n")


def judge_body():
    return json.dumps({"session_id": "bench", "prompt": PROMPT, "final_message": FINAL, "tool_calls": [
        {"id": "toolu_%02d" % i, "name": n, "command": c, "output": o} for i, (n, c, o) in enumerate(TOOLS)]})


WRK_SCRIPT = """
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = io.open(os.getenv("CAUSEGATE_BENCH_BODY"), "rb")
wrk.body = f:read("*a")
f:close()
"""


def to_ms(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def run_wrk(url, body_file, script, duration, connections, threads, prefix):
    """wrk POSTing body_file over kept-alive connections (script None: plain GETs)."""
    env = dict(os.environ, CAUSEGATE_BENCH_BODY=body_file or "")
    post = ["-s", script] if script else []
    p = subprocess.run(prefix + ["wrk", "-t%d" % threads, "-c%d" % connections, "-d%ds" % duration, "--latency"] +
                       post + [url], capture_output=True, text=True, env=env, timeout=duration + 60)
    out = p.stdout
    if p.returncode != 0 or "Requests/sec" not in out:
        raise RuntimeError("wrk failed:\n" + out + p.stderr)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    lat = {pct: to_ms(re.search(r"\s%s%%\s+([\d.]+\w+)" % pct, out).group(1)) for pct in ("50", "99")}
    total = int(re.search(r"(\d+) requests in", out).group(1))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket_errors = re.search(r"Socket errors: (.*)", out)
    return {"rps": rps, "p50": lat["50"], "p99": lat["99"], "requests": total,
            "non2xx": int(errors.group(1)) if errors else 0,
            "socket_errors": socket_errors.group(1) if socket_errors else ""}


def cpu_seconds(pid):
    """User + system CPU time of a process so far."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_spawn(binary, payload, duration, concurrency, prefix):
    """`causegate hook` once per request, `concurrency` processes at a time."""
    latencies, lock = [], threading.Lock()
    deadline = time.time() + duration
    failures = []

    def worker():
        while time.time() < deadline:
            start = time.perf_counter()
            p = subprocess.run(prefix + [binary, "hook"], input=payload, capture_output=True)
            elapsed = (time.perf_counter() - start) * 1000
            with lock:
                latencies.append(elapsed)
                if p.returncode != 0 or b'"decision":"block"' not in p.stdout:
                    failures.append(p.stderr[:200])

    start = time.time()
    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.time() - start
    latencies.sort()
    pct = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    return {"rps": len(latencies) / wall, "p50": statistics.median(latencies), "p99": pct(0.99),
            "requests": len(latencies), "failures": len(failures)}


def block_count(metrics_text, route):
    """Blocks the daemon counted on route, summed over its other labels (agent)."""
    total = 0.0
    for line in metrics_text.splitlines():
        if not line.startswith("causegate_verdicts_total{"):
            continue
        labels, value = line.rsplit(" ", 1)
        if 'route="%s"' % route in labels and 'decision="block"' in labels:
            total += float(value)
    return total


def peak_rss_mib(pid):
    """The process's own peak resident memory (VmHWM), in MiB."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--duration", type=int, default=10, help="seconds per measurement")
    ap.add_argument("--connections", type=int, nargs="+", default=[8], help="wrk keep-alive connections (one or more)")
    ap.add_argument("--wrk-threads", type=int, default=1)
    ap.add_argument("--threads", type=int, default=16, help="daemon worker threads")
    ap.add_argument("--spawn-concurrency", type=int, default=2)
    ap.add_argument("--nice", type=int, default=None,
                    help="run the daemon, wrk and the spawned hooks at this nice value (e.g. -10 as root, "
                         "to measure on a machine busy with other work)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("serve_load: wrk not found (scripts/install-deps --bench)")
    binary = os.path.abspath(args.bin)
    prefix = [] if args.nice is None else ["nice", "-n", str(args.nice)]
    work = tempfile.mkdtemp(prefix="causegate-serve-bench-")
    try:
        root = os.path.join(work, "sessions")
        os.makedirs(root)
        session = os.path.join(root, "bench.jsonl")
        write_session(session)
        hook_input = json.dumps({"session_id": "bench", "transcript_path": session, "cwd": "/opt/etl",
                                 "hook_event_name": "Stop", "stop_hook_active": False,
                                 "last_assistant_message": FINAL}).encode()
        hook_file = os.path.join(work, "hook.json")
        judge_file = os.path.join(work, "judge.json")
        with open(hook_file, "wb") as f:
            f.write(hook_input)
        with open(judge_file, "w") as f:
            f.write(judge_body())
        script = os.path.join(work, "post.lua")
        with open(script, "w") as f:
            f.write(WRK_SCRIPT)
        turn_bytes = sum(len(c) + len(o) for _, c, o in TOOLS) + len(PROMPT) + len(FINAL)
        print("turn: %d tool calls, %.1f KB of prompt, tool output and final message; transcript %.1f KB; "
              "/v1/judge body %.1f KB" % (len(TOOLS), turn_bytes / 1024, os.path.getsize(session) / 1024,
                                          os.path.getsize(judge_file) / 1024))
        print("nice: %s" % ("default" if args.nice is None else args.nice))
        print("machine: %d cores (%s); load average before: %s" % (
            os.cpu_count(), open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0].split(":", 1)[1].strip(),
            " ".join(open("/proc/loadavg").read().split()[:3])))

        local = subprocess.run([binary, "hook"], input=hook_input, capture_output=True).stdout
        if b'"decision":"block"' not in local:
            sys.exit("serve_load: the bench turn should be blocked; `causegate hook` said %r" % local[:200])

        d = Daemon(binary, work, ["--root", root, "--threads", str(args.threads)], name="bench", prefix=prefix)
        rows = []
        try:
            status, headers, body = d.request("POST", "/hook", hook_input)
            if status != 200 or body != local:
                sys.exit("serve_load: /hook answer differs from `causegate hook`")
            for c in args.connections:
                for route, body_file in [("/hook", hook_file), ("/v1/judge", judge_file)]:
                    before = d.request("GET", "/metrics")[2].decode()
                    cpu_before = cpu_seconds(d.proc.pid)
                    r = run_wrk(d.url + route, body_file, script, args.duration, c, args.wrk_threads, prefix)
                    cpu = cpu_seconds(d.proc.pid) - cpu_before
                    after = d.request("GET", "/metrics")[2].decode()
                    judged = metric(after, "causegate_judge_duration_seconds_count") - metric(
                        before, "causegate_judge_duration_seconds_count")
                    judge_s = metric(after, "causegate_judge_duration_seconds_sum") - metric(
                        before, "causegate_judge_duration_seconds_sum")
                    r["cpu_us"] = cpu / max(1, r["requests"]) * 1e6
                    r["judge_us"] = judge_s / max(1, judged) * 1e6
                    blocks = block_count(after, route) - block_count(before, route)
                    fail_open = metric(after, 'causegate_fail_open_total{route="/hook"}') - metric(
                        before, 'causegate_fail_open_total{route="/hook"}')
                    r["ok"] = r["non2xx"] == 0 and fail_open == 0 and blocks >= r["requests"]
                    rows.append(("POST %s, %d conn" % (route, c), r))
            # The HTTP layer alone: a GET that judges nothing.
            cpu_before = cpu_seconds(d.proc.pid)
            r = run_wrk(d.url + "/healthz", None, None, args.duration, args.connections[0], args.wrk_threads, prefix)
            r["cpu_us"] = (cpu_seconds(d.proc.pid) - cpu_before) / max(1, r["requests"]) * 1e6
            r["judge_us"] = None
            r["ok"] = r["non2xx"] == 0
            rows.append(("GET /healthz (HTTP only, no verdict), %d conn" % args.connections[0], r))
            daemon_peak_mib = peak_rss_mib(d.proc.pid)
        finally:
            d.stop()
        spawn = run_spawn(binary, hook_input, args.duration, args.spawn_concurrency, prefix)
        spawn["ok"] = spawn["failures"] == 0
        spawn["cpu_us"] = spawn["judge_us"] = None
        rows.append(("spawn `causegate hook`, %d at a time" % args.spawn_concurrency, spawn))

        print()
        print("| what | verdicts/s | p50 ms | p99 ms | requests | all judged | daemon CPU us/verdict | judging call us (wall) |")
        print("|---|---:|---:|---:|---:|---|---:|---:|")
        opt = lambda v: "-" if v is None else "%.0f" % v
        for name, r in rows:
            print("| %s | %.0f | %.2f | %.2f | %d | %s | %s | %s |" % (
                name, r["rps"], r["p50"], r["p99"], r["requests"], "yes" if r["ok"] else "NO",
                opt(r["cpu_us"]), opt(r["judge_us"])))
        print("\ndaemon peak RSS after every row: %.1f MiB (VmHWM)" % daemon_peak_mib)
        print("load average after: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
        print("target: >= 5000 verdicts/s with p99 <= 10 ms")
        return 0 if all(r["ok"] for _, r in rows) else 1
    finally:
        if args.keep:
            print("work folder: " + work)
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
