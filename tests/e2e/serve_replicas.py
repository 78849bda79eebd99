#!/usr/bin/env python3
"""End-to-end: two `causegate serve` replicas sharing one state folder
(--state-dir, and the config key `state_dir`) answer a session whose
requests alternate between them exactly as one daemon answers it alone.

- Codex (no cap of its own): the agent stops again and again with the same
  unsupported claim until the loop policy lets it through; every answer and
  every audit block number match one daemon's.
- Cursor and Copilot: the session log their observe-only events build,
  written by one replica and read by the other, through two blocks to the
  stop let through.
- Concurrency: stops of one session sent to both replicas at once count
  1, 2, ..., N with none lost and none twice (the counter's lock,
  gate/state_lock.h).
- Controls: replicas with a folder each diverge from one daemon (so the
  comparison can fail), the daemons' default folder stays untouched, and a
  state folder the daemon cannot use stops its start.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import threading

from serve_util import Checks, Daemon

OOM = "Out of memory: Killed process 4242 (python) total-vm:81234kB"
UNSUPPORTED = "The root cause is the disk filling up on the node."
PROMPT = "why did the training job crash?"


def codex_session(root, name):
    """A Codex session's transcript (the Claude Code shape, which the Codex
    adapter reads too) and its Stop input, before any block."""
    path = os.path.join(root, name + ".jsonl")
    lines = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": PROMPT}},
        {"type": "assistant", "uuid": "a1", "message": {"id": "m1", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "dmesg | tail -3"}}]}},
        {"type": "user", "uuid": "u2", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": OOM}]}},
        {"type": "assistant", "uuid": "a2", "message": {"id": "m2", "role": "assistant", "content": [
            {"type": "text", "text": UNSUPPORTED}]}},
    ]
    os.makedirs(root, exist_ok=True)
    with open(path, "w") as f:
        f.write("".join(json.dumps(line) + "\n" for line in lines))
    return {"hook_event_name": "Stop", "session_id": name, "turn_id": "turn-1", "transcript_path": path,
            "cwd": "/w", "stop_hook_active": False, "last_assistant_message": UNSUPPORTED}


def audit_blocks(path, session):
    """The block numbers an audit log gave the session's blocks, in order."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        records = [json.loads(line) for line in f if line.strip()]
    return [r["block_number"] for r in records if r.get("session") == session and r.get("decision") == "block"]


def answers(route, payloads):
    """Sends payloads in order, payload i to route[i % len(route)]; returns
    the (status, body) of each."""
    out = []
    for i, payload in enumerate(payloads):
        status, _, body = route[i % len(route)].request("POST", "/hook", json.dumps(payload))
        out.append((status, body))
    return out


def codex_stops(session, count, continuing):
    """The agent's stops in one turn; continuing: after the first it says it
    continues from a block (stop_hook_active), else it never says so, as
    Gemini before its PR #20439, and the counter alone bounds the loop."""
    return [dict(session, stop_hook_active=continuing and i > 0) for i in range(count)]


def actions(replies):
    def action(body):
        if not body:
            return "allow"
        doc = json.loads(body)
        return "block" if doc.get("decision") == "block" else "allow-unproven" if "systemMessage" in doc else "?"
    return [action(body) for _, body in replies]


# Six stops of one Codex turn at max_blocks 2, with and without
# stop_hook_active: the actions, one daemon's block numbers, and the block
# numbers of replica a (stops 1, 3, 5) and b (stops 2, 4, 6).
CODEX_LOOPS = [
    # The counter goes with the stop let through, and stop_hook_active alone
    # counts one block, so each later stop is a second block or let through.
    ("codex-continuing", True, ["block", "block", "allow-unproven", "block", "allow-unproven", "block"],
     [1, 2, 2, 2], [1], [2, 2, 2]),
    # Without the flag the counter starts over after each stop let through.
    ("codex-flagless", False, ["block", "block", "allow-unproven", "block", "block", "allow-unproven"],
     [1, 2, 1, 2], [1, 2], [2, 1]),
]


