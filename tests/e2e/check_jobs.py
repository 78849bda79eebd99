#!/usr/bin/env python3
"""End-to-end: `causegate check -j N` judges one file's turns on N threads
and reports exactly what -j 1 reports, in every format.

The corpus: one Claude Code session of a few hundred turns written here,
whose final messages quote their own tool output, an earlier turn's
(found in the history, turns_back > 0) and a later turn's (which no stop
could have seen: never supported); and bench/check_corpus.py sessions
with many short turns (a Claude Code one and a Codex rollout), whose
messages cite earlier turns as agents do. Each is checked alone and all
together with -j 1, 2 and 8, every report written through --output and
the text report on stdout; every byte must match -j 1's. The -j 1 results
must show the cross-turn citations found and the later-turn quotes not,
so a reader that handed a turn's judging the wrong history fails here
even if every -j agreed.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "bench"))
import check_corpus  # noqa: E402

FORMATS = ("text", "json", "sarif", "junit", "markdown", "github", "html")
JOBS = (1, 2, 8)
TURNS = 240
FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("  FAIL " + what)


def line(typ, message, n, **extra):
    obj = {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/srv/app",
           "sessionId": "5c1d7a34-0000-4000-8000-000000000042", "version": "2.1.59", "type": typ,
           "message": message, "uuid": "u-%d" % n, "timestamp": "2026-03-01T10:%02d:%02d.000Z" % (n // 60 % 60, n % 60)}
    obj.update(extra)
    return json.dumps(obj, ensure_ascii=False)


def evidence(i):
    """The line turn i's tool prints: unique to it, long enough to quote."""
    return "shard-%03d: ERROR replica lag %d ms exceeded budget on node-%d" % (i, 1000 + i * 37, i % 17)


def cross_turn_session(path):
    """Turn i quotes its own output (i % 4 == 0), turn i-3's (1), turn
    i+2's (2, a later turn: never found), or nothing (3). Tool outputs of
    varied length so the threads finish out of order."""
    rng = random.Random(7)
    lines, n = [], 0
    for i in range(TURNS):
        n += 1
        lines.append(line("user", {"role": "user", "content": "why did shard %d fail?" % i}, n))
        filler = "\n".join("INFO heartbeat ok seq=%d" % rng.randrange(10 ** 6) for _ in range(rng.randrange(5, 400)))
        output = filler + "\n" + evidence(i) + "\n"
        n += 1
        tid = "toolu_%d" % n
        lines.append(line("assistant", {"id": "msg_c%d" % n, "role": "assistant", "content": [
            {"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": "kubectl logs shard-%d" % i}}]}, n))
        n += 1
        lines.append(line("user", {"role": "user", "content": [
            {"tool_use_id": tid, "type": "tool_result", "content": output, "is_error": False}]}, n,
            toolUseResult={"stdout": output, "stderr": ""}))
        kind = i % 4
        if kind == 0:
            final = "Shard %d failed because `%s`." % (i, evidence(i))
        elif kind == 1 and i >= 3:
            final = "Shard %d failed because `%s`, as shard %d showed earlier." % (i, evidence(i - 3), i - 3)
        elif kind == 2 and i + 2 < TURNS:
            final = "Shard %d failed because `%s`." % (i, evidence(i + 2))
        else:
            final = "Shard %d failed because the replica fell behind." % i
        n += 1
        lines.append(line("assistant", {"id": "msg_f%d" % n, "role": "assistant", "model": "claude-opus-4-6",
                                        "content": [{"type": "text", "text": final}]}, n))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def run_check(binary, paths, jobs, out_dir):
    """(exit code, stdout, {format: report bytes}) of one check."""
    os.makedirs(out_dir)
    argv = [binary, "check"] + [os.path.basename(p) for p in paths] + ["-j", str(jobs), "--format", "text"]
    for fmt in FORMATS:
        argv += ["--output", "%s=%s" % (fmt, os.path.join(out_dir, "r." + fmt))]
    p = subprocess.run(argv, capture_output=True, timeout=300, cwd=os.path.dirname(paths[0]))
    reports = {}
    for fmt in FORMATS:
        with open(os.path.join(out_dir, "r." + fmt), "rb") as f:
            reports[fmt] = f.read()
    return p.returncode, p.stdout, reports


def check_history_used(results):
    """The -j 1 results find earlier turns' quotes and never later ones'."""
    turns = [t for t in results["turns"] if t["file"] == "cross.jsonl"]
    check(len(turns) == TURNS, "cross.jsonl: %d turns judged (want %d)" % (len(turns), TURNS))
    by_number = {t["turn"]: t for t in turns}
    earlier_found = later_found = 0
    for number, t in by_number.items():
        i = number - 1
        claims = t["claims"]
        if not claims:
            continue
        if i % 4 == 1 and i >= 3:
            cites = [c for c in claims[0]["citations"] if c["found_in"] == "tool-output"]
            earlier_found += bool(cites and cites[0].get("tool_call", {}).get("turns_back") == 3)
        if i % 4 == 2 and i + 2 < TURNS:
            later_found += claims[0]["finding"] == "supported"
    want = len([i for i in range(TURNS) if i % 4 == 1 and i >= 3])
    check(earlier_found == want, "quotes of the turn 3 back found there: %d of %d" % (earlier_found, want))
    check(later_found == 0, "quotes of a later turn never supported: %d were" % later_found)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    shutil.rmtree(args.work, ignore_errors=True)
    corpus = os.path.join(args.work, "corpus")
    os.makedirs(corpus)
    cross = os.path.join(corpus, "cross.jsonl")
    cross_turn_session(cross)
    claude = os.path.join(corpus, "session-short-turns.jsonl")
    turns = check_corpus.write_session(claude, 1 << 20, seed=3, codex=False, out_mean=200)
    codex = os.path.join(corpus, "rollout-2026-03-02T10-00-00-short.jsonl")
    check_corpus.write_session(codex, 1 << 19, seed=4, codex=True, out_mean=200)
    print("corpus: cross.jsonl %d turns, %s %d turns, a Codex rollout" % (TURNS, os.path.basename(claude), turns))

    for name, paths in (("cross", [cross]), ("short", [claude]), ("all", [cross, claude, codex])):
        base = None
        for jobs in JOBS:
            code, stdout, reports = run_check(binary, paths, jobs, os.path.join(args.work, "%s-j%d" % (name, jobs)))
            check(code in (0, 1), "%s -j %d: exit %d" % (name, jobs, code))
            if base is None:
                base = (code, stdout, reports)
                results = json.loads(reports["json"])
                print("%s: %d turns, %d blocked, %d claims" % (
                    name, results["summary"]["turns"], results["summary"]["blocked"], results["summary"]["claims"]))
                check(results["summary"]["turns"] > 50, "%s: enough turns to spread over threads" % name)
                if name == "cross":
                    check_history_used(results)
                continue
            check(code == base[0], "%s -j %d: exit %d, -j 1 exited %d" % (name, jobs, code, base[0]))
            check(stdout == base[1], "%s -j %d: stdout differs from -j 1's" % (name, jobs))
            for fmt in FORMATS:
                check(reports[fmt] == base[2][fmt], "%s -j %d: %s report differs from -j 1's" % (name, jobs, fmt))
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    shutil.rmtree(args.work, ignore_errors=True)
    print("every report of -j %s is -j 1's, byte for byte" % "/".join(map(str, JOBS[1:])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
