#!/usr/bin/env python3
"""The daemon under clients that do not behave: many idle connections, and
clients that trickle their request a byte at a time. Either way the daemon
must keep answering well-behaved clients (issue 8's catalogue).

The daemon runs with two workers and a 500 ms read timeout, so a single
misbehaving connection can hold a worker for at most that long between
bytes; the checks are that /healthz and a real POST /hook still answer
within a few seconds while the bad clients are connected, and that the
daemon is still up afterwards.
"""
import argparse
import json
import os
import shutil
import socket
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from serve_util import Checks, Daemon, transcript  # noqa: E402

UNSUPPORTED = "The job died because the node ran out of memory."
# Scaled for the slower sanitiser build (make sanitize sets the scale).
ANSWER_WITHIN_S = 10 * float(os.environ.get("CAUSEGATE_TEST_TIME_SCALE", "1"))


def timed(d, method, path, body=None):
    start = time.monotonic()
    try:
        status, _, data = d.request(method, path, body, timeout=ANSWER_WITHIN_S)
    except OSError as e:
        return None, str(e), time.monotonic() - start
    return status, data, time.monotonic() - start


def check_served(c, d, payload, when):
    """/healthz and a real POST /hook both answer in time."""
    status, _, took = timed(d, "GET", "/healthz")
    c.check(status == 200, "healthz %s: %r after %.1f s" % (when, status, took))
    status, data, took = timed(d, "POST", "/hook", payload)
    c.check(status == 200 and b'"block"' in (data or b""), "POST /hook %s: %r after %.1f s" % (when, status, took))


class Trickler(threading.Thread):
    """Sends a POST /hook one byte every `gap` seconds until stopped."""

    def __init__(self, host, port, body, gap):
        super().__init__(daemon=True)
        self.request = (b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        b"Content-Length: %d\r\n\r\n" % len(body)) + body
        self.host, self.port, self.gap = host, port, gap
        self.stop = threading.Event()
        self.closed_by_daemon = False

    def run(self):
        try:
            with socket.create_connection((self.host, self.port), timeout=5) as s:
                for i in range(len(self.request)):
                    if self.stop.is_set():
                        return
                    s.sendall(self.request[i:i + 1])
                    time.sleep(self.gap)
        except OSError:
            self.closed_by_daemon = True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    root = os.path.join(args.work, "root")
    payload = transcript(os.path.join(root, "t.jsonl"), UNSUPPORTED)
    config = os.path.join(args.work, "config.json")
    with open(config, "w") as f:
        json.dump({"read_timeout_ms": 500, "max_queued_connections": 64}, f)
    c = Checks()
    d = Daemon(args.bin, args.work, ["--root", root, "--threads", "2", "--config", config], name="clients")
    try:
        # Many idle connections: connected, never a byte sent.
        idle = [socket.create_connection((d.host, d.port), timeout=5) for _ in range(40)]
        check_served(c, d, payload, "with 40 idle connections open")
        for s in idle:
            s.close()

        # Clients that trickle: more of them than workers, each a byte per
        # 300 ms (inside the read timeout, so no single read times out).
        tricklers = [Trickler(d.host, d.port, payload.encode(), 0.3) for _ in range(4)]
        for t in tricklers:
            t.start()
        time.sleep(1.0)
        check_served(c, d, payload, "with 4 trickling clients on 2 workers")
        for t in tricklers:
            t.stop.set()
        for t in tricklers:
            t.join(timeout=5)

        status, _, _ = timed(d, "GET", "/healthz")
        c.check(status == 200 and d.proc.poll() is None, "daemon still serving afterwards")
    finally:
        code = d.stop()
    c.check(code == 0, "daemon exit code %r" % code)
    shutil.rmtree(args.work, ignore_errors=True)
    return c.report("serve_clients")


if __name__ == "__main__":
    sys.exit(main())
