#!/usr/bin/env python3
"""End-to-end: the hook's fail-open contract on bad input (gate/HOOKS.md,
"Fail open"). Every case must exit 0, print nothing or one JSON object on
stdout, finish within the time limit, and (where it cannot judge) say why
in one line on stderr.

The catalogue of issue 8: empty, non-JSON and wrong-shape input; 9 MB and
100 MB on stdin; JSON nested 100,000 deep on stdin and in a transcript
line; invalid UTF-8 and NUL bytes; a transcript that is missing, a
directory, a FIFO, unreadable, truncated mid-line, holds a 50 MB line, or
is being appended to while it is read; rule packs (--rules) with an
invalid pattern, a pattern past RE2's memory budget, duplicate ids,
10,000 rules, and a pack file nested 100,000 deep."""
import argparse
import contextlib
import json
import os
import shutil
import stat
import subprocess
import sys
import threading
import time

# Sanitizer builds run several times slower; `make sanitize` scales the
# limits with CAUSEGATE_TEST_TIME_SCALE instead of dropping them.
TIME_SCALE = float(os.environ.get("CAUSEGATE_TEST_TIME_SCALE", "1"))
TIME_LIMIT_S = 10 * TIME_SCALE


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


def write_pack(folder, name, rules):
    os.makedirs(folder)
    with open(os.path.join(folder, name + ".json"), "w") as f:
        json.dump({"format": "causegate-pack/1", "pack": name, "version": "1", "lang": "en", "rules": rules}, f)
    return folder


def claim_rule(rule_id, pattern):
    return {"id": rule_id, "kind": "claim", "pattern": pattern, "match": [], "no_match": []}


class Appender:
    """Appends whole session lines to a transcript until stopped, as Claude
    Code does while the hook reads it."""

    def __init__(self, path):
        self.path, self.stop, self.lines = path, threading.Event(), 0
        self.thread = threading.Thread(target=self.run)

    def run(self):
        narration = transcript_lines("Still looking at the logs.")[-1]
        with open(self.path, "a") as f:
            while not self.stop.is_set():
                f.write(narration + "\n")
                f.flush()
                self.lines += 1
                time.sleep(0.0005)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


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

    # A tool result of 50 MB on one line, past the 32 MiB line limit: the
    # line is skipped and the turn judged on the rest.
    long_line = w("long_line.jsonl")
    with open(long_line, "w") as f:
        lines = transcript_lines("The root cause is a kernel OOM kill.")
        f.write(lines[0] + "\n" + lines[1] + "\n")
        f.write(lines[2].replace("Out of memory", "x" * (50 << 20) + " Out of memory") + "\n")
        f.write(lines[3] + "\n")
    deep_line = w("deep_line.jsonl")
    with open(deep_line, "w") as f:
        lines = transcript_lines("The root cause is a kernel OOM kill.")
        f.write("\n".join(lines[:3] + ["[" * 100000 + "]" * 100000, lines[3]]) + "\n")
    appended = w("appended.jsonl")
    shutil.copy(good, appended)

    bad_pattern = write_pack(w("packs_bad_pattern"), "team", [claim_rule("team.claim.x", "(unclosed")])
    # 20,000 repetitions of a Unicode class: far past 2 MiB of RE2 program.
    over_budget = write_pack(w("packs_over_budget"), "team", [
        {"id": "team.evidence-marker.huge", "kind": "evidence-marker", "pattern": "\\pL{1000}" * 20,
         "match": [], "no_match": []}])
    duplicate_ids = write_pack(w("packs_duplicate"), "team", [claim_rule("team.claim.same", "\\bfoo\\b"),
                                                              claim_rule("team.claim.same", "\\bbar\\b")])
    many_rules = write_pack(w("packs_10000"), "bulk", [claim_rule("bulk.claim.r%05d" % i, "\\bzq%dxv\\b" % i)
                                                        for i in range(10000)])
    # A rule that is an array nested 100,000 deep: valid JSON, so located
    # (rules/json_positions.h) before it is refused.
    deep_pack = w("deep_pack.json")
    with open(deep_pack, "w") as f:
        f.write('{"format": "causegate-pack/1", "pack": "deep", "version": "1", "rules": [%s]}'
                % ("[" * 100000 + "]" * 100000))

    def payload(path, **extra):
        d = {"session_id": "s", "hook_event_name": "Stop", "stop_hook_active": False, "transcript_path": path}
        d.update(extra)
        return json.dumps(d).encode()

    # (name, stdin bytes, expectation[, options]): "open" = fail open with a
    # stderr line; "judged" = a verdict was reached (any decision) and stdout
    # is valid. Options: flags before `hook`, wall_s (wall-clock limit),
    # during (a context manager around the call).
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
        # limits::kMaxHookInputBytes (8 MiB) is read and judged; past it, open.
        ("stdin at the 8 MiB limit", payload(good) + b" " * ((8 << 20) - len(payload(good))), "judged"),
        ("9 MB on stdin", b'{"pad":"' + b"x" * (9 << 20) + b'"}', "open"),
        ("100 MB on stdin", b'{"pad":"' + b"x" * (100 << 20) + b'"}', "open"),
        ("a 50 MB transcript line", payload(long_line), "judged"),
        ("a transcript line nested 100,000 deep", payload(deep_line), "judged"),
        ("pack with an invalid pattern", payload(good), "open", {"flags": ["--rules", bad_pattern]}),
        # A user's packs are compiled at load (hook/hook_command.cc), so a
        # set past its budget fails the hook open like any pack error.
        ("pack past RE2's memory budget", payload(good), "open", {"flags": ["--rules", over_budget]}),
        ("pack with duplicate ids", payload(good), "open", {"flags": ["--rules", duplicate_ids]}),
        # Compiling 10,000 patterns takes about 2 s of CPU; the wall limit
        # leaves room for a loaded CI machine, the CPU limit is the bound.
        ("pack of 10,000 rules", payload(good), "judged",
         {"flags": ["--rules", many_rules], "wall_s": 60 * TIME_SCALE}),
        ("pack file nested 100,000 deep", payload(good), "open", {"flags": ["--rules", deep_pack]}),
        ("transcript appended to while read", payload(appended), "judged", {"during": Appender(appended)}),
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
    for name, data, expect, *rest in cases:
        opts = rest[0] if rest else {}
        argv = [args.bin] + opts.get("flags", []) + ["hook"]
        wall_s = opts.get("wall_s", TIME_LIMIT_S)
        start, cpu_start = time.monotonic(), os.times()
        try:
            with opts.get("during") or contextlib.nullcontext():
                p = subprocess.run(argv, input=data, capture_output=True, timeout=wall_s)
        except subprocess.TimeoutExpired:
            print("FAIL %s: no answer within %d s" % (name, wall_s))
            failures += 1
            continue
        took = time.monotonic() - start
        cpu_end = os.times()
        cpu = (cpu_end.children_user - cpu_start.children_user) + (cpu_end.children_system - cpu_start.children_system)
        out = p.stdout.decode("utf-8", "replace").strip()
        err = p.stderr.decode("utf-8", "replace").strip()
        problems = []
        if cpu > TIME_LIMIT_S:
            problems.append("%.1f s of CPU, over %d s" % (cpu, TIME_LIMIT_S))
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
