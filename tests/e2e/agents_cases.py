#!/usr/bin/env python3
"""End-to-end: every labelled case, as each agent would send it.

Each case in ../shared/cases is rendered as a Claude Code session by
../shared/tools/casegen.py. The Claude Code decision comes from the real
binary on the case's own payload. Then the same session is converted into
what every other agent gives its hook, and the binary must reach the same
decision, with the answer in the shape that agent documents:

  codex    rollout JSONL + Stop input (last_assistant_message)
           -> {"decision":"block","reason"}        (needs a rollout reader:
              run only when evidence/codex_rollout.h exists in the source)
  gemini   chat file (JSON document or JSONL, alternating) + AfterAgent
           input (prompt, prompt_response) -> {"decision":"deny","reason"}
  cursor   the observe-only events (beforeSubmitPrompt, beforeReadFile,
           afterShellExecution, afterMCPExecution, afterFileEdit,
           afterAgentResponse) one process each, then stop
           -> {"followup_message"}
  copilot  userPromptSubmitted / postToolUse events (camelCase and the VS
           Code dialect, alternating), a Copilot session file for the
           final text, then agentStop / subagentStop -> {"decision":"block"}

Every agent gets its own state folder (XDG_STATE_HOME) per case. Fails on
any decision that differs from Claude Code's or from the label, on any
answer of the wrong shape, and on a non-zero exit. Exits 77 (skipped)
without ../shared.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys
import tempfile
import threading

SKIP_PREFIXES = ("[Request interrupted", "<local-command", "<bash-", "<task-notification>",
                 "<system-reminder>")


def text_of(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text")
    return ""


def claude_events(path, subagent):
    """The session as a list of events: prompt, feedback, tool, text."""
    events, tools = [], {}
    last_text = None
    for raw in open(path, encoding="utf-8"):
        try:
            d = json.loads(raw)
        except ValueError:
            continue
        if not isinstance(d, dict) or (not subagent and d.get("isSidechain")):
            continue
        msg = d.get("message") or {}
        content = msg.get("content")
        if d.get("type") == "user":
            if isinstance(content, list) and any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
                for b in content:
                    if isinstance(b, dict) and b.get("type") == "tool_result" and b.get("tool_use_id") in tools:
                        out = b.get("content")
                        tools[b["tool_use_id"]]["output"] = out if isinstance(out, str) else text_of(out)
                        tools[b["tool_use_id"]]["is_error"] = bool(b.get("is_error"))
                continue
            text = text_of(content)
            if text.startswith("Stop hook feedback:"):
                reason = text[len("Stop hook feedback:"):].lstrip("\n ")
                if reason.startswith("[") and "]: " in reason.split("\n", 1)[0]:
                    reason = reason.split("]: ", 1)[1]
                events.append({"kind": "feedback", "text": reason.rstrip()})
                continue
            if d.get("isMeta") or d.get("isCompactSummary") or "toolUseResult" in d:
                continue
            if not text.strip() or text.startswith(SKIP_PREFIXES):
                continue
            events.append({"kind": "prompt", "text": text})
            last_text = None
        elif d.get("type") == "assistant" and isinstance(content, list):
            mid = msg.get("id") or raw
            for b in content:
                if not isinstance(b, dict):
                    continue
                if b.get("type") == "text" and b.get("text", "").strip():
                    if last_text is not None and last_text["mid"] == mid:
                        last_text["text"] += "\n\n" + b["text"]
                    else:
                        last_text = {"kind": "text", "mid": mid, "text": b["text"]}
                        events.append(last_text)
                elif b.get("type") == "tool_use":
                    ev = {"kind": "tool", "mid": mid, "id": b.get("id", ""), "name": b.get("name", ""),
                          "input": b.get("input") or {}, "output": "", "is_error": False}
                    tools[ev["id"]] = ev
                    events.append(ev)
    return events


def final_text(events, payload):
    if payload.get("last_assistant_message") is not None:
        return payload["last_assistant_message"]
    texts = [e["text"] for e in events if e["kind"] == "text"]
    return texts[-1] if texts else ""


def shell_form(ev):
    """A Claude Code tool call as the shell command an agent without that tool would run."""
    name, inp = ev["name"], ev["input"]
    if name == "Bash":
        return inp.get("command", "")
    if name == "Read":
        return "cat " + shlex.quote(inp.get("file_path", ""))
    if name == "Grep":
        return "grep -rn " + shlex.quote(inp.get("pattern", "")) + " " + shlex.quote(inp.get("path", "."))
    if name == "Glob":
        return "ls " + inp.get("pattern", "")
    if name == "Write":
        return "cat > %s <<'EOF'\n%s\nEOF" % (shlex.quote(inp.get("file_path", "")), inp.get("content", ""))
    if name in ("Edit", "MultiEdit"):
        new = inp.get("new_string", "") or "\n".join(e.get("new_string", "") for e in inp.get("edits", []))
        return "cat >> %s <<'EOF'\n%s\nEOF" % (shlex.quote(inp.get("file_path", "")), new)
    return None


# ---------------------------------------------------------------- codex

def codex_rollout(events, path):
    lines = [{"type": "session_meta", "payload": {"id": "s", "cwd": "/w", "originator": "codex_cli_rs",
                                                  "cli_version": "0.77.0"}}]
    turn = 0
    for ev in events:
        if ev["kind"] == "prompt":
            turn += 1
            lines.append({"type": "event_msg", "payload": {"type": "task_started", "turn_id": str(turn)}})
            lines.append({"type": "response_item", "payload": {"type": "message", "role": "user",
                                                                "content": [{"type": "input_text", "text": ev["text"]}]}})
            lines.append({"type": "event_msg", "payload": {"type": "user_message", "message": ev["text"], "images": []}})
        elif ev["kind"] == "feedback":
            wrapped = '<hook_prompt hook_run_id="r%d">%s</hook_prompt>' % (len(lines), ev["text"])
            lines.append({"type": "response_item", "payload": {"type": "message", "role": "user",
                                                                "content": [{"type": "input_text", "text": wrapped}]}})
        elif ev["kind"] == "text":
            lines.append({"type": "response_item", "payload": {"type": "message", "role": "assistant",
                                                                "content": [{"type": "output_text", "text": ev["text"]}]}})
        else:
            cmd = shell_form(ev)
            name, args = ("shell", {"command": ["bash", "-lc", cmd]}) if cmd is not None else (ev["name"], ev["input"])
            lines.append({"type": "response_item", "payload": {"type": "function_call", "name": name,
                                                                "arguments": json.dumps(args), "call_id": ev["id"]}})
            lines.append({"type": "response_item", "payload": {"type": "function_call_output", "call_id": ev["id"],
                                                                "output": ev["output"]}})
    with open(path, "w", encoding="utf-8") as f:
        for i, line in enumerate(lines):
            line["timestamp"] = "2026-03-01T10:%02d:%02d.000Z" % (i // 60 % 60, i % 60)
            f.write(json.dumps(line, ensure_ascii=False) + "\n")


def run_codex(ctx, case, events, payload):
    rollout = os.path.join(case["dir"], "rollout.jsonl")
    codex_rollout(events, rollout)
    stop = {"hook_event_name": "Stop", "session_id": payload.get("session_id", "s"), "turn_id": "t",
            "transcript_path": rollout, "cwd": payload.get("cwd", "/"), "model": "gpt-5-codex",
            "permission_mode": "default", "stop_hook_active": bool(payload.get("stop_hook_active")),
            "last_assistant_message": final_text(events, payload)}
    return ctx.hook("codex", stop, case)


# ---------------------------------------------------------------- gemini

GEMINI_TOOLS = {"Bash": ("run_shell_command", lambda i: {"command": i.get("command", "")}),
                "Read": ("read_file", lambda i: {"absolute_path": i.get("file_path", "")}),
                "Write": ("write_file", lambda i: {"file_path": i.get("file_path", ""), "content": i.get("content", "")}),
                "Edit": ("replace", lambda i: {"file_path": i.get("file_path", ""), "old_string": i.get("old_string", ""),
                                               "new_string": i.get("new_string", "")}),
                "Grep": ("search_file_content", lambda i: {"pattern": i.get("pattern", ""), "path": i.get("path", ".")}),
                "Glob": ("glob", lambda i: {"pattern": i.get("pattern", "")})}


def gemini_messages(events):
    messages, current = [], None
    for n, ev in enumerate(events):
        if ev["kind"] in ("prompt", "feedback"):
            messages.append({"id": "u%d" % n, "timestamp": "2026-03-01T10:00:00Z", "type": "user",
                             "content": ev["text"]})
            current = None
            continue
        if current is None or current["_mid"] != ev["mid"]:
            current = {"_mid": ev["mid"], "id": "g%d" % n, "timestamp": "2026-03-01T10:00:00Z", "type": "gemini",
                       "content": "", "toolCalls": [], "thoughts": []}
            messages.append(current)
        if ev["kind"] == "text":
            current["content"] = ev["text"] if not current["content"] else current["content"] + "\n\n" + ev["text"]
        else:
            name, args = GEMINI_TOOLS.get(ev["name"], (ev["name"], lambda i: i))
            response = {"error": ev["output"]} if ev["is_error"] else {"output": ev["output"]}
            current["toolCalls"].append({"id": ev["id"], "name": name, "args": args(ev["input"]),
                                         "result": [{"functionResponse": {"id": ev["id"], "name": name,
                                                                          "response": response}}],
                                         "status": "error" if ev["is_error"] else "success",
                                         "timestamp": "2026-03-01T10:00:00Z"})
    for m in messages:
        m.pop("_mid", None)
    return messages


def run_gemini(ctx, case, events, payload):
    messages = gemini_messages(events)
    if case["index"] % 2 == 0:
        chat = os.path.join(case["dir"], "session.json")
        with open(chat, "w", encoding="utf-8") as f:
            json.dump({"sessionId": "s", "projectHash": "p", "startTime": "t", "lastUpdated": "t",
                       "messages": messages}, f, ensure_ascii=False, indent=2)
    else:
        chat = os.path.join(case["dir"], "session.jsonl")
        with open(chat, "w", encoding="utf-8") as f:
            f.write(json.dumps({"sessionId": "s", "projectHash": "p", "startTime": "t"}) + "\n")
            for m in messages:
                f.write(json.dumps(m, ensure_ascii=False) + "\n")
                f.write(json.dumps({"$set": {"lastUpdated": m["timestamp"]}}) + "\n")
    prompts = [e["text"] for e in events if e["kind"] == "prompt"]
    stop = {"session_id": payload.get("session_id", "s"), "transcript_path": chat, "cwd": payload.get("cwd", "/"),
            "hook_event_name": "AfterAgent", "timestamp": "2026-03-01T10:00:00Z",
            "prompt": prompts[-1] if prompts else "", "prompt_response": final_text(events, payload),
            "stop_hook_active": bool(payload.get("stop_hook_active"))}
    return ctx.hook("gemini", stop, case)


# ---------------------------------------------------------------- cursor

def run_cursor(ctx, case, events, payload):
    base = {"conversation_id": payload.get("session_id", "c"), "generation_id": "g", "model": "m",
            "cursor_version": "1.7.2", "workspace_roots": [payload.get("cwd", "/")], "user_email": None}

    def send(event, **fields):
        msg = dict(base, hook_event_name=event, **fields)
        return ctx.hook("cursor", msg, case, observe=True)

    last_text = None
    for ev in events:
        if ev["kind"] in ("prompt", "feedback"):
            send("beforeSubmitPrompt", prompt=ev["text"], attachments=[])
        elif ev["kind"] == "text":
            send("afterAgentResponse", text=ev["text"])
            last_text = ev["text"]
        elif ev["name"] == "Read":
            send("beforeReadFile", file_path=ev["input"].get("file_path", ""), content=ev["output"], attachments=[])
        elif ev["name"] in ("Write", "Edit", "MultiEdit"):
            inp = ev["input"]
            edits = inp.get("edits") or [{"old_string": inp.get("old_string", ""),
                                          "new_string": inp.get("new_string", inp.get("content", ""))}]
            send("afterFileEdit", file_path=inp.get("file_path", ""), edits=edits)
        elif shell_form(ev) is not None:
            send("afterShellExecution", command=shell_form(ev), output=ev["output"], duration=5)
        else:
            send("afterMCPExecution", tool_name=ev["name"], tool_input=json.dumps(ev["input"]),
                 result_json=ev["output"], duration=5)
    final = final_text(events, payload)
    if final != last_text:
        send("afterAgentResponse", text=final)
    return ctx.hook("cursor", dict(base, hook_event_name="stop", status="completed",
                                   loop_count=1 if payload.get("stop_hook_active") else 0), case)


# ---------------------------------------------------------------- copilot

COPILOT_TOOLS = {"Bash": ("bash", lambda i: {"command": i.get("command", "")}),
                 "Read": ("view", lambda i: {"path": i.get("file_path", "")}),
                 "Write": ("create", lambda i: {"path": i.get("file_path", ""), "file_text": i.get("content", "")}),
                 "Edit": ("edit", lambda i: {"path": i.get("file_path", ""), "old_str": i.get("old_string", ""),
                                             "new_str": i.get("new_string", "")})}


def run_copilot(ctx, case, events, payload):
    camel = case["index"] % 2 == 0
    session = payload.get("session_id", "s")
    cwd = payload.get("cwd", "/")

    def send(camel_event, pascal_event, camel_fields, snake_fields):
        if camel:
            msg = dict({"timestamp": 1704614750000, "cwd": cwd, "sessionId": session}, **camel_fields)
        else:
            msg = dict({"hook_event_name": pascal_event, "timestamp": "2026-03-01T10:00:00Z", "cwd": cwd,
                        "session_id": session}, **snake_fields)
        return msg

    transcript = os.path.join(case["dir"], "events.jsonl")
    with open(transcript, "w", encoding="utf-8") as f:
        def event(kind, data):
            f.write(json.dumps({"type": kind, "data": data, "id": "e", "timestamp": "t", "parentId": None},
                               ensure_ascii=False) + "\n")
        event("session.start", {"sessionId": session, "version": 1, "producer": "copilot-agent"})
        for ev in events:
            if ev["kind"] in ("prompt", "feedback"):
                event("user.message", {"content": ev["text"], "attachments": []})
                ctx.hook("copilot", send("userPromptSubmitted", "UserPromptSubmit", {"prompt": ev["text"]},
                                         {"prompt": ev["text"]}), case, observe=True)
            elif ev["kind"] == "text":
                event("assistant.message", {"messageId": ev["mid"], "content": ev["text"], "toolRequests": []})
            else:
                name, args = COPILOT_TOOLS.get(ev["name"], (ev["name"], lambda i: i))
                args = args(ev["input"])
                result_type = "failure" if ev["is_error"] else "success"
                ctx.hook("copilot", send("postToolUse", "PostToolUse",
                                         {"toolName": name, "toolArgs": args,
                                          "toolResult": {"resultType": result_type, "textResultForLlm": ev["output"]}},
                                         {"tool_name": name, "tool_input": args, "tool_response": ev["output"]}),
                         case, observe=True)
        event("assistant.message", {"messageId": "final", "content": final_text(events, payload),
                                    "toolRequests": []})
    active = bool(payload.get("stop_hook_active"))
    if payload.get("hook_event_name") == "SubagentStop":
        stop = send("subagentStop", "SubagentStop",
                    {"transcriptPath": transcript, "agentName": "explore", "agentType": "explore",
                     "response": final_text(events, payload), "stop_hook_active": active},
                    {"transcript_path": transcript, "agent_type": "explore",
                     "last_assistant_message": final_text(events, payload), "stop_hook_active": active})
    else:
        stop = send("agentStop", "Stop", {"transcriptPath": transcript, "stopReason": "end_turn",
                                          "stop_hook_active": active},
                    {"transcript_path": transcript, "stop_reason": "end_turn", "stop_hook_active": active})
    return ctx.hook("copilot", stop, case)


# ---------------------------------------------------------------- driver

SHAPES = {  # agent -> (key of the decision, value when blocked, keys allowed in a block answer)
    "claude-code": ("decision", "block", {"decision", "reason"}),
    "codex": ("decision", "block", {"decision", "reason"}),
    "gemini": ("decision", "deny", {"decision", "reason"}),
    "cursor": ("followup_message", None, {"followup_message"}),
    "copilot": ("decision", "block", {"decision", "reason"}),
}
OBSERVE_ANSWERS = {"beforeSubmitPrompt": {"continue": True}, "beforeReadFile": {"permission": "allow"}}


class Context:
    def __init__(self, binary, failures):
        self.binary = binary
        self.failures = failures
        self.calls = 0
        self.lock = threading.Lock()

    def hook(self, agent, message, case, observe=False):
        env = dict(os.environ, XDG_STATE_HOME=case["state"][agent])
        p = subprocess.run([self.binary, "hook", "--agent", agent], input=json.dumps(message).encode(),
                           capture_output=True, timeout=30, env=env)
        with self.lock:
            self.calls += 1
        where = "%s %s %s" % (case["id"], agent, message.get("hook_event_name", "(camelCase)"))
        if p.returncode != 0:
            self.failures.append("%s: exit %d" % (where, p.returncode))
        out = p.stdout.decode("utf-8", "replace").strip()
        answer = {}
        if out:
            try:
                answer = json.loads(out)
            except ValueError:
                self.failures.append("%s: stdout is not one JSON object: %r" % (where, out[:120]))
        if observe:
            expected = OBSERVE_ANSWERS.get(message.get("hook_event_name"), {})
            if answer != expected:
                self.failures.append("%s: observe answer %r, expected %r" % (where, answer, expected))
            if b"fail-open" in p.stderr:
                self.failures.append("%s: observe event failed open: %s" % (where, p.stderr.decode()[:200]))
            return None
        if b"fail-open" in p.stderr:
            self.failures.append("%s: failed open: %s" % (where, p.stderr.decode()[:300]))
        key, value, allowed = SHAPES[agent]
        if key in answer and (value is None or answer[key] == value):
            if set(answer) != allowed:
                self.failures.append("%s: block answer keys %s, expected %s" % (where, sorted(answer), sorted(allowed)))
            text = answer.get("reason", answer.get("followup_message", ""))
            if not text.startswith("causegate") or len(text) > 10000:
                self.failures.append("%s: block text not causegate's or too long" % where)
            return "block"
        if answer and not set(answer) <= {"systemMessage"}:
            self.failures.append("%s: unexpected answer %r" % (where, answer))
        return "allow"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--source", required=True, help="the source tree (to know whether a rollout reader exists)")
    ap.add_argument("--work", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    casegen = os.path.join(args.shared, "tools", "casegen.py")
    cases_dir = os.path.join(args.shared, "cases")
    if not os.path.isfile(casegen) or not os.path.isdir(cases_dir):
        print("SKIP: %s not found (labelled cases live beside the project in CI only)" % casegen)
        return 77
    os.makedirs(args.work, exist_ok=True)
    rendered = os.path.join(args.work, "rendered")
    subprocess.run([sys.executable, casegen, "--all", cases_dir, rendered], check=True, stdout=subprocess.DEVNULL)

    agents = [("gemini", run_gemini), ("cursor", run_cursor), ("copilot", run_copilot)]
    if os.path.isfile(os.path.join(args.source, "evidence", "codex_rollout.h")):
        agents.insert(0, ("codex", run_codex))
    else:
        print("NOTE: codex not run: evidence/codex_rollout.h is not in the source tree yet, so "
              "evidence::ReadLastTurn cannot read rollout files")

    failures = []
    ctx = Context(args.bin, failures)
    labels = [json.loads(l) for l in open(os.path.join(rendered, "labels.jsonl"), encoding="utf-8")]
    agree = {name: 0 for name, _ in agents}
    state_root = tempfile.mkdtemp(prefix="state-", dir=args.work)
    def judge_case(index, row):
        case_dir = os.path.join(rendered, row["id"])
        payload = json.load(open(os.path.join(case_dir, "payload.json"), encoding="utf-8"))
        case = {"id": row["id"], "dir": case_dir, "index": index,
                "state": {a: os.path.join(state_root, row["id"], a) for a in list(SHAPES)}}
        reference = ctx.hook("claude-code", payload, case)
        if reference != row["label"]:
            failures.append("%s: claude-code decided %s, label %s" % (row["id"], reference, row["label"]))
        subagent = payload.get("hook_event_name") == "SubagentStop" and payload.get("agent_transcript_path")
        session = payload["agent_transcript_path"] if subagent else payload["transcript_path"]
        # Another hook's feedback would reach the other agents as a new
        # user message (a new turn); only causegate's own is carried over.
        events = [e for e in claude_events(session, bool(subagent))
                  if e["kind"] != "feedback" or e["text"].startswith("causegate")]
        for name, run in agents:
            decision = run(ctx, case, events, payload)
            if decision == reference:
                with ctx.lock:
                    agree[name] += 1
            else:
                failures.append("%s: %s decided %s, claude-code %s" % (row["id"], name, decision, reference))

    # Cases are independent (own files, own state folders): two at a time.
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for done in [pool.submit(judge_case, i, row) for i, row in enumerate(labels)]:
            done.result()

    print("cases: %d, hook calls: %d" % (len(labels), ctx.calls))
    for name, _ in agents:
        print("  %-8s decisions equal to Claude Code's: %d of %d" % (name, agree[name], len(labels)))
    for f in failures:
        print("  FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
