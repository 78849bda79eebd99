#!/usr/bin/env python3
"""Realistic agent sessions for the `causegate check` benchmark.

Writes Claude Code session transcripts (and, with --codex-share, Codex CLI
rollouts) of a requested size: many turns, each a prompt, some narration,
a few tool calls with long outputs (service logs, test runs, build logs,
kernel messages, kubectl, stack traces) and a final message. The final
messages mix what agents really write: causes cited from this turn's
output, causes cited from an earlier turn, fabricated quotes (a digit
changed), uncited causes, hypotheses, and plain task summaries with no
claim at all; about one turn in ten is in Chinese. Lines are shaped like
the real ones (envelope fields, the tool output stored twice in a Bash
result line as Claude Code does, progress and system records).

Deterministic for a given seed. Usage:
    check_corpus.py OUTDIR --sizes 1,5,20,100 [--seed N] [--codex-share 0.2]
"""
import argparse
import datetime
import json
import os
import random
import sys
import uuid

MB = 1 << 20

SERVICES = ["billing-api", "ingest-worker", "auth", "export-svc", "scheduler", "search-indexer",
            "trainer", "gateway", "notifier", "ledger"]
LEVELS = ["INFO"] * 12 + ["DEBUG"] * 6 + ["WARN"] * 3 + ["ERROR"]
PATHS = ["/api/v2/orders", "/api/v2/export", "/healthz", "/api/v1/users/me", "/internal/sync",
         "/api/v2/invoices/batch", "/metrics"]
WORDS = ("request completed cache miss retry scheduled flushing buffer opened connection pool "
         "checkpoint saved shard rebalanced lease renewed token refreshed batch committed "
         "compaction started snapshot written worker idle heartbeat ok queue depth").split()

# What a failing system prints: the lines a cited cause quotes.
FAILURES = [
    "Out of memory: Killed process {pid} (python) total-vm:{n}kB, anon-rss:{m}kB",
    "psycopg2.OperationalError: FATAL: remaining connection slots are reserved ({n} in use)",
    "upstream timed out (110: Connection timed out) while reading response header from upstream",
    "java.lang.OutOfMemoryError: GC overhead limit exceeded at worker-{pid}",
    "ERROR: could not resize shared memory segment \"/PostgreSQL.{n}\": No space left on device",
    "NCCL WARN NET/IB : Got completion from peer {ip} with error 12, opcode {m}",
    "error: linking with `cc` failed: exit status: 1 (undefined reference to `ssl_ctx_new_{n}`)",
    "FAILED tests/test_export.py::test_large_export_{n} - TimeoutError: export took {m}s",
    "kubelet: Liveness probe failed: HTTP probe failed with statuscode: 503 (pod export-{pid})",
    "RuntimeError: CUDA error: device-side assert triggered on rank {n}",
    "redis.exceptions.ConnectionError: max number of clients reached ({n})",
    "OSError: [Errno 28] No space left on device: '/var/lib/export/tmp/{pid}.part'",
]
ZH_FAILURES = [
    "导出任务 {pid} 失败：磁盘空间不足，剩余 {n} MB",
    "数据库连接池已满：当前连接数 {n}，上限 {m}",
    "训练进程 {pid} 被内核终止：内存不足（已用 {n} MB）",
    "网关超时：上游服务 {m} 毫秒内没有响应（请求 {pid}）",
]

DIAG_PROMPTS = [
    "the {svc} keeps failing on big batches. why?",
    "why did the nightly {svc} job die?",
    "{svc} returns 502s since this morning, can you find out what is going on?",
    "CI is red on the {svc} tests again. what broke?",
    "find the root cause of the {svc} latency spike",
]
TASK_PROMPTS = [
    "add a --dry-run flag to the {svc} CLI",
    "rename the config key batch_size to max_batch in {svc}",
    "write a unit test for the retry helper in {svc}",
    "update the README section about deploying {svc}",
    "bump the {svc} base image to the new release",
]
ZH_DIAG_PROMPTS = ["{svc} 的导出任务为什么失败了？", "帮我查一下 {svc} 为什么一直超时"]