def test_codex_loop(c, solo, pair, split, root, audits):
    for name, continuing, expected, solo_expected, a_expected, b_expected in CODEX_LOOPS:
        stops = codex_stops(codex_session(root, name), 6, continuing)
        alone = answers([solo], stops)
        together = answers(pair, stops)
        c.check(actions(alone) == expected, "%s, one daemon: %s" % (name, actions(alone)))
        c.check(all(status == 200 for status, _ in together), "%s replicas: statuses %s" % (
            name, [s for s, _ in together]))
        c.check(together == alone, "%s: the replicas' answers differ from one daemon's: %s" % (
            name, actions(together)))
        got = {who: audit_blocks(audits[who], name) for who in ("solo", "a", "b")}
        c.check(got == {"solo": solo_expected, "a": a_expected, "b": b_expected}, "%s block numbers: %s" % (name, got))

        # The control: a folder each, and the loop runs longer than the policy allows.
        apart = answers(split, stops)
        print("  %s, 6 stops: one daemon %s; replicas with a folder each %s" % (name, actions(alone), actions(apart)))
        c.check(apart != alone, "%s: replicas with a folder each answered as one daemon (the test cannot fail)" % name)


def cursor_event(conversation, event, **fields):
    doc = {"conversation_id": conversation, "generation_id": "g-1", "model": "m", "cursor_version": "1.7.2",
           "workspace_roots": ["/w"], "hook_event_name": event}
    doc.update(fields)
    return doc


def cursor_conversation(route, conversation):
    """A Cursor turn whose answer keeps the unsupported claim: each event to
    the next daemon of route; the follow-ups Cursor submits after a block are
    the reasons the stops answered. Returns every answer, in order."""
    sent = []

    def send(doc):
        d = route[len(sent) % len(route)]
        status, _, body = d.request("POST", "/hook", json.dumps(doc))
        sent.append((status, body))
        return body

    send(cursor_event(conversation, "beforeSubmitPrompt", prompt=PROMPT, attachments=[]))
    send(cursor_event(conversation, "afterShellExecution", command="dmesg | tail -3", output=OOM, duration=4))
    for loop_count in range(3):
        send(cursor_event(conversation, "afterAgentResponse", text=UNSUPPORTED))
        body = send(cursor_event(conversation, "stop", status="completed", loop_count=loop_count))
        if not body:
            break
        send(cursor_event(conversation, "beforeSubmitPrompt", prompt=json.loads(body)["followup_message"],
                          attachments=[]))
    return sent


def test_cursor_session_log(c, solo, pair, split, state_dir):
    alone = cursor_conversation([solo], "conv-1")
    together = cursor_conversation(pair, "conv-1")
    stops = [body for _, body in alone if body.startswith(b'{"followup_message"')]
    c.check(len(stops) == 2 and alone[-1] == (200, b""), "cursor, one daemon: two blocks, then let through")
    c.check(together == alone, "cursor: the replicas' answers differ from one daemon's:\n%r\n%r" % (together, alone))
    c.check(os.path.exists(os.path.join(state_dir, "sessions", "cursor", "conv-1.jsonl")),
            "cursor: the session log is in the shared folder")
    apart = cursor_conversation(split, "conv-1")
    c.check(apart != alone, "cursor: replicas with a folder each answered as one daemon")


def copilot_event(kind, data):
    return json.dumps({"type": kind, "data": data, "id": "e", "timestamp": "2026-03-01T10:00:00.000Z",
                       "parentId": None})


