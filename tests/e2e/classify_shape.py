#!/usr/bin/env python3
"""End-to-end: `causegate classify` as a pipeline stage. A few JSONL lines
(written here, English and Chinese, plus bad lines) go in on stdin; the test
checks one answer per non-blank line, in order, with the documented shape
(rules/QUALITY.md): {"id","causal","hedged","claim","rules","lang"} or
{"id","error"}; exit 0; the obvious decisions; and that each answer arrives
while the input is still open (streaming, not read-all-then-answer)."""
import argparse
import json
import subprocess
import sys

LINES = [
    ({"id": "en-claim", "text": "The export failed because the staging bucket was full."},
     {"causal": True, "hedged": False, "claim": True, "lang": "en"}),
    ({"id": "en-hedged", "text": "The export probably failed because the bucket was full.", "lang": "en"},
     {"causal": True, "hedged": True, "claim": False}),
    ({"id": 3, "text": "Is the export failing because the bucket is full?"},
     {"causal": True, "claim": False}),
    ({"id": "en-plain", "text": "The export runs every night at two."},
     {"causal": False, "hedged": False, "claim": False}),
    ({"id": "zh-claim", "text": "导出失败是因为存储桶满了。"},
     {"causal": True, "hedged": False, "claim": True, "lang": "zh"}),
    ({"id": "zh-hedged", "text": "可能是存储桶满了导致导出失败。", "lang": "zh"},
     {"causal": True, "hedged": True, "claim": False}),
    ({"id": "two-sentences", "text": "It might be the disk. The export failed because the bucket was full."},
     {"causal": True, "hedged": True, "claim": True}),
]
BAD = ["this is not json", json.dumps({"id": "no-text"}), json.dumps({"id": "bad-lang", "text": "x", "lang": "fr"})]


def check_answer(answer, want, failures, where):
    keys = ["id", "causal", "hedged", "claim", "rules", "lang"]
    if list(answer.keys()) != keys:
        failures.append("%s: keys %s, expected %s" % (where, list(answer.keys()), keys))
        return
    for k in ("causal", "hedged", "claim"):
        if not isinstance(answer[k], bool):
            failures.append("%s: %s is not a bool" % (where, k))
    if not isinstance(answer["rules"], list) or not all(isinstance(r, str) for r in answer["rules"]):
        failures.append("%s: rules is not a list of strings" % where)
    for k, v in want.items():
        if answer.get(k) != v:
            failures.append("%s: %s is %r, expected %r (rules %s)" % (where, k, answer.get(k), v, answer["rules"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    failures = []

    # Batch: every line at once, blank lines between, answers in order.
    lines = [json.dumps(src, ensure_ascii=False) for src, _ in LINES]
    payload = "\n\n".join(lines[:3]) + "\n" + "\n".join(BAD) + "\n  \n" + "\n".join(lines[3:])  # no final newline
    p = subprocess.run([args.bin, "classify"], input=payload.encode("utf-8"), capture_output=True, timeout=60)
    if p.returncode != 0:
        failures.append("exit %d: %s" % (p.returncode, p.stderr.decode()[:300]))
    out = p.stdout.decode("utf-8").splitlines()
    expected_ids = [src["id"] for src, _ in LINES[:3]] + [None, "no-text", "bad-lang"] + [src["id"] for src, _ in LINES[3:]]
    if len(out) != len(expected_ids):
        failures.append("%d answers for %d non-blank lines" % (len(out), len(expected_ids)))
    answers = [json.loads(l) for l in out]
    if [a.get("id") for a in answers] != expected_ids:
        failures.append("ids out of order: %s" % [a.get("id") for a in answers])
    wants = {src["id"]: want for src, want in LINES}
    for a in answers:
        if "error" in a:
            if list(a.keys()) != ["id", "error"] or not a["error"].startswith("line "):
                failures.append("bad error object: %s" % a)
        elif a.get("id") in wants:
            check_answer(a, wants[a["id"]], failures, str(a.get("id")))
    if b"3 of" not in p.stderr:
        failures.append("stderr does not count the unreadable lines: %r" % p.stderr[:200])

    # Streaming: write one line, read its answer before closing stdin.
    proc = subprocess.Popen([args.bin, "classify"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        for src, want in LINES[:2]:
            proc.stdin.write((json.dumps(src) + "\n").encode())
            proc.stdin.flush()
            line = proc.stdout.readline()
            if not line:
                failures.append("no answer to %s while stdin is open" % src["id"])
                break
            check_answer(json.loads(line), want, failures, "streamed " + str(src["id"]))
    finally:
        proc.stdin.close()
        rest = proc.stdout.read()
        proc.wait(timeout=30)
    if rest.strip():
        failures.append("unexpected output after stdin closed: %r" % rest[:200])

    for f in failures:
        print("FAIL " + f)
    print("classify: %d answers checked, %d failure(s)" % (len(answers) + 2, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
