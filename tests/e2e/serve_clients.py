#!/usr/bin/env python3
"""The daemon under clients that do not behave, at the sizes measured
against it (issue 15): 500 idle connections and 100 clients trickling their
request a byte every 2 s, at once, on the default settings. Before the
connection lobby, 80 kept-alive clients were enough to leave new requests
unanswered for 20-30 s, and an agent using the http hook then stops
unjudged.

Checks: a real POST /hook is answered within ANSWER_WITHIN_S while they are
all connected; each trickler is cut off when its head's time (read_timeout_ms,
5 s) runs out, however regularly its bytes come; past max_connections the
longest-waiting connections are closed to make room and new requests still
get in. Prints the latency and the daemon's RSS.
"""
import argparse
import json
import os
import resource
import select
import shutil
import socket
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from serve_util import Checks, Daemon, raw_hook_request, transcript  # noqa: E402

UNSUPPORTED = "The job died because the node ran out of memory."
SCALE = float(os.environ.get("CAUSEGATE_TEST_TIME_SCALE", "1"))
ANSWER_WITHIN_S = 2 * SCALE
IDLE = 500
TRICKLERS = 100
TRICKLE_GAP_S = 2.0
HEAD_TIMEOUT_S = 5.0  # read_timeout_ms's default


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def timed_hook(d, payload):
    start = time.monotonic()
    try:
        status, _, data = d.request("POST", "/hook", payload, timeout=30)
    except OSError as e:
        return None, str(e).encode(), time.monotonic() - start
    return status, data, time.monotonic() - start


class Trickler(threading.Thread):
    """Sends a POST /hook one byte every `gap` seconds; notes when and how
    the daemon ends the connection."""

    def __init__(self, host, port, body, gap):
        super().__init__(daemon=True)
        self.request = raw_hook_request(body)
        self.host, self.port, self.gap = host, port, gap
        self.stop = threading.Event()
        self.cut_after = None  # seconds from the first byte to the daemon's close
        self.answer = b""

    def run(self):
        try:
            s = socket.create_connection((self.host, self.port), timeout=30)
        except OSError:
            return
        s.setblocking(False)
        start = time.monotonic()
        try:
            for i in range(len(self.request)):
                s.sendall(self.request[i:i + 1])
                if self.stop.wait(self.gap):
                    return
                try:
                    data = s.recv(4096)
                except BlockingIOError:
                    continue
                self.answer = data
                break  # the daemon answered (408) or closed
        except OSError:
            pass  # reset by the daemon: cut off too
        finally:
            s.close()
        self.cut_after = time.monotonic() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4096)), hard))
    shutil.rmtree(args.work, ignore_errors=True)
    root = os.path.join(args.work, "root")
    payload = transcript(os.path.join(root, "t.jsonl"), UNSUPPORTED)
    c = Checks()
    d = Daemon(args.bin, args.work, ["--root", root], name="clients")
    try:
        pid = d.proc.pid
        status, _, took = timed_hook(d, payload)
        c.check(status == 200, "warm-up: %r" % status)
        rss_before = rss_mb(pid)
        quiet = [timed_hook(d, payload)[2] for _ in range(5)]

        # Connecting is not slowed either: httplib's listen backlog of 5
        # dropped SYNs (1 s retransmits) whenever its accept thread waited.
        start = time.monotonic()
        idle = [socket.create_connection((d.host, d.port), timeout=10) for _ in range(IDLE)]
        took = time.monotonic() - start
        c.check(took < ANSWER_WITHIN_S, "%d connections opened in %.2f s" % (IDLE, took))
        tricklers = [Trickler(d.host, d.port, payload.encode(), TRICKLE_GAP_S) for _ in range(TRICKLERS)]
        for t in tricklers:
            t.start()
        time.sleep(1.0)
        loaded = []
        for _ in range(5):
            status, data, took = timed_hook(d, payload)
            loaded.append(took)
            c.check(status == 200 and b'"block"' in (data or b""),
                    "POST /hook with %d idle and %d trickling clients: %r" % (IDLE, TRICKLERS, status))
            time.sleep(0.2)
        rss_loaded = rss_mb(pid)
        worst = max(loaded)
        c.check(worst < ANSWER_WITHIN_S, "POST /hook took %.2f s under load (bound %.1f s)" % (worst, ANSWER_WITHIN_S))
        print("  POST /hook: quiet %.1f ms median; with %d idle + %d trickling: %.1f ms median, %.1f ms worst" % (
            sorted(quiet)[2] * 1000, IDLE, TRICKLERS, sorted(loaded)[2] * 1000, worst * 1000))
        print("  daemon RSS: %.1f MB quiet, %.1f MB with %d connections" % (rss_before, rss_loaded,
                                                                         IDLE + TRICKLERS))

        # Each trickler is cut when its head's time runs out, not served.
        for t in tricklers:
            t.join(timeout=HEAD_TIMEOUT_S + 10)
        cut = [t.cut_after for t in tricklers if t.cut_after is not None and t.cut_after > 0]
        c.check(len(cut) == TRICKLERS, "tricklers cut off: %d of %d" % (len(cut), TRICKLERS))
        c.check(all(t.answer.startswith(b"HTTP/1.1 408") or t.answer == b"" for t in tricklers),
                "tricklers get 408: %r" % [t.answer[:20] for t in tricklers][:3])
        if cut:
            c.check(max(cut) < HEAD_TIMEOUT_S + TRICKLE_GAP_S + 1.5,
                    "a trickler was cut after %.1f s (head timeout %.0f s)" % (max(cut), HEAD_TIMEOUT_S))
        for s in idle:
            s.close()
        status, _, took = timed_hook(d, payload)
        c.check(status == 200 and d.proc.poll() is None, "daemon still serving afterwards")
    finally:
        code = d.stop()
    c.check(code == 0, "daemon exit code %r" % code)

    # Past max_connections, the longest-waiting connections make room.
    config = os.path.join(args.work, "config.json")
    with open(config, "w") as f:
        json.dump({"max_connections": 100, "keep_alive_timeout_s": 60}, f)
    d = Daemon(args.bin, args.work, ["--root", root, "--config", config], name="capped")
    try:
        idle = [socket.create_connection((d.host, d.port), timeout=10) for _ in range(200)]
        time.sleep(0.5)
        status, data, took = timed_hook(d, payload)
        c.check(status == 200 and took < ANSWER_WITHIN_S, "POST /hook past max_connections: %r in %.2f s" % (status, took))
        def closed_by_daemon(s, wait):
            s.settimeout(wait)
            try:
                data = s.recv(64)
            except socket.timeout:
                return False
            except OSError:
                return True
            return data == b"" or data.startswith(b"HTTP/1.1 503")  # closed, or told why first
        oldest = sum(closed_by_daemon(s, 2) for s in idle[:101])
        readable, _, _ = select.select(idle[110:], [], [], 0.2)  # still open: nothing to read
        newest = len(readable)
        c.check(oldest >= 100, "the oldest idle connections were closed: %d of 101" % oldest)
        c.check(newest == 0, "the newest idle connections stay open: %d closed" % newest)
        for s in idle:
            s.close()
    finally:
        c.check(d.stop() == 0, "capped daemon exit code")
    shutil.rmtree(args.work, ignore_errors=True)
    return c.report("serve_clients")


if __name__ == "__main__":
    sys.exit(main())