def fmt(template, rng):
    return template.format(pid=rng.randint(1000, 99999), n=rng.randint(10, 99999),
                           m=rng.randint(2, 999),
                           ip="10.%d.%d.%d" % (rng.randint(0, 255), rng.randint(0, 255), rng.randint(1, 254)))


class Clock:
    def __init__(self, rng):
        self.t = datetime.datetime(2026, 3, 1, 9, 0, 0) + datetime.timedelta(days=rng.randint(0, 60))

    def tick(self, rng, lo=0.2, hi=20.0):
        self.t += datetime.timedelta(seconds=rng.uniform(lo, hi))
        return self.t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (self.t.microsecond // 1000)


def log_lines(rng, clock, nbytes, planted):
    """A service log of about nbytes with the planted lines inside."""
    out, size = [], 0
    svc = rng.choice(SERVICES)
    plant_at = sorted(rng.random() for _ in planted)
    i = 0
    while size < nbytes:
        ts = clock.t.strftime("%Y-%m-%d %H:%M:%S") + ",%03d" % rng.randint(0, 999)
        clock.t += datetime.timedelta(milliseconds=rng.randint(1, 900))
        lvl = rng.choice(LEVELS)
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9)))
        line = "%s %-5s [%s] %s path=%s id=%08x took=%dms" % (
            ts, lvl, svc, words, rng.choice(PATHS), rng.getrandbits(32), rng.randint(1, 4000))
        out.append(line)
        size += len(line) + 1
        while i < len(planted) and plant_at[i] * nbytes <= size:
            out.append("%s ERROR [%s] %s" % (ts, svc, planted[i]))
            i += 1
    while i < len(planted):
        out.append(planted[i])
        i += 1
    return "\n".join(out)


def pytest_lines(rng, nbytes, planted):
    out, size, n = ["============================= test session starts =============================",
                    "platform linux -- Python 3.11.7, pytest-8.1.1, pluggy-1.4.0",
                    "collected %d items" % rng.randint(200, 3000), ""], 0, 0
    while size < nbytes:
        mod = "tests/test_%s.py" % rng.choice(["export", "auth", "billing", "queue", "sync", "retry"])
        dots = "".join(rng.choice("....................sF") for _ in range(rng.randint(20, 70)))
        line = "%s %s [%3d%%]" % (mod, dots, min(99, n))
        out.append(line)
        size += len(line) + 1
        n += 1
    out.extend(["", "=================================== FAILURES ==================================="])
    out.extend(planted)
    out.append("=========== %d failed, %d passed in %.2fs ===========" % (len(planted), n * 40, rng.uniform(30, 900)))
    return "\n".join(out)


def dmesg_lines(rng, nbytes, planted):
    out, size, t = [], 0, rng.uniform(1000, 90000)
    while size < nbytes:
        t += rng.uniform(0.001, 3)
        line = "[%12.6f] %s" % (t, rng.choice([
            "eth0: link up, 25000 Mbps, full duplex", "EXT4-fs (nvme0n1p2): mounted filesystem",
            "audit: type=1400 apparmor=\"ALLOWED\" operation=\"open\"", "nvidia-nvlink: Nvlink Core is being initialized",
            "cgroup: fork rejected by pids controller in /system.slice", "TCP: request_sock_TCP: Possible SYN flooding"]))
        out.append(line)
        size += len(line) + 1
    at = rng.randint(0, len(out))
    for p in planted:
        out.insert(at, "[%12.6f] %s" % (t, p))
    return "\n".join(out)


def source_file(rng, nbytes):
    out, size = [], 0
    while size < nbytes:
        name = rng.choice(WORDS)
        line = rng.choice([
            "def %s_%d(self, batch, retries=3):" % (name, rng.randint(0, 99)),
            "    for item in batch:  # %s" % " ".join(rng.choice(WORDS) for _ in range(4)),
            "        if not item.ok: raise ExportError(item.id)",
            "    return self.%s.flush(timeout=%d)" % (name, rng.randint(1, 90)), ""])
        out.append(line)
        size += len(line) + 1
    return "\n".join("%6d\t%s" % (i + 1, l) for i, l in enumerate(out))