def copilot_session(route, root, folder, name="copilot-1"):
    """A Copilot CLI turn whose answer keeps the unsupported claim: the
    observe-only events fill the session log, the session file (written
    here, as Copilot writes it) holds the answers and the reasons it
    submitted after each block. Each request to the next daemon of route;
    returns every answer, in order."""
    events = os.path.join(root, folder, "events.jsonl")
    os.makedirs(os.path.dirname(events), exist_ok=True)

    def append(*lines):
        with open(events, "a") as f:
            f.write("".join(line + "\n" for line in lines))

    def answer(i):
        return copilot_event("assistant.message", {"messageId": "m%d" % i, "content": UNSUPPORTED,
                                                   "toolRequests": []})

    append(copilot_event("session.start", {"sessionId": name, "version": 1, "producer": "copilot-agent"}),
           copilot_event("user.message", {"content": PROMPT, "attachments": []}),
           copilot_event("assistant.message", {"messageId": "m0", "content": "", "toolRequests": [
               {"toolCallId": "c1", "name": "bash", "arguments": {"command": "dmesg | tail -3"}}]}),
           copilot_event("tool.execution_complete", {"toolCallId": "c1", "success": True}),
           answer(1))
    base = {"timestamp": 1704614750000, "cwd": "/w", "sessionId": name}
    sent = []

    def send(doc):
        status, headers, body = route[len(sent) % len(route)].request("POST", "/hook", json.dumps(doc))
        sent.append((status, body, headers.get("causegate-fail-open", "")))
        return body

    send(dict(base, prompt=PROMPT))
    send(dict(base, toolName="bash", toolArgs={"command": "dmesg | tail -3"},
              toolResult={"resultType": "success", "textResultForLlm": OOM}))
    for i in range(3):
        body = send(dict(base, transcriptPath=events, stopReason="end_turn", stopHookActive=i > 0))
        if not body:
            break
        # Copilot submits the reason as the next prompt, then answers again.
        reason = json.loads(body)["reason"]
        send(dict(base, prompt=reason))
        append(copilot_event("user.message", {"content": reason}), answer(i + 2))
    return sent


def test_copilot_session_log(c, solo, pair, split, root, state_dir):
    alone = copilot_session([solo], root, "copilot-alone")
    together = copilot_session(pair, root, "copilot-pair")
    blocks = [body for _, body, _ in alone if body.startswith(b'{"decision":"block"')]
    c.check(len(blocks) == 2 and alone[-1] == (200, b"", ""), "copilot, one daemon: two blocks, then let through: %s"
            % alone)
    c.check(together == alone, "copilot: the replicas' answers differ from one daemon's:\n%r\n%r" % (together, alone))
    c.check(os.path.exists(os.path.join(state_dir, "sessions", "copilot", "copilot-1.jsonl")),
            "copilot: the session log is in the shared folder")
    apart = copilot_session(split, root, "copilot-apart")
    c.check(apart != alone, "copilot: replicas with a folder each answered as one daemon")


