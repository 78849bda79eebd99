#!/usr/bin/env python3
"""Seeds one corpus folder per fuzz target, at run time, into the build dir.

Sources: the labelled cases of ../shared/cases (rendered with
../shared/tools/casegen.py), the real transcripts of
../shared/research/fixtures, the project's examples/ and rules/packs/, and a
few hand-written inputs per agent below. ../shared is read, never copied
into the repository: the seeds live only under --out. Without ../shared the
project's own seeds still make a usable corpus.

Usage: seed_corpus.py --source REPO --shared SHARED --out DIR
"""
import argparse
import hashlib
import json
import pathlib
import subprocess
import sys
import tempfile

MAX_SEED_BYTES = 256 << 10  # larger seeds only slow every mutation down

# Agent byte of hook_input_fuzz: auto, claude-code, codex, gemini, cursor, copilot.
AGENT_BYTE = {"auto": 0, "claude-code": 1, "codex": 2, "gemini": 3, "cursor": 4, "copilot": 5}

# One stop input per agent in its own dialect (gate/HOOKS.md), so every
# adapter is reached from the first run.
AGENT_INPUTS = [
    ("codex", {"session_id": "s1", "turn_id": "t7", "hook_event_name": "Stop", "cwd": "/src",
               "transcript_path": "/tmp/rollout.jsonl", "stop_hook_active": False,
               "last_assistant_message": "The test failed because the fixture was stale."}),
    ("gemini", {"session_id": "s2", "hook_event_name": "AfterAgent", "cwd": "/src",
                "transcript_path": "/tmp/chat.json", "prompt": "why is the build red?",
                "prompt_response": "It is red because the lockfile drifted.", "stop_hook_active": True}),
    ("cursor", {"conversation_id": "c1", "generation_id": "g1", "hook_event_name": "stop",
                "status": "completed", "loop_count": 1, "workspace_roots": ["/src"]}),
    ("cursor", {"conversation_id": "c1", "generation_id": "g1", "hook_event_name": "afterShellExecution",
                "command": "make test", "output": "FAIL: test_export (timeout after 30s)"}),
    ("copilot", {"sessionId": "p1", "timestamp": 1767225600000, "cwd": "/src",
                 "hookEventName": "agentStop", "stopReason": "end_turn"}),
    ("copilot", {"session_id": "p2", "hook_event_name": "Stop", "cwd": "/src",
                 "transcript_path": "/tmp/copilot.jsonl", "stop_reason": "end_turn"}),
    ("auto", {"session_id": "a1", "hook_event_name": "SubagentStop", "transcript_path": "/tmp/s.jsonl",
              "agent_transcript_path": "/tmp/agent-1.jsonl", "stop_hook_active": False}),
]


def write(folder, data):
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    data = data[:MAX_SEED_BYTES]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def render_cases(shared, work):
    """Renders every case; returns the folders holding transcript.jsonl."""
    cases, tool = shared / "cases", shared / "tools" / "casegen.py"
    if not cases.is_dir() or not tool.is_file():
        return []
    out = work / "rendered"
    subprocess.run([sys.executable, str(tool), "--all", str(cases), str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    return sorted(p.parent for p in out.glob("*/transcript.jsonl"))


def judge_body(case):
    calls = [{"id": f"t{i}", "name": s.get("tool", "Bash"), "command": str(s.get("input", {}).get("command", "")),
              "input": s.get("input", {}), "output": s.get("output", ""), "is_error": s.get("is_error", False)}
             for i, s in enumerate(case.get("steps", [])) if "tool" in s]
    return json.dumps({"prompt": case.get("prompt", ""), "final_message": case.get("final", ""),
                       "tool_calls": calls, "stop_hook_active": case.get("stop_hook_active", False)})


def citation_input(case):
    steps = [s for s in case.get("steps", []) if "tool" in s]
    command = str(steps[-1].get("input", {}).get("command", "")) if steps else ""
    output = steps[-1].get("output", "") if steps else ""
    return "\0".join([case.get("final", ""), command, output, ""])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source", required=True, type=pathlib.Path)
    ap.add_argument("--shared", required=True, type=pathlib.Path)
    ap.add_argument("--out", required=True, type=pathlib.Path)
    args = ap.parse_args()
    out = args.out

    transcripts, payloads, cases = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for folder in render_cases(args.shared, pathlib.Path(tmp)):
            transcripts.append((folder / "transcript.jsonl").read_bytes())
            payloads.append((folder / "payload.json").read_bytes())
            transcripts += [p.read_bytes() for p in folder.glob("agent-*.jsonl")]
    for case in sorted((args.shared / "cases").glob("*.json")) if (args.shared / "cases").is_dir() else []:
        cases.append(json.loads(case.read_text()))
    fixtures = args.shared / "research" / "fixtures"
    if fixtures.is_dir():
        transcripts += [p.read_bytes() for p in sorted(fixtures.glob("*.jsonl"))]
    examples = args.source / "examples" / "transcripts"
    transcripts += [p.read_bytes() for p in sorted(examples.glob("*.jsonl"))]
    payloads += [p.read_bytes() for p in sorted(examples.glob("*.payload.json"))]

    lines = set()
    for t in transcripts:
        write(out / "transcript_fuzz", t)
        write(out / "line_reader_fuzz", bytes([7, 40]) + t[:4096])
        lines.update(l for l in t.split(b"\n") if l.strip())
    for line in sorted(lines):
        target = "codex_line_fuzz" if b'"payload"' in line[:200] else "claude_line_fuzz"
        write(out / target, line)

    for p in payloads:
        write(out / "hook_input_fuzz", bytes([AGENT_BYTE["auto"]]) + p)
        body = json.loads(p)
        for key in ("transcript_path", "agent_transcript_path"):
            if key in body:
                body[key] = "@ROOT@/session.jsonl"
        write(out / "http_service_fuzz", b"\0" + json.dumps(body).encode())
    for agent, body in AGENT_INPUTS:
        write(out / "hook_input_fuzz", bytes([AGENT_BYTE[agent]]) + json.dumps(body).encode())
        write(out / "http_service_fuzz", b"\0" + json.dumps(body).encode())

    for case in cases:
        write(out / "http_service_fuzz", b"\1" + judge_body(case).encode())
        write(out / "message_citation_fuzz", citation_input(case))
    write(out / "message_citation_fuzz",
          "The job failed because **the disk** was full: `No space left on device`.\n\n"
          "```\n$ df -h /srv\n/dev/sda1 100% /srv\n```\nEvidence: \"No space left on device\"\0"
          "echo 'No space left on device'\0No space left on device\0No space left on device")

    for pack in sorted((args.source / "rules" / "packs").glob("*.json")):
        write(out / "rule_pack_fuzz", pack.read_bytes())

    for folder in sorted(p for p in out.iterdir() if p.is_dir()):
        print(f"seed_corpus: {folder.name}: {sum(1 for _ in folder.iterdir())} inputs")


if __name__ == "__main__":
    main()