def tool_output(rng, clock, kind, nbytes, planted):
    if kind == "log":
        return log_lines(rng, clock, nbytes, planted)
    if kind == "pytest":
        return pytest_lines(rng, nbytes, planted)
    if kind == "dmesg":
        return dmesg_lines(rng, nbytes, planted)
    return source_file(rng, nbytes)


def output_size(rng, mean):
    # Mostly a few KB, sometimes a whole log of hundreds of KB.
    return int(min(max(200, rng.lognormvariate(0, 1.2) * mean), 1_500_000))


def tweak(line, rng):
    """A quote that is not in the output: one digit changed."""
    digits = [i for i, c in enumerate(line) if c.isdigit()]
    if not digits:
        return line + " (code 7)"
    i = rng.choice(digits)
    return line[:i] + str((int(line[i]) + 1 + rng.randint(0, 7)) % 10) + line[i + 1:]


def final_message(rng, kind, zh, cited, history_cited, cause):
    if zh:
        if kind in ("cited", "history"):
            return "原因找到了：日志里有「%s」。下一步先把批大小减半再验证。" % (cited if kind == "cited" else history_cited)
        if kind == "fabricated":
            return "根因是资源耗尽，日志显示「%s」。" % tweak(cited, rng)
        if kind == "uncited":
            return "导出失败是因为%s。我已经改了配置。" % rng.choice(["磁盘满了", "连接池太小", "缓存过期"])
        if kind == "hedged":
            return "可能是连接池太小导致的，我还不确定；下一步我会看一下连接数监控。"
        return "已经按要求改好了，测试全部通过。"
    if kind == "cited":
        return rng.choice([
            "The job failed because the worker ran out of memory: `%s`. I lowered the batch size and re-ran it." % cited,
            "Root cause: %s. The log shows it directly:\n\n```\n%s\n```\n\nNext I will cap the pool." % (cause, cited),
            "The failures are caused by resource exhaustion.\n\nEvidence: %s" % cited,
        ])
    if kind == "history":
        return "As the earlier run showed, the crash is due to this: `%s`. Same fix applies." % history_cited
    if kind == "fabricated":
        return "The export died because of this error in the log: `%s`." % tweak(cited, rng)
    if kind == "uncited":
        return rng.choice([
            "The build broke because the cache in CI is stale after the image bump.",
            "The 502s happen because the load balancer drops idle connections after 60 seconds.",
            "The root cause is a race between the flusher and the compaction thread.",
        ])
    if kind == "hedged":
        return rng.choice([
            "It might be the connection pool; I am not sure yet. Next I'll count open connections during a run.",
            "One hypothesis: the retry storm could come from the mobile client. I'll check the gateway logs next.",
        ])
    return rng.choice([
        "Done: the flag is added, documented in the README, and covered by two new tests (all 214 pass).",
        "I renamed the key in the config loader and in the three call sites; the old name still works with a warning.",
        "Updated the deploy section and fixed the two broken links in it.",
    ])


TURN_KINDS = [("cited", 30), ("history", 5), ("fabricated", 8), ("uncited", 9), ("hedged", 12), ("plain", 36)]


class ClaudeWriter:
    def __init__(self, rng, session_id, cwd):
        self.rng, self.session_id, self.cwd = rng, session_id, cwd
        self.lines, self.parent = [], None

    def env(self, typ, ts):
        u = str(uuid.UUID(int=self.rng.getrandbits(128), version=4))
        e = {"parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": self.cwd,
             "sessionId": self.session_id, "version": "2.1.59", "gitBranch": "main", "type": typ}
        self.parent = u
        return e, u

    def add(self, obj):
        self.lines.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))

    def prompt(self, text, ts):
        e, u = self.env("user", ts)
        e.update({"message": {"role": "user", "content": text}, "uuid": u, "timestamp": ts,
                  "permissionMode": "default"})
        self.add(e)

    def assistant(self, msg_id, block, ts):
        e, u = self.env("assistant", ts)
        e.update({"message": {"model": "claude-opus-4-6", "id": msg_id, "type": "message", "role": "assistant",
                              "content": [block], "stop_reason": None, "stop_sequence": None,
                              "usage": {"input_tokens": 4, "output_tokens": self.rng.randint(20, 900)}},
                  "requestId": "req_" + msg_id[4:], "uuid": u, "timestamp": ts})
        self.add(e)

    def result(self, tool_id, output, ts, bash):
        e, u = self.env("user", ts)
        e.update({"message": {"role": "user", "content": [
            {"tool_use_id": tool_id, "type": "tool_result", "content": output, "is_error": False}]},
            "uuid": u, "timestamp": ts})
        # Claude Code keeps the raw result beside the message: Bash output twice.
        e["toolUseResult"] = ({"stdout": output, "stderr": "", "interrupted": False, "isImage": False}
                              if bash else {"type": "text", "file": {"numLines": output.count("\n") + 1}})
        self.add(e)

    def progress(self, ts):
        e, u = self.env("progress", ts)
        e.update({"data": {"type": "hook_progress", "hookEvent": "PostToolUse", "hookName": "PostToolUse:Bash",
                           "command": "$HOME/.claude/hooks/fmt.sh"}, "uuid": u, "timestamp": ts})
        self.add(e)

    def system(self, ts):
        e, u = self.env("system", ts)
        e.update({"subtype": "turn_duration", "durationMs": self.rng.randint(2000, 900000), "uuid": u,
                  "timestamp": ts, "isMeta": False})
        self.add(e)


