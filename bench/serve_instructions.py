#!/usr/bin/env python3
"""Instructions per verdict in `causegate serve` (callgrind; not part of `make test`).

The load figures of serve_load.py move with whatever else the machine runs;
an instruction count does not. This starts the daemon (causegate-serve,
beside --bin) under callgrind twice, sends the serve_load.py turn as POST
/hook WARM times and then WARM + N times, and prints the difference divided
by N: the daemon's instructions for one verdict in a warm daemon, HTTP
included, start-up and the first requests left out. With --keep the
callgrind output of the longer run stays for callgrind_annotate.

Usage: bench/serve_instructions.py --bin build/causegate [--requests 200] [--warm 20]
       [--route /hook|/v1/judge] [--growing] [--keep]

--growing appends one more tool call and a new final message to the
transcript before each request, as a live session grows between stops, so
each stop has new bytes to read and fold (the per-session caches' own case)
instead of the identical turn again.
"""
import argparse
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_load  # noqa: E402


def start(serve_bin, work, root, out_file, name):
    port_file = os.path.join(work, name + ".port")
    log = open(os.path.join(work, name + ".log"), "w")
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out_file, serve_bin, "serve",
           "--port-file", port_file, "--listen", "127.0.0.1:0", "--root", root, "--threads", "2"]
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 120
    while not os.path.exists(port_file):
        if proc.poll() is not None or time.time() > deadline:
            proc.kill()
            sys.exit("serve_instructions: the daemon did not start; see " + log.name)
        time.sleep(0.1)
    with open(port_file) as f:
        host, port = f.read().strip().rsplit(":", 1)
    return proc, host, int(port)


def grow(session, step):
    """One more tool call and a new final message, as the next stop of the session."""
    with open(session) as f:
        rows = f.read().splitlines()
    final = rows.pop()  # the previous final message
    output = "\n".join("step %d line %d: worker-3 rss=%d MiB" % (step, i, 9000 + step * 7 + i) for i in range(40))
    line = serve_load.line
    rows.append(line({"type": "assistant", "uuid": "ag%d" % step, "message": {"id": "mg%d" % step, "role": "assistant",
                      "content": [{"type": "tool_use", "id": "toolu_g%d" % step, "name": "Bash",
                                   "input": {"command": "tail -40 /var/log/etl/rss.log # %d" % step}}]}}))
    rows.append(line({"type": "user", "uuid": "ug%d" % step, "message": {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_g%d" % step, "content": output}]}}))
    doc = json.loads(final)
    doc["message"]["id"] = "mf%d" % step
    doc["message"]["content"][0]["text"] = serve_load.FINAL + "\n- after step %d: `step %d line 3: worker-3`" % (
        step, step)
    rows.append(line(doc))
    with open(session, "w") as f:
        f.write("\n".join(rows) + "\n")


def run(serve_bin, work, root, session, body, route, count, growing, name):
    out_file = os.path.join(work, name + ".callgrind")
    proc, host, port = start(serve_bin, work, root, out_file, name)
    serve_load.write_session(session)
    conn = http.client.HTTPConnection(host, port, timeout=120)
    answers = set()
    for i in range(count):
        if growing:
            grow(session, i)
        conn.request("POST", route, body=body, headers={"Content-Type": "application/json"})
        res = conn.getresponse()
        data = res.read()
        if res.status != 200 or b"block" not in data:
            sys.exit("serve_instructions: request %d: %d %r" % (i, res.status, data[:200]))
        answers.add(data)
    conn.close()
    proc.terminate()
    proc.wait(120)
    with open(out_file) as f:
        text = f.read()
    total = sum(int(m) for m in re.findall(r"^summary: (\d+)", text, re.M)) or sum(
        int(m) for m in re.findall(r"^totals: (\d+)", text, re.M))
    # callgrind writes one file per thread with --separate-threads only; one file here.
    return total, out_file, len(answers)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="build/causegate (causegate-serve is taken from beside it)")
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--warm", type=int, default=20)
    ap.add_argument("--route", default="/hook", choices=["/hook", "/v1/judge"])
    ap.add_argument("--growing", action="store_true")
    ap.add_argument("--keep", action="store_true")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("serve_instructions: valgrind not found (scripts/install-deps --bench)")
    serve_bin = os.path.join(os.path.dirname(os.path.abspath(args.bin)), "causegate-serve")
    work = tempfile.mkdtemp(prefix="causegate-serve-instr-")
    try:
        root = os.path.join(work, "sessions")
        os.makedirs(root)
        session = os.path.join(root, "bench.jsonl")
        if args.route == "/hook":
            body = json.dumps({"session_id": "bench", "transcript_path": session, "cwd": "/opt/etl",
                               "hook_event_name": "Stop", "stop_hook_active": False}).encode()
        else:
            body = serve_load.judge_body().encode()
        short, _, _ = run(serve_bin, work, root, session, body, args.route, args.warm, args.growing, "short")
        long_, out_file, distinct = run(serve_bin, work, root, session, body, args.route, args.warm + args.requests,
                                        args.growing, "long")
        per = (long_ - short) / args.requests
        print("route %s, %s turn: %d requests after %d warm-up ones; %d distinct answers" % (
            args.route, "growing" if args.growing else "the same", args.requests, args.warm, distinct))
        print("daemon instructions: %s (warm-up only) / %s (with the requests)" % (
            format(short, ","), format(long_, ",")))
        print("instructions per verdict: %s" % format(int(per), ","))
        if args.keep:
            print("callgrind output: " + out_file)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
