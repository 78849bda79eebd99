#!/usr/bin/env python3
"""Kept-alive connections while a worker waits for their next request
(server/next_head.h): after an answer the worker serving a connection
watches it for a moment, and serves the next request itself if its head
comes in time; otherwise the connection goes back to the lobby. Both ways
must answer as before.

Checks, on one connection each: requests sent back to back (the worker's
way) get the same answer every time; requests sent after a pause longer
than the worker's wait, and a head sent in two parts with such a pause in
between (the lobby's way), are answered; a head that fills the head limit
exactly, right after an answer, is refused with 431 at once (the worker
stops reading at the limit, so no later byte would make the lobby look),
not left to time out; answers and errors arrive whole (head and body are
now sent as one write).
"""
import argparse
import os
import shutil
import socket
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from serve_util import Checks, Daemon, raw_hook_request, transcript  # noqa: E402

UNSUPPORTED = "The job died because the node ran out of memory."
PAUSE_S = 0.05  # well past the worker's 2 ms wait
HEAD_LIMIT = (16 << 10) + (16 << 10)  # max_header_bytes's default + room for the request line


def read_answer(sock):
    """One HTTP answer: (status, body bytes)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return None, data
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(rest) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        rest += chunk
    return int(head.split(b" ")[1]), rest[:length]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    root = os.path.join(args.work, "root")
    payload = transcript(os.path.join(root, "t.jsonl"), UNSUPPORTED)
    c = Checks()
    d = Daemon(args.bin, args.work, ["--root", root], name="keep_alive")
    try:
        one = raw_hook_request(payload.encode())
        with socket.create_connection((d.host, d.port), timeout=10) as s:
            answers = []
            for _ in range(50):
                s.sendall(one)
                answers.append(read_answer(s))
            c.check(all(a[0] == 200 and b'"block"' in a[1] for a in answers), "back to back: %r" % answers[:1])
            c.check(len(set(answers)) == 1, "back to back: %d distinct answers" % len(set(answers)))
            first = answers[0]

            for _ in range(3):
                time.sleep(PAUSE_S)
                s.sendall(one)
                c.check(read_answer(s) == first, "after a %.0f ms pause: the same answer" % (PAUSE_S * 1000))

            cut = one.index(b"\r\n") + 2
            s.sendall(one[:cut])
            time.sleep(PAUSE_S)
            s.sendall(one[cut:])
            c.check(read_answer(s) == first, "a head in two parts, a pause between: the same answer")

            # The next head at once, exactly at the limit and unfinished.
            s.sendall(one)
            c.check(read_answer(s) == first, "before the long head")
            line = b"POST /hook HTTP/1.1\r\nX-Pad: "
            start = time.monotonic()
            s.sendall(line + b"a" * (HEAD_LIMIT - len(line)))
            status, _ = read_answer(s)
            took = time.monotonic() - start
            c.check(status == 431, "a head filling the limit: %r (431 wanted)" % status)
            c.check(took < 3, "431 in %.2f s, not at the head timeout (5 s)" % took)

        with socket.create_connection((d.host, d.port), timeout=10) as s:
            s.sendall(b"GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
            status, body = read_answer(s)
            c.check(status == 404 and b"error" in body, "an error answer arrives whole: %r %r" % (status, body))
    finally:
        code = d.stop()
    c.check(code == 0, "daemon exit code %r" % code)
    shutil.rmtree(args.work, ignore_errors=True)
    return c.report("serve_keep_alive")


if __name__ == "__main__":
    sys.exit(main())