class CodexWriter:
    def __init__(self, rng, session_id, cwd):
        self.rng, self.lines = rng, []
        self.add("2026-03-01T09:00:00.000Z", "session_meta",
                 {"id": session_id, "cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.77.0",
                  "instructions": "You are a coding agent. " * 40})

    def add(self, ts, typ, payload):
        self.lines.append(json.dumps({"timestamp": ts, "type": typ, "payload": payload},
                                     ensure_ascii=False, separators=(",", ":")))


def claude_turn(w, rng, clock, t, kind, zh, out_mean, past_lines):
    svc = rng.choice(SERVICES)
    diag = kind != "plain"
    prompts = (ZH_DIAG_PROMPTS if zh else DIAG_PROMPTS) if diag else TASK_PROMPTS
    w.prompt(rng.choice(prompts).format(svc=svc), clock.tick(rng))
    msg = lambda: "msg_01" + "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789") for _ in range(22))
    w.assistant(msg(), {"type": "thinking", "thinking": "Let me look at what the tools print before naming a cause.",
                        "signature": "Es" + "x" * 200}, clock.tick(rng))
    w.assistant(msg(), {"type": "text", "text": "I'll look at the logs and the recent runs first."}, clock.tick(rng))
    failures = ZH_FAILURES if zh else FAILURES
    planted = [fmt(rng.choice(failures), rng) for _ in range(rng.randint(1, 3))]
    cited = planted[0]
    calls = rng.randint(1, 6)
    for c in range(calls):
        # The first call prints the failure the final message may cite.
        kind_out = rng.choice(["log", "log", "pytest", "dmesg"] + ([] if c == 0 else ["source"]))
        bash = kind_out != "source"
        out = tool_output(rng, clock, kind_out, output_size(rng, out_mean), planted if c == 0 else [])
        tool_id = "toolu_01" + "%022x" % rng.getrandbits(88)
        m = msg()
        if bash:
            cmd = rng.choice(["journalctl -u %s --since -2h --no-pager" % svc, "kubectl logs deploy/%s --tail=5000" % svc,
                              "python -m pytest -x tests/ 2>&1 | tail -400", "dmesg -T | tail -2000",
                              "grep -n ERROR /var/log/%s/current.log" % svc])
            w.assistant(m, {"type": "tool_use", "id": tool_id, "name": "Bash",
                            "input": {"command": cmd, "description": "Read the %s output" % svc}}, clock.tick(rng))
        else:
            w.assistant(m, {"type": "tool_use", "id": tool_id, "name": "Read",
                            "input": {"file_path": "/srv/%s/worker.py" % svc}}, clock.tick(rng))
        w.result(tool_id, out, clock.tick(rng), bash)
        if rng.random() < 0.5:
            w.progress(clock.tick(rng, 0, 0.1))
    history_cited = rng.choice(past_lines) if past_lines else cited
    if kind == "history" and not past_lines:
        kind = "cited"
    w.assistant(msg(), {"type": "text", "text": final_message(rng, kind, zh, cited, history_cited, "memory exhaustion")},
                clock.tick(rng))
    w.system(clock.tick(rng))
    past_lines.append(cited)