def test_concurrent_stops(c, pair, root, audits, count=40):
    """count stops of one session at once, half to each replica (workers of
    both judging together): each is the next block."""
    session = codex_session(root, "codex-burst")
    barrier = threading.Barrier(count)
    statuses = [None] * count

    def stop(i):
        barrier.wait()
        statuses[i], _, _ = pair[i % 2].request("POST", "/hook", json.dumps(session))

    threads = [threading.Thread(target=stop, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got_a = audit_blocks(audits["a"], "codex-burst")
    got_b = audit_blocks(audits["b"], "codex-burst")
    numbers = sorted(got_a + got_b)
    repeated = len(numbers) - len(set(numbers))
    print("  %d stops of one session at once over two replicas: %d and %d blocks, %d block numbers given twice" % (
        count, len(got_a), len(got_b), repeated))
    c.check(statuses == [200] * count, "burst statuses: %s" % statuses)
    c.check(numbers == list(range(1, count + 1)), "burst block numbers: %s" % numbers)
    c.check(got_a and got_b, "both replicas judged some of the burst")


def test_bad_state_dir(c, binary, work):
    blocker = os.path.join(work, "not-a-folder")
    with open(blocker, "w") as f:
        f.write("x")
    for args in (["--state-dir", os.path.join(blocker, "state")], ["--config", os.path.join(work, "bad.json")]):
        with open(os.path.join(work, "bad.json"), "w") as f:
            json.dump({"state_dir": os.path.join(blocker, "state")}, f)
        p = subprocess.run([binary, "serve", "--listen", "127.0.0.1:0"] + args, capture_output=True, text=True,
                           timeout=30)
        c.check(p.returncode == 1 and "state_dir" in p.stderr, "unusable state folder %s: %d %s" % (
            args[0], p.returncode, p.stderr.strip()))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    c = Checks()
    work = args.work
    root = os.path.join(work, "root")
    # The folder the daemons would use without --state-dir: it must stay empty.
    default_state = os.path.join(work, "xdg-state")
    env = dict(os.environ, XDG_STATE_HOME=default_state)
    shared = os.path.join(work, "shared-state")
    config = os.path.join(work, "replica-b.json")
    with open(config, "w") as f:
        json.dump({"state_dir": shared}, f)
    audits = {name: os.path.join(work, name + ".audit.jsonl") for name in ("solo", "a", "b", "burst-a", "burst-b")}

    def start(name, state_args, audit, extra=()):
        return Daemon(args.bin, work, ["--root", root, "--audit-log", audit] + state_args + list(extra), env=env,
                      name=name)

    daemons = []
    try:
        solo = start("solo", ["--state-dir", os.path.join(work, "solo-state")], audits["solo"])
        daemons.append(solo)
        a = start("a", ["--state-dir", shared], audits["a"])
        daemons.append(a)
        b = start("b", ["--config", config], audits["b"])  # the same folder, from the config key
        daemons.append(b)
        c_apart = start("c", ["--state-dir", os.path.join(work, "c-state")], os.path.join(work, "c.audit.jsonl"))
        daemons.append(c_apart)
        d_apart = start("d", ["--state-dir", os.path.join(work, "d-state")], os.path.join(work, "d.audit.jsonl"))
        daemons.append(d_apart)
        health = [d.json("GET", "/healthz")[1]["state_dir"] for d in (a, b, solo)]
        c.check(health[0] == health[1] == shared and health[2] != shared, "healthz state_dir: %s" % health)
        test_codex_loop(c, solo, [a, b], [c_apart, d_apart], root, audits)
        test_cursor_session_log(c, solo, [a, b], [c_apart, d_apart], shared)
        test_copilot_session_log(c, solo, [a, b], [c_apart, d_apart], root, shared)

        burst = os.path.join(work, "burst-state")
        burst_pair = [start("burst-a", ["--state-dir", burst], audits["burst-a"], ["--max-blocks", "100"]),
                      start("burst-b", ["--state-dir", burst], audits["burst-b"], ["--max-blocks", "100"])]
        daemons.extend(burst_pair)
        test_concurrent_stops(c, burst_pair, root, {"a": audits["burst-a"], "b": audits["burst-b"]})
    finally:
        for d in daemons:
            code = d.stop()
            c.check(code == 0, "%s exit code %d:\n%s" % (d.log_path, code, d.stderr()[-2000:]))
    for d in daemons:
        log = d.stderr()
        c.check("not locked" not in log and "not kept" not in log, "%s: state warnings:\n%s" % (d.log_path, log))
    c.check("session state in " + shared in a.stderr(), "replica a logs its state folder")
    c.check(not os.path.exists(default_state), "the default state folder was used: %s" % (
        sorted(os.listdir(default_state)) if os.path.exists(default_state) else ""))
    c.check(sorted(os.listdir(shared)) == ["locks", "loop", "sessions"],
            "shared folder layout: %s" % sorted(os.listdir(shared)))
    test_bad_state_dir(c, args.bin, work)
    return c.report("e2e.serve_replicas")


if __name__ == "__main__":
    sys.exit(main())
