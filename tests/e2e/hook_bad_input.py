#!/usr/bin/env python3
"""End-to-end: the hook's fail-open contract on bad input. Every case must
exit 0, print nothing or one JSON object on stdout, finish within the time
limit, and (where it cannot judge) say why in one line on stderr."""
import argparse
import json
import os
import shutil
import stat
import subprocess
import sys
import time

TIME_LIMIT_S = 10


def transcript_lines(final):
    """A small valid session: a prompt, one tool call, a final reply."""
    def line(obj):
        return json.dumps(obj, ensure_ascii=False)
    return [
        line({"type": "user", "uuid": "u1", "message": {"role": "user", "content": "why did the job crash?"}}),
        line({"type": "assistant", "uuid": "a1", "message": {"id": "m1", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "dmesg | tail"}}]}}),
        line({"type": "user", "uuid": "u2", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "Out of memory: Killed process 7 (python)"}]}}),
        line({"type": "assistant", "uuid": "a2", "message": {"id": "m2", "role": "assistant", "content": [
            {"type": "text", "text": final}]}}),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    w = lambda name: os.path.join(args.work, name)

    good = w("good.jsonl")
    with open(good, "w") as f:
        f.write("\n".join(transcript_lines("The root cause is a kernel OOM kill.")) + "\n")
    truncated = w("truncated.jsonl")
    with open(truncated, "w") as f:
        lines = transcript_lines("The root cause is a kernel OOM kill.")
        f.write("\n".join(lines) + "\n" + lines[-1][: len(lines[-1]) // 2])
    bad_utf8 = w("bad_utf8.jsonl")
    with open(bad_utf8, "wb") as f:
        body = "\n".join(transcript_lines("The crash is caused by XX in the loader.")).encode()
        f.write(body.replace(b"XX", b"\xff\xfe\xc3") + b"\n")
    fifo = w("fifo.jsonl")
    os.mkfifo(fifo)
    os.makedirs(w("a_directory.jsonl"))

    def payload(path, **extra):
        d = {"session_id": "s", "hook_event_name": "Stop", "stop_hook_active": False, "transcript_path": path}
        d.update(extra)
        return json.dumps(d).encode()

    # (name, stdin bytes, expectation): "open" = fail open with a stderr line;
    # "judged" = a verdict was reached (any decision) and stdout is valid.
    cases = [
        ("empty stdin", b"", "open"),
        ("white space only", b"  \n\t", "open"),
        ("not JSON", b"this is not json", "open"),
        ("JSON array", b"[1,2,3]", "open"),
        ("wrong field type", payload(good, stop_hook_active="yes"), "open"),
        ("not a stop event", payload(good, hook_event_name="PreToolUse"), "open"),
        ("missing transcript", payload(w("nope.jsonl")), "open"),
        ("transcript is a directory", payload(w("a_directory.jsonl")), "open"),
        ("transcript is a FIFO", payload(fifo), "open"),
        ("no transcript path", json.dumps({"hook_event_name": "Stop"}).encode(), "open"),
        ("nested 100,000 deep", b"[" * 100000 + b"]" * 100000, "open"),
        ("9 MB on stdin", b'{"pad":"' + b"x" * (9 << 20) + b'"}', "open"),
        ("NUL bytes", payload(good).replace(b"\"s\"", b"\"s\x00\""), "judged"),
        ("invalid UTF-8 in the message", payload(good).replace(b'"s"', b'"s", "last_assistant_message": "root cause: \xff\xfe"'), "judged"),
        ("invalid UTF-8 in the transcript", payload(bad_utf8), "judged"),
        ("truncated last line", payload(truncated), "judged"),
        ("a good call", payload(good), "judged"),
    ]
    if os.geteuid() != 0:
        unreadable = w("unreadable.jsonl")
        shutil.copy(good, unreadable)
        os.chmod(unreadable, 0)
        cases.append(("unreadable transcript", payload(unreadable), "open"))

    failures = 0
    for name, data, expect in cases:
        start = time.monotonic()
        try:
            p = subprocess.run([args.bin, "hook"], input=data, capture_output=True, timeout=TIME_LIMIT_S)
        except subprocess.TimeoutExpired:
            print("FAIL %s: no answer within %d s" % (name, TIME_LIMIT_S))
            failures += 1
            continue
        took = time.monotonic() - start
        out = p.stdout.decode("utf-8", "replace").strip()
        err = p.stderr.decode("utf-8", "replace").strip()
        problems = []
        if p.returncode != 0:
            problems.append("exit %d" % p.returncode)
        if out:
            try:
                if not isinstance(json.loads(out), dict):
                    problems.append("stdout is JSON but not an object")
            except ValueError:
                problems.append("stdout is not JSON: %r" % out[:80])
        if expect == "open":
            if out:
                problems.append("expected a silent allow, got %r" % out[:80])
            if not err or len(err.splitlines()) != 1:
                problems.append("expected one stderr line, got %r" % err[:200])
        elif expect == "judged" and "fail-open" in err:
            problems.append("expected a verdict, but it failed open: %s" % err[:200])
        status = "FAIL" if problems else "ok  "
        print("%s %-34s %6.0f ms  %s" % (status, name, took * 1000, "; ".join(problems) or err[:100]))
        failures += bool(problems)
    print("%d passed, %d failed" % (len(cases) - failures, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