def codex_turn(w, rng, clock, t, kind, zh, out_mean, past_lines):
    svc = rng.choice(SERVICES)
    turn_id = "%d" % t
    diag = kind != "plain"
    prompt = rng.choice((ZH_DIAG_PROMPTS if zh else DIAG_PROMPTS) if diag else TASK_PROMPTS).format(svc=svc)
    w.add(clock.tick(rng), "event_msg", {"type": "task_started", "turn_id": turn_id})
    w.add(clock.tick(rng), "response_item", {"type": "message", "role": "user",
                                             "content": [{"type": "input_text", "text": prompt}]})
    w.add(clock.tick(rng), "event_msg", {"type": "user_message", "message": prompt, "images": []})
    w.add(clock.tick(rng), "turn_context", {"cwd": "/srv/" + svc, "approval_policy": "on-request", "model": "gpt-5.2-codex"})
    failures = ZH_FAILURES if zh else FAILURES
    planted = [fmt(rng.choice(failures), rng) for _ in range(rng.randint(1, 3))]
    cited = planted[0]
    for c in range(rng.randint(1, 6)):
        kind_out = rng.choice(["log", "log", "pytest", "dmesg"] + ([] if c == 0 else ["source"]))
        out = tool_output(rng, clock, kind_out, output_size(rng, out_mean), planted if c == 0 else [])
        call_id = "call_%024x" % rng.getrandbits(96)
        cmd = ["bash", "-lc", rng.choice(["journalctl -u %s --no-pager | tail -3000" % svc, "python -m pytest -x tests/"])]
        w.add(clock.tick(rng), "response_item", {"type": "function_call", "name": "shell",
                                                 "arguments": json.dumps({"command": cmd, "workdir": "/srv/" + svc}),
                                                 "call_id": call_id})
        w.add(clock.tick(rng), "response_item", {"type": "function_call_output", "call_id": call_id,
                                                 "output": json.dumps({"output": out, "metadata": {"exit_code": 0, "duration_seconds": 1.5}})})
    history_cited = rng.choice(past_lines) if past_lines else cited
    if kind == "history" and not past_lines:
        kind = "cited"
    final = final_message(rng, kind, zh, cited, history_cited, "memory exhaustion")
    w.add(clock.tick(rng), "response_item", {"type": "message", "role": "assistant",
                                             "content": [{"type": "output_text", "text": final}]})
    w.add(clock.tick(rng), "event_msg", {"type": "agent_message", "message": final})
    w.add(clock.tick(rng), "event_msg", {"type": "task_complete", "turn_id": turn_id, "last_agent_message": final})
    past_lines.append(cited)


def write_session(path, target_bytes, seed, codex, out_mean=12000):
    rng = random.Random(seed)
    clock = Clock(rng)
    session_id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    w = (CodexWriter if codex else ClaudeWriter)(rng, session_id, "/srv/app")
    kinds, weights = zip(*TURN_KINDS)
    past_lines, t, size = [], 0, 0
    turn = codex_turn if codex else claude_turn
    while size < target_bytes:
        start = len(w.lines)
        turn(w, rng, clock, t, rng.choices(kinds, weights)[0], rng.random() < 0.1, out_mean, past_lines)
        size += sum(len(l.encode("utf-8")) + 1 for l in w.lines[start:])
        t += 1
    with open(path, "w", encoding="utf-8") as f:
        for line in w.lines:
            f.write(line + "\n")
    return t


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("--sizes", default="1,2,5,10,25,100", help="session sizes in MB, comma-separated")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--codex-share", type=float, default=0.0, help="share of sessions written as Codex rollouts")
    args = ap.parse_args(argv)
    os.makedirs(args.outdir, exist_ok=True)
    rng = random.Random(args.seed)
    for i, mb in enumerate(float(s) for s in args.sizes.split(",")):
        codex = rng.random() < args.codex_share
        name = "%s-%03d-%gMB.jsonl" % ("rollout" if codex else "session", i, mb)
        turns = write_session(os.path.join(args.outdir, name), int(mb * MB), args.seed * 1000 + i, codex)
        print("%s: %d turns" % (name, turns), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
