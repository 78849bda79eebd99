#!/usr/bin/env python3
"""End-to-end: each variant of the block reason, through the real binary as
Claude Code calls it (`causegate hook`, the hook input on stdin, a real
transcript file):

- nothing done (no tool call): the full protocol, en and zh;
- probes only: what ran, "no smoke test yet" and the symptom's smoke test
  (batch size 1 for an OOM), no full protocol, en and zh;
- a smoke test run: a control next;
- the second block of a turn: the full protocol joins the targeted part;
- a follow-up prompt: the earlier turn's probes count;
- guess-fix: allowed by default (and shown by `explain --format json`),
  blocked with --guess-fix=block, ignored with --guess-fix=off.

Self-contained (writes its own sessions); needs nothing outside the tree.
"""
import argparse
import json
import os
import subprocess
import sys

SESSION = "7a1c9e20-5b3d-4f7e-8c21-d04e6b9f1a33"


class Session:
    """A Claude Code transcript: one JSONL line per content block."""

    def __init__(self):
        self.lines, self.n, self.parent = [], 0, None

    def add(self, obj):
        self.n += 1
        uid = "00000000-0000-4000-9000-%012d" % self.n
        base = {"parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": "/home/ml/run",
                "sessionId": SESSION, "version": "2.1.63", "uuid": uid,
                "timestamp": "2026-12-01T10:%02d:%02d.000Z" % (self.n // 60, self.n % 60)}
        base.update(obj)
        self.lines.append(base)
        self.parent = uid

    def prompt(self, text):
        self.add({"type": "user", "message": {"role": "user", "content": text}})

    def assistant(self, block):
        self.add({"type": "assistant", "message": {"model": "claude-opus-4-6", "id": "msg_%d" % self.n,
                                                   "type": "message", "role": "assistant", "content": [block]}})

    def text(self, text):
        self.assistant({"type": "text", "text": text})

    def tool(self, name, inp, output, is_error=False):
        tool_id = "toolu_%02d" % self.n
        self.assistant({"type": "tool_use", "id": tool_id, "name": name, "input": inp})
        self.add({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tool_id, "content": output, "is_error": is_error}]},
            "toolUseResult": {"stdout": output, "stderr": "", "interrupted": False}})

    def bash(self, command, output, is_error=False):
        self.tool("Bash", {"command": command}, output, is_error)

    def feedback(self, reason):
        self.add({"type": "user", "message": {"role": "user",
                                              "content": "Stop hook feedback:\n[causegate hook]: " + reason}})

    def write(self, work, name, final, stop_hook_active=False):
        path = os.path.join(work, name + ".jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for line in self.lines:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
        return {"session_id": SESSION, "transcript_path": path, "cwd": "/home/ml/run",
                "hook_event_name": "Stop", "stop_hook_active": stop_hook_active, "last_assistant_message": final}


DMESG = "[Mon Dec  1 02:14:07 2026] Out of memory: Killed process 48121 (python) total-vm:297716424kB"
SMI = "index, memory.used [MiB]\n0, 80012 MiB\n1, 79980 MiB"
CLAIM_EN = "The run died because the node ran out of host memory."
CLAIM_ZH = "训练挂掉是因为节点内存不足。"


def probes_session(prompt, final, narration="Checking the kernel log and the GPUs first."):
    s = Session()
    s.prompt(prompt)
    s.text(narration)
    s.bash("dmesg -T | tail -20", DMESG)
    s.bash("nvidia-smi --query-gpu=index,memory.used --format=csv", SMI)
    s.text(final)
    return s


def run(binary, payload, *flags):
    p = subprocess.run([binary, "hook", *flags], input=json.dumps(payload).encode(), capture_output=True, timeout=30)
    if p.returncode != 0:
        raise AssertionError("hook exited %d: %s" % (p.returncode, p.stderr.decode()[:300]))
    out = p.stdout.decode().strip()
    return json.loads(out) if out else {}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    failures = []
    lengths = {}

    def expect(name, answer, decision="block", contains=(), absent=()):
        reason = answer.get("reason", "")
        lengths[name] = len(reason)
        got = answer.get("decision", "allow")
        if got != decision:
            failures.append("%s: decision %s, expected %s (%r)" % (name, got, decision, answer))
            return
        if len(reason) > 10000:
            failures.append("%s: reason over 10,000 characters" % name)
        for c in contains:
            if c not in reason:
                failures.append("%s: reason lacks %r\n%s" % (name, c, reason))
        for a in absent:
            if a in reason:
                failures.append("%s: reason should not contain %r\n%s" % (name, a, reason))

    full_en, full_zh = "1. Probe cheaply.", "1. 低成本探查。"

    # Nothing done: the full protocol.
    s = Session()
    s.prompt("my 7B run on gpu-node-3 died at 02:14, why?")
    s.text(CLAIM_EN)
    expect("nothing-done-en", run(args.bin, s.write(args.work, "nothing-en", CLAIM_EN)),
           contains=["finding: no-probe ", full_en, "Two ways out", "block 1 of at most 2"],
           absent=["Debug protocol so far"])
    s = Session()
    s.prompt("7B 训练 02:14 挂了，为什么？")
    s.text(CLAIM_ZH)
    expect("nothing-done-zh", run(args.bin, s.write(args.work, "nothing-zh", CLAIM_ZH)),
           contains=["判定: no-probe ", full_zh, "两种做法任选其一"], absent=["调试协议进度"])

    # Probes only: what ran, what is missing, the OOM smoke test; no full protocol.
    payload = probes_session("my 7B run on gpu-node-3 died at 02:14, why?", CLAIM_EN).write(args.work, "probes-en", CLAIM_EN)
    expect("probes-en", run(args.bin, payload),
           contains=["finding: no-citation ", "probes run: dmesg, nvidia-smi; no hypothesis stated; no smoke test yet",
                     "Symptom: out of memory", "re-run one step with batch size 1", "Report: (1) probe results",
                     "Two ways out", "block 1 of at most 2"],
           absent=[full_en])
    payload = probes_session("7B 训练 02:14 挂了，为什么？", CLAIM_ZH, "先看内核日志和 GPU。").write(args.work, "probes-zh", CLAIM_ZH)
    expect("probes-zh", run(args.bin, payload),
           contains=["判定: no-citation ", "已探查：dmesg、nvidia-smi；尚未提出假设；尚未做冒烟测试",
                     "症状：内存不足（OOM）", "用 batch_size=1 重跑 1 步", "报告：(1) 探查结果"],
           absent=[full_zh])

    # A smoke test run: a control next.
    s = Session()
    s.prompt("my 7B run on gpu-node-3 died at 02:14, why?")
    s.bash("dmesg -T | tail -20", DMESG)
    s.bash("python train.py --config 7b.yaml --batch-size 1 --max-steps 1", "step 1 | loss 9.81 | 14.2s")
    s.text(CLAIM_EN)
    expect("smoke-en", run(args.bin, s.write(args.work, "smoke-en", CLAIM_EN)),
           contains=["probes run: dmesg", "smoke test run: python train.py", "no control yet",
                     "run a control: change exactly one variable"],
           absent=[full_en])

    # The second block of the turn: the full protocol joins the targeted part.
    s = probes_session("my 7B run on gpu-node-3 died at 02:14, why?", CLAIM_EN)
    first = run(args.bin, s.write(args.work, "second-pre", CLAIM_EN))["reason"]
    s.feedback(first)
    s.text(CLAIM_EN)
    expect("second-block-en", run(args.bin, s.write(args.work, "second-en", CLAIM_EN, stop_hook_active=True)),
           contains=["probes run: dmesg, nvidia-smi", full_en, "block 2 of at most 2"])

    # A follow-up prompt: the earlier turn's probes count; no tool in this turn.
    s = Session()
    s.prompt("the 7B run on gpu-node-3 died at 02:14. check the kernel log")
    s.bash("dmesg -T | tail -20", DMESG)
    s.text("The kernel log shows an oom-kill at 02:14.")
    s.prompt("so why did it die?")
    s.text(CLAIM_EN)
    expect("follow-up-en", run(args.bin, s.write(args.work, "follow-up-en", CLAIM_EN)),
           contains=["finding: no-probe ", "probes run: dmesg", "including 1 earlier turn(s) of this diagnosis",
                     "re-run one step with batch size 1"],
           absent=[full_en])

    # guess-fix: an edit for a hedged cause, nothing probed.
    s = Session()
    s.prompt("why does the loss go NaN right after warmup?")
    s.text("It might be the peak learning rate; let me lower it.")
    s.tool("Edit", {"file_path": "/home/ml/run/configs/base.yaml", "old_string": "lr: 3e-4", "new_string": "lr: 1e-4"},
           "The file /home/ml/run/configs/base.yaml has been updated.")
    final = "I lowered the peak learning rate to 1e-4 in configs/base.yaml."
    s.text(final)
    payload = s.write(args.work, "guess-fix-en", final)
    expect("guess-fix-default", run(args.bin, payload), decision="allow")
    expect("guess-fix-off", run(args.bin, payload, "--guess-fix=off"), decision="allow")
    expect("guess-fix-block", run(args.bin, payload, "--guess-fix=block"),
           contains=["the turn changed code or config to fix a cause it only hedged",
                     "finding: guess-fix (rule steps.edit.tool)", "Edit base.yaml", "block 1 of at most 2"])
    p = subprocess.run([args.bin, "explain", payload["transcript_path"], "--format", "json"], capture_output=True,
                       timeout=30)
    verdict = json.loads(p.stdout.decode())
    if not verdict.get("guess_fix") or "guess-fix" not in verdict.get("warning", ""):
        failures.append("explain --format json: no guess_fix / warning: %s" % p.stdout.decode()[:400])
    steps = verdict.get("protocol", {}).get("steps", {})
    if set(steps) != {"probe", "hypothesis", "smoke", "control", "assert"} or steps["probe"]["seen"]:
        failures.append("explain --format json: protocol.steps wrong: %r" % steps)

    for name in sorted(lengths):
        print("%-20s reason %5d characters" % (name, lengths[name]))
    for f in failures:
        print("FAIL " + f)
    print("%d variant check(s) failed" % len(failures) if failures else "all reason variants pass")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
