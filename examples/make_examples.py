#!/usr/bin/env python3
"""Writes the example sessions in examples/transcripts/ as Claude Code
writes them (one JSONL line per content block, tool results as user lines,
Stop-hook lines at the end of finished turns) and a Stop-hook input for
each. Deterministic: run it again and the files do not change.

    python3 examples/make_examples.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "transcripts")
SESSION = "5f0c2a8e-7d1b-4c55-9a31-0b8e2f6d4c17"


class Session:
    def __init__(self, name, cwd):
        self.name, self.cwd, self.lines, self.n = name, cwd, [], 0
        self.parent = None

    def uid(self):
        self.n += 1
        return "00000000-0000-4000-8000-%012d" % self.n

    def stamp(self):
        return "2026-11-20T09:%02d:%02d.000Z" % (self.n // 60, self.n % 60)

    def add(self, obj):
        u = self.uid()
        base = {"parentUuid": self.parent, "isSidechain": False, "userType": "external",
                "cwd": self.cwd, "sessionId": SESSION, "version": "2.1.63",
                "gitBranch": "main", "uuid": u, "timestamp": self.stamp()}
        base.update(obj)
        self.lines.append(base)
        self.parent = u

    def prompt(self, text):
        self.add({"type": "user", "message": {"role": "user", "content": text},
                  "permissionMode": "default"})

    def assistant(self, msg_id, block):
        self.add({"type": "assistant", "requestId": "req_" + msg_id,
                  "message": {"model": "claude-opus-4-6", "id": "msg_" + msg_id,
                              "type": "message", "role": "assistant",
                              "content": [block], "stop_reason": None}})

    def tool(self, msg_id, tool_id, name, inp, output, is_error=False):
        self.assistant(msg_id, {"type": "tool_use", "id": tool_id, "name": name, "input": inp})
        self.add({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": tool_id, "content": output,
             "is_error": is_error}]},
            "toolUseResult": {"stdout": output, "stderr": "", "interrupted": False}})

    def text(self, msg_id, text):
        self.assistant(msg_id, {"type": "text", "text": text})

    def end_turn(self):
        self.add({"type": "progress", "data": {"type": "hook_progress", "hookEvent": "Stop",
                                                "hookName": "Stop", "command": "causegate hook"}})
        self.add({"type": "system", "subtype": "stop_hook_summary", "hookCount": 1,
                  "hookInfos": [{"command": "causegate hook"}], "hookErrors": [],
                  "preventedContinuation": False, "stopReason": "", "hasOutput": False})

    def write(self, final):
        path = os.path.join(OUT, self.name + ".jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for line in self.lines:
                f.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
        payload = {"session_id": SESSION,
                   "transcript_path": "examples/transcripts/%s.jsonl" % self.name,
                   "cwd": self.cwd, "permission_mode": "default", "hook_event_name": "Stop",
                   "stop_hook_active": False, "last_assistant_message": final}
        with open(os.path.join(OUT, self.name + ".payload.json"), "w", encoding="utf-8") as f:
            json.dump(payload, f, ensure_ascii=False, indent=2)
            f.write("\n")


JOURNAL = ("Nov 20 08:59:58 build-7 systemd[1]: Started nightly-export.service.\n"
           "Nov 20 09:00:41 build-7 export[30412]: writing part 14 of 20 to /srv/exports/2026-11-20\n"
           "Nov 20 09:00:43 build-7 export[30412]: OSError: [Errno 28] No space left on device: "
           "'/srv/exports/2026-11-20/part-14.parquet'\n"
           "Nov 20 09:00:43 build-7 systemd[1]: nightly-export.service: Main process exited, "
           "code=exited, status=1/FAILURE")
DF = ("Filesystem      Size  Used Avail Use% Mounted on\n"
      "/dev/nvme1n1p1  500G  500G     0 100% /srv")


def export_session(name, final, prompt="the nightly export job failed again this morning. why?"):
    s = Session(name, "/srv/app/exporter")
    s.prompt(prompt)
    s.text("a1", "Let me look at the service log first.")
    s.tool("a2", "toolu_ex1", "Bash",
           {"command": "journalctl -u nightly-export --since today --no-pager | tail -4"}, JOURNAL)
    s.tool("a3", "toolu_ex2", "Bash", {"command": "df -h /srv"}, DF)
    s.text("a4", final)
    s.write(final)


BLOCKED = ("The export failed because the log rotation job deleted the staging folder while "
           "part 14 was being written. Moving log rotation to 04:00 will fix it.")
ALLOWED = ("The export failed because /srv is full: the journal shows "
           "`OSError: [Errno 28] No space left on device` while writing part 14, and df reports "
           "`/dev/nvme1n1p1  500G  500G     0 100% /srv`.\n\n"
           "Next I'd find what filled the disk (`du -sh /srv/*`) before deleting anything.")

BLOCKED_ZH = "导出失败是因为日志轮转任务在写第 14 个分片时删掉了暂存目录。把日志轮转挪到 04:00 就好了。"

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    export_session("export-blocked", BLOCKED)
    export_session("export-allowed", ALLOWED)
    export_session("export-blocked-zh", BLOCKED_ZH, prompt="夜间导出任务今天早上又失败了，为什么？")
