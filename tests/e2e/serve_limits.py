#!/usr/bin/env python3
"""The daemon's limits at the sizes of the attacks they answer (issue 15):
bodies bounded on every transfer coding, the token checked before a body
is read, the state folder capped across conversations, and the audit log
repaired after a torn last line.

Each attack is measured as the daemon's peak RSS (VmHWM) before and after;
before these limits a 1 MB gzip body took it from 13 MB to 1,070 MB and
Cursor-shaped events wrote 100 MB of session logs in 2.4 s, with no bound
on the number of conversations.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import sys
import threading
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from serve_util import Checks, Daemon, transcript  # noqa: E402

UNSUPPORTED = "The job died because the node ran out of memory."
TOKEN = "t0ken-for-the-limits-test-0123456789"
MIB = 1 << 20
# Peak RSS a refused body may add: the 8 MiB body limit, plus buffers.
BODY_PEAK_ALLOWANCE = 24 * MIB


def status_kb(pid, field):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def raw_exchange(d, head, body_chunks=(), read_timeout=20):
    """Sends head, then the body chunks from a thread (ignoring a reset: the
    daemon may hang up once it has answered), and returns the answer bytes
    read until the daemon closes, and the seconds until the first byte."""
    sock = socket.create_connection((d.host, d.port), timeout=read_timeout)
    sock.sendall(head)

    def send_body():
        try:
            for chunk in body_chunks:
                sock.sendall(chunk)
        except OSError:
            pass

    sender = threading.Thread(target=send_body, daemon=True)
    start = time.monotonic()
    sender.start()
    answer = b""
    first = None
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                break
            if first is None:
                first = time.monotonic() - start
            answer += data
    except OSError:
        pass
    sock.close()
    sender.join(timeout=30)
    return answer, first


def chunked(total, piece=64 * 1024):
    block = b"x" * piece
    header = b"%x\r\n" % piece
    sent = 0
    while sent < total:
        yield header + block + b"\r\n"
        sent += piece
    yield b"0\r\n\r\n"


def gzip_bomb(inflated):
    """A gzip stream of `inflated` zero bytes (1 GB compresses to about 1 MB)."""
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    zeros = bytes(MIB)
    out = [z.compress(zeros) for _ in range(inflated // MIB)]
    out.append(z.flush())
    return b"".join(out)


def test_bodies(c, binary, work):
    root = os.path.join(work, "root")
    payload = transcript(os.path.join(root, "t.jsonl"), UNSUPPORTED)
    d = Daemon(binary, work, ["--root", root], name="bodies")
    try:
        pid = d.proc.pid
        status, _, _ = d.request("POST", "/hook", payload)
        c.check(status == 200, "warm-up request: %r" % status)
        base_rss, base_peak = status_kb(pid, "VmRSS"), status_kb(pid, "VmHWM")

        # 100 MB chunked: read up to the 8 MiB limit, then 413.
        head = b"POST /hook HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        answer, _ = raw_exchange(d, head, chunked(100 * MIB))
        c.check(answer.startswith(b"HTTP/1.1 413"), "chunked 100 MB: %r" % answer[:80])
        peak = status_kb(pid, "VmHWM")
        c.check(peak - base_peak < BODY_PEAK_ALLOWANCE,
                "chunked 100 MB: peak RSS grew %.1f MB" % ((peak - base_peak) / MIB))
        print("  chunked 100 MB: 413; RSS %.1f -> %.1f MB, peak %.1f -> %.1f MB" % (
            base_rss / MIB, status_kb(pid, "VmRSS") / MIB, base_peak / MIB, peak / MIB))

        # A body with no length at all: no body (RFC 9112), answered at once.
        answer, first = raw_exchange(d, b"POST /hook HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        c.check(answer.startswith(b"HTTP/1.1 200") and b"Causegate-Fail-Open" in answer and first < 2,
                "length-less POST: %r after %r s" % (answer[:80], first))

        # 1 MB of gzip that inflates to 1 GB: 415, never inflated.
        bomb = gzip_bomb(1024 * MIB)
        for coding in ["gzip", "deflate"]:
            before = status_kb(pid, "VmHWM")
            head = (b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Encoding: %s\r\nContent-Length: %d\r\n\r\n"
                    % (coding.encode(), len(bomb)))
            answer, _ = raw_exchange(d, head, [bomb])
            after = status_kb(pid, "VmHWM")
            c.check(answer.startswith(b"HTTP/1.1 415") and b"uncompressed" in answer,
                    "%s body: %r" % (coding, answer[:120]))
            c.check(after - before < 4 * MIB, "%s body: peak RSS grew %.1f MB" % (coding, (after - before) / MIB))
            print("  %s %.1f MB (inflates to 1 GB): 415; peak RSS %.1f -> %.1f MB" % (
                coding, len(bomb) / MIB, before / MIB, after / MIB))

        # The same bomb chunked: refused on its header too.
        head = b"POST /v1/judge HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
        answer, _ = raw_exchange(d, head, [b"%x\r\n" % len(bomb), bomb, b"\r\n0\r\n\r\n"])
        c.check(answer.startswith(b"HTTP/1.1 415"), "gzip chunked: %r" % answer[:80])

        status, _, body = d.request("POST", "/hook", payload)
        c.check(status == 200 and b'"block"' in body, "still judging afterwards: %r" % status)
        final_peak = status_kb(pid, "VmHWM")
        c.check(final_peak - base_peak < BODY_PEAK_ALLOWANCE,
                "peak RSS over every body attack grew %.1f MB" % ((final_peak - base_peak) / MIB))
    finally:
        c.check(d.stop() == 0, "bodies daemon exit code")


def test_token_before_body(c, binary, work):
    root = os.path.join(work, "root")
    payload = transcript(os.path.join(root, "tok.jsonl"), UNSUPPORTED)
    env = dict(os.environ, CG_LIMITS_TOKEN=TOKEN)
    d = Daemon(binary, work, ["--root", root, "--token-env", "CG_LIMITS_TOKEN"], env=env, name="token")
    try:
        pid = d.proc.pid
        base_peak = status_kb(pid, "VmHWM")
        # 100 MB announced, not a byte of it sent: the 401 comes at once.
        answer, first = raw_exchange(d, b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n")
        c.check(answer.startswith(b"HTTP/1.1 401") and first is not None and first < 1,
                "unauthenticated 100 MB head: %r after %r s" % (answer[:60], first))
        # Expect: 100-continue gets the 401 instead of the go-ahead.
        answer, _ = raw_exchange(d, b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n"
                                    b"Expect: 100-continue\r\n\r\n")
        c.check(answer.startswith(b"HTTP/1.1 401") and b"100 Continue" not in answer,
                "unauthenticated Expect: %r" % answer[:60])
        # 50 MB chunked, unauthenticated: refused on its head, never read.
        answer, _ = raw_exchange(d, b"POST /v1/judge HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
                                 chunked(50 * MIB))
        c.check(answer == b"" or answer.startswith(b"HTTP/1.1 401"), "unauthenticated chunked: %r" % answer[:60])
        peak = status_kb(pid, "VmHWM")
        c.check(peak - base_peak < 4 * MIB, "unauthenticated bodies: peak RSS grew %.1f MB" % ((peak - base_peak) / MIB))
        # A small unauthenticated body still reads its 401 (no reset).
        status, _, body = d.request("POST", "/hook", payload)
        c.check(status == 401 and b"bearer token" in body, "small unauthenticated body: %r" % status)
        status, _, body = d.request("POST", "/hook", payload, {"Authorization": "Bearer " + TOKEN})
        c.check(status == 200 and b'"block"' in body, "with the token: judged: %r" % status)
    finally:
        c.check(d.stop() == 0, "token daemon exit code")


def cursor_event(conversation, event, **fields):
    doc = {"conversation_id": conversation, "generation_id": "g", "model": "m", "cursor_version": "1.7.2",
           "workspace_roots": ["/"], "hook_event_name": event}
    doc.update(fields)
    return json.dumps(doc)


def folder_bytes(path):
    total, files = 0, 0
    for dirpath, _, names in os.walk(path):
        for name in names:
            total += os.path.getsize(os.path.join(dirpath, name))
            files += 1
    return total, files


def test_state_folder_cap(c, binary, work):
    """The state folder already past 1,000 files and near 128 MiB (older
    conversations, as an earlier flood left them), then 20 MB of
    Cursor-shaped events for new conversations through the daemon: the
    folder stays within both caps (gate/state_cap.h), the least recently
    written files go, the new conversations stay."""
    state = os.path.join(work, "state")
    folder = os.path.join(state, "causegate")
    logs = os.path.join(folder, "sessions", "cursor")
    loops = os.path.join(folder, "loop")
    os.makedirs(logs)
    os.makedirs(loops)
    now = time.time()
    old_log = b"x" * (4 * MIB)
    for i in range(30):  # 120 MiB
        path = os.path.join(logs, "old-%02d.jsonl" % i)
        with open(path, "wb") as f:
            f.write(old_log)
        os.utime(path, (now - 3600 + i, now - 3600 + i))
    for i in range(980):  # 1,010 files with the logs
        path = os.path.join(loops, "codex-old-%03d.json" % i)
        with open(path, "w") as f:
            f.write('{"turn":"t","blocks":1,"updated":0}\n')
        os.utime(path, (now - 7200 + i, now - 7200 + i))

    env = dict(os.environ, XDG_STATE_HOME=state)
    d = Daemon(binary, work, ["--root", os.path.join(work, "root")], env=env, name="state")
    output = "y" * (2 * MIB)
    start = time.monotonic()
    try:
        for i in range(10):
            conv = "conv-%03d" % i
            d.request("POST", "/hook", cursor_event(conv, "beforeSubmitPrompt", prompt="why?", attachments=[]))
            status, _, _ = d.request("POST", "/hook", cursor_event(conv, "afterShellExecution", command="cat big.log",
                                                                 output=output, duration=5))
            c.check(status == 200, "event %d: %r" % (i, status))
    finally:
        c.check(d.stop() == 0, "state daemon exit code")
    took = time.monotonic() - start
    total, files = folder_bytes(folder)
    print("  120 MiB and 1,010 files, then 20 MB of events in %.1f s: state folder %.1f MB in %d files" % (
        took, total / MIB, files))
    c.check(total <= 128 * MIB, "state folder over its byte cap: %.1f MB" % (total / MIB))
    c.check(files <= 1000, "state folder over its file cap: %d files" % files)
    c.check(not os.path.exists(os.path.join(loops, "codex-old-000.json")), "oldest file evicted first")
    c.check(not os.path.exists(os.path.join(logs, "old-00.jsonl")), "oldest conversation log evicted")
    c.check(os.path.exists(os.path.join(logs, "old-29.jsonl")), "the most recent older log kept")
    c.check(all(os.path.exists(os.path.join(logs, "conv-%03d.jsonl" % i)) for i in range(10)),
            "every new conversation kept")


def test_audit_torn_tail(c, binary, work):
    root = os.path.join(work, "root")
    payload = transcript(os.path.join(root, "audit.jsonl"), UNSUPPORTED)
    audit = os.path.join(work, "audit", "audit.jsonl")
    os.makedirs(os.path.dirname(audit), exist_ok=True)
    args = ["--root", root, "--audit-log", audit, "--log-text"]
    d = Daemon(binary, work, args, name="audit1")
    try:
        d.request("POST", "/hook", payload)
    finally:
        # kill -9 cannot be caught: whatever is on disk stays as it is.
        d.proc.send_signal(signal.SIGKILL)
        d.stop(sig=None)
    with open(audit, "rb") as f:
        first = f.read()
    # A record cut mid-write, as kill -9 or a full disk leaves it.
    with open(audit, "ab") as f:
        f.write(first[: len(first) // 2])
    d = Daemon(binary, work, args, name="audit2")
    try:
        d.request("POST", "/hook", payload)
    finally:
        c.check(d.stop() == 0, "audit daemon exit code")
    with open(audit, "rb") as f:
        text = f.read()
    lines = text.split(b"\n")
    c.check(text.endswith(b"\n") and lines[-1] == b"", "audit log ends in a newline")
    parsed = []
    for line in lines[:-1]:
        try:
            parsed.append(json.loads(line))
        except ValueError:
            c.check(False, "audit line does not parse: %r" % line[:80])
    c.check(len(parsed) == 2 and all(p["decision"] == "block" for p in parsed), "audit records: %d" % len(parsed))
    c.check("removed a torn last line" in d.stderr(), "torn line repair logged")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    c = Checks()
    for test in [test_bodies, test_token_before_body, test_state_folder_cap, test_audit_torn_tail]:
        print(test.__name__)
        test(c, args.bin, os.path.join(args.work, test.__name__))
    shutil.rmtree(args.work, ignore_errors=True)
    return c.report("serve_limits")


if __name__ == "__main__":
    sys.exit(main())
