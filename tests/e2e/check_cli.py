#!/usr/bin/env python3
"""End-to-end: `causegate check` and `causegate merge` on a small corpus
written here (Claude Code sessions, a Codex CLI rollout, a broken file), as
CI runs them, and Gemini CLI chat files and Copilot CLI events.jsonl with
explain.

Checks the exit codes (0 / 1 / 2, --max-block-rate), that every report is
read by a real consumer where one exists (JUnit XML by xml.etree with the
elements and counts JUnit readers require, SARIF against the SARIF 2.1.0
schema subset in check_sarif_schema.json with python3-jsonschema), that
the reports agree with the JSON results, that -j does not change results,
and that --shard I/N splits a corpus into disjoint shares whose merged
results equal one full run.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("  FAIL " + what)


def run(binary, *args, cwd=None):
    p = subprocess.run([binary] + list(args), capture_output=True, cwd=cwd, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


# ------------------------------------------------------------------ corpus

def claude_line(typ, message, n, **extra):
    obj = {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/srv/app",
           "sessionId": "5c1d7a34-0000-4000-8000-00000000000%d" % (n % 10), "version": "2.1.59", "type": typ,
           "message": message, "uuid": "u-%d" % n, "timestamp": "2026-03-01T10:00:%02d.000Z" % (n % 60)}
    obj.update(extra)
    return json.dumps(obj, ensure_ascii=False)


def session(turns):
    """turns: (prompt, [(command, output)], final)."""
    lines, n = [], 0
    for prompt, calls, final in turns:
        n += 1
        lines.append(claude_line("user", {"role": "user", "content": prompt}, n))
        for k, (command, output) in enumerate(calls):
            n += 1
            tid = "toolu_%d_%d" % (n, k)
            lines.append(claude_line("assistant", {"id": "msg_c%d" % n, "role": "assistant", "content": [
                {"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": command}}]}, n))
            n += 1
            lines.append(claude_line("user", {"role": "user", "content": [
                {"tool_use_id": tid, "type": "tool_result", "content": output, "is_error": False}]}, n,
                toolUseResult={"stdout": output, "stderr": ""}))
        n += 1
        lines.append(claude_line("assistant", {"id": "msg_f%d" % n, "role": "assistant", "model": "claude-opus-4-6",
                                               "content": [{"type": "text", "text": final}]}, n))
    return "\n".join(lines) + "\n"


def rollout(prompt, command, output, final):
    def line(typ, payload):
        return json.dumps({"timestamp": "2026-03-02T10:00:00.000Z", "type": typ, "payload": payload})
    return "\n".join([
        line("session_meta", {"id": "019b", "cwd": "/srv/app", "cli_version": "0.77.0"}),
        line("event_msg", {"type": "task_started", "turn_id": "1"}),
        line("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]}),
        line("event_msg", {"type": "user_message", "message": prompt, "images": []}),
        line("turn_context", {"cwd": "/srv/app", "model": "gpt-5.2-codex"}),
        line("response_item", {"type": "function_call", "name": "shell", "call_id": "c1",
                               "arguments": json.dumps({"command": ["bash", "-lc", command]})}),
        line("response_item", {"type": "function_call_output", "call_id": "c1", "output": output}),
        line("response_item", {"type": "message", "role": "assistant",
                               "content": [{"type": "output_text", "text": final}]}),
        line("event_msg", {"type": "task_complete", "turn_id": "1", "last_agent_message": final}),
    ]) + "\n"


OOM = "kernel: Out of memory: Killed process 4812 (python)"


def write_corpus(root):
    if os.path.isdir(root):
        shutil.rmtree(root)
    clean = os.path.join(root, "clean")
    mixed = os.path.join(root, "mixed", "2026", "03")
    os.makedirs(clean)
    os.makedirs(mixed)
    with open(os.path.join(clean, "ok.jsonl"), "w") as f:
        f.write(session([("why did the export job die?", [("dmesg | tail -1", OOM)],
                          "The job died because `Out of memory: Killed process 4812`."),
                         ("rename the flag", [], "Renamed it; tests pass.")]))
    with open(os.path.join(mixed, "a.jsonl"), "w") as f:
        f.write(session([("why did the export job die?", [("dmesg | tail -1", OOM)],
                          "The job died because `Out of memory: Killed process 4812`."),
                         ("why is the api slow since the deploy?", [("uptime", "load average: 0.10")],
                          "The API is slow because `Connection pool exhausted: 64/64 in use`."),
                         ("and the worker?", [], "The worker crashed because the disk filled up."),
                         ("add a test", [], "Added the test.")]))
    with open(os.path.join(mixed, "rollout-2026-03-02T10-00-00-x.jsonl"), "w") as f:
        f.write(rollout("why does the nightly job fail?", "journalctl -u nightly | tail -2",
                        "nightly[77]: error: permission denied: /var/lib/nightly",
                        "The nightly job fails because `error: permission denied: /var/lib/nightly/lock`."))
    broken = os.path.join(root, "mixed", "broken.jsonl")
    with open(broken, "w") as f:
        f.write("this is not a transcript\n")
    return clean, os.path.join(root, "mixed")


# ------------------------------------------------------------------ consumers

def check_junit(path, results):
    tree = ET.parse(path)  # raises on anything an XML parser refuses
    root = tree.getroot()
    check(root.tag == "testsuites", "junit: root is <testsuites>")
    total_tests = total_failures = total_errors = 0
    for suite in root.findall("testsuite"):
        for attr in ("name", "tests", "failures", "errors"):
            check(attr in suite.attrib, "junit: testsuite has %s" % attr)
        cases = suite.findall("testcase")
        failures = sum(len(c.findall("failure")) for c in cases)
        errors = sum(len(c.findall("error")) for c in cases)
        check(int(suite.get("tests")) == len(cases), "junit: %s tests= counts its testcases" % suite.get("name"))
        check(int(suite.get("failures")) == failures, "junit: %s failures= counts its failures" % suite.get("name"))
        check(int(suite.get("errors")) == errors, "junit: %s errors= counts its errors" % suite.get("name"))
        for c in cases:
            check(c.get("name") and c.get("classname"), "junit: testcase has name and classname")
            for failure in c.findall("failure"):
                check(failure.get("message"), "junit: failure has a message")
        total_tests += len(cases)
        total_failures += failures
        total_errors += errors
    summary = results["summary"]
    check(total_tests == summary["turns"] + summary["unreadable"], "junit: a testcase per turn and per unreadable file")
    check(total_failures == summary["blocked"] + summary["unproven"], "junit: a failure per flagged turn")
    check(total_errors == summary["unreadable"], "junit: an error per unreadable file")
    check(int(root.get("failures")) == total_failures, "junit: testsuites failures= is the total")


def check_sarif(path, schema_path, results):
    try:
        import jsonschema
    except ImportError:
        check(False, "sarif: python3-jsonschema is missing (scripts/install-deps installs it)")
        return
    with open(path) as f:
        sarif = json.load(f)
    with open(schema_path) as f:
        schema = json.load(f)
    errors = sorted(jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker()).iter_errors(sarif),
                    key=lambda e: list(e.path))
    for e in errors[:5]:
        check(False, "sarif: schema: %s at %s" % (e.message, "/".join(map(str, e.path))))
    check(not errors, "sarif: valid against the SARIF 2.1.0 schema subset")
    run_ = sarif["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    unsupported = [(t, c) for t in results["turns"] for c in t["claims"] if c["finding"] != "supported"]
    check(len(run_["results"]) == len(unsupported), "sarif: a result per unsupported claim")
    for r, (t, c) in zip(run_["results"], unsupported):
        check(rules[r["ruleIndex"]]["id"] == r["ruleId"] == c["rule"], "sarif: ruleIndex points at the rule")
        loc = r["locations"][0]["physicalLocation"]
        check(loc["region"]["startLine"] == t["final_line"], "sarif: located at the final message's line")
        check(loc["artifactLocation"]["uri"] == t["file"], "sarif: artifact is the transcript (relative)")
    check(run_["invocations"][0]["executionSuccessful"] == (results["summary"]["unreadable"] == 0),
          "sarif: an unreadable file makes the run unsuccessful")


def check_text_formats(out_dir, results):
    unsupported = sum(1 for t in results["turns"] for c in t["claims"] if c["finding"] != "supported")
    with open(os.path.join(out_dir, "r.txt")) as f:
        text = f.read().splitlines()
    claim_lines = [l for l in text if re.match(r"^.+:\d+: turn \d+: (block|allow-unproven): [a-z-]+ \([a-z.-]+\): \"", l)]
    check(len(claim_lines) == unsupported, "text: a line per unsupported claim")
    check(text[-1].startswith("causegate check: "), "text: ends with the summary")
    with open(os.path.join(out_dir, "r.gh")) as f:
        gh = f.read().splitlines()
    annotations = [l for l in gh if re.match(r"^::(error|warning) file=[^,:]+(,line=\d+)?,title=[^:]+::", l)]
    check(len(annotations) == unsupported + results["summary"]["unreadable"],
          "github: an annotation per unsupported claim and unreadable file")
    with open(os.path.join(out_dir, "r.md")) as f:
        md = f.read()
    check(md.startswith("## causegate check\n"), "markdown: heading")
    check("| finding | unsupported claims |" in md and "### Flagged turns" in md, "markdown: tables")


# Gemini CLI 0.61 chat file: a header, "$set" lines, each gemini message written
# twice under one id (the second with the tool result), tool output in
# Gemini's wrapper; and a Copilot CLI 1.0.102 events.jsonl.
CLAIM = "The build failed because the OpenSSL headers are missing."
LOG_LINE = "ld: cannot find -lssl"


def gemini_chat():
    call = {"id": "run_shell_command-1", "name": "run_shell_command", "args": {"command": "cat build.log"},
            "status": "success", "timestamp": "2026-12-01T10:00:02Z"}
    done = dict(call, result=[{"functionResponse": {"id": call["id"], "name": call["name"], "response": {
        "output": "<untrusted_context>\nOutput: %s\nProcess Group PGID: 13904\n</untrusted_context>" % LOG_LINE}}}])
    lines = [{"sessionId": "5c1d7a34", "projectHash": "ab12", "startTime": "2026-12-01T10:00:00Z",
              "lastUpdated": "2026-12-01T10:00:00Z", "kind": "main"},
             {"$set": {"lastUpdated": "2026-12-01T10:00:01Z"}},
             {"id": "u1", "timestamp": "2026-12-01T10:00:01Z", "type": "user",
              "content": [{"text": "why did the build fail?"}]},
             {"id": "g1", "timestamp": "2026-12-01T10:00:02Z", "type": "gemini", "content": "", "toolCalls": [call]},
             {"id": "g1", "timestamp": "2026-12-01T10:00:02Z", "type": "gemini", "content": "", "toolCalls": [done]},
             {"id": "g2", "timestamp": "2026-12-01T10:00:03Z", "type": "gemini", "content": CLAIM,
              "model": "gemini-2.5-pro"}]
    return "".join(json.dumps(x) + "\n" for x in lines)


def copilot_events():
    def event(n, typ, data):
        return {"type": typ, "data": data, "id": "e%d" % n, "timestamp": "2026-12-01T10:00:%02dZ" % n,
                "parentId": None}
    lines = [event(1, "session.start", {"sessionId": "c1", "copilotVersion": "1.0.102",
                                        "context": {"cwd": "/home/dev/app"}}),
             event(1, "session.model_change", {"newModel": "claude-sonnet-4.5"}),
             event(2, "user.message", {"content": "why did the build fail?"}),
             event(3, "assistant.turn_start", {"turnId": "0"}),
             event(4, "assistant.message", {"messageId": "m1", "content": "", "toolRequests": [
                 {"toolCallId": "call_1", "name": "bash", "arguments": {"command": "cat build.log"}}]}),
             event(5, "tool.execution_complete", {"toolCallId": "call_1", "success": True, "result": {
                 "content": LOG_LINE + "\n<shellId: 0 completed with exit code 1>"}}),
             event(6, "assistant.message", {"messageId": "m2", "content": CLAIM}),
             event(7, "assistant.turn_end", {"turnId": "0"})]
    return "".join(json.dumps(x) + "\n" for x in lines)


def check_other_agents(binary, root):
    """check and explain read Gemini chat files and Copilot events.jsonl; a
    file of no known format is an error, never 0 turns and exit 0."""
    print("other agents' files")
    os.makedirs(root, exist_ok=True)
    files = {"session-2026-12-01T10-00-ab12cd34.jsonl": (gemini_chat(), "gemini-chat"),
             "events.jsonl": (copilot_events(), "copilot-events")}
    for name, (text, fmt) in files.items():
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
        code, out, err = run(binary, "check", name, "--format", "json", cwd=root)
        check(code == 1, "%s: the unsupported claim is blocked, exit 1 (got %d: %s)" % (name, code, err))
        results = json.loads(out) if out.startswith("{") else {"files": [{}], "turns": []}
        check(results["files"][0].get("format") == fmt, "%s: read as %s: %s" % (name, fmt, results["files"]))
        check(len(results["turns"]) == 1 and results["turns"][0].get("action") == "block",
              "%s: one turn, blocked: %s" % (name, results["turns"]))
        code, out, err = run(binary, "explain", name, cwd=root)  # exit 1: it would block
        check(code == 1 and "why did the build fail?" in out and "cat build.log" in out,
              "%s: explain shows the prompt and the tool call (got %d: %s)" % (name, code, (out + err)[:300]))
        check("NCCL" not in out, "%s: no distributed / NCCL symptom from the wrapper" % name)
        quoted = text.replace(CLAIM, CLAIM[:-1] + ": `%s`." % LOG_LINE)
        with open(os.path.join(root, "quoted-" + name), "w") as f:
            f.write(quoted)
        code, out, err = run(binary, "check", "quoted-" + name, cwd=root)
        check(code == 0 and "1 turn: 0 blocked" in out, "quoted-%s: the quoted claim passes (got %d: %s)"
              % (name, code, out + err))
    with open(os.path.join(root, "other.jsonl"), "w") as f:
        f.write('{"role":"user","text":"hi"}\n{"role":"model","text":"hello"}\n')
    code, out, err = run(binary, "check", "other.jsonl", cwd=root)
    check(code == 2 and "unknown transcript format" in out, "a file of no known format exits 2 and says so "
          "(got %d: %s)" % (code, out + err))


CONTEXT_KEYS = ("session_id", "agent", "agent_version", "model", "started_at", "project")


def check_context(binary, work):
    """Every turn object carries its context, for each agent's files: the
    session, the agent and its version, the model, the turn's start (ISO
    8601) and the folder; null where the transcript does not say."""
    print("turn context")
    _, out, _ = run(binary, "check", "corpus/mixed/2026", "--format", "json", cwd=work)
    turns = json.loads(out)["turns"]
    claude = [t for t in turns if t["file"].endswith("/a.jsonl")]
    check(len(claude) == 4, "four Claude Code turns")
    # claude_line numbers lines from 1; the prompt of turn k is line n with timestamp :%02d (n % 60).
    for t in claude:
        want = {"agent": "claude-code", "agent_version": "2.1.59", "model": "claude-opus-4-6", "project": "/srv/app",
                "started_at": "2026-03-01T10:00:%02d.000Z" % (t["prompt_line"] % 60)}
        got = {k: t.get(k) for k in want}
        check(got == want, "claude turn %d context: %s" % (t["turn"], got))
        check(t["session_id"].startswith("5c1d7a34-"), "claude turn session id: %s" % t["session_id"])
    codex = [t for t in turns if "rollout" in t["file"]][0]
    want = {"session_id": "019b", "agent": "codex", "agent_version": "0.77.0", "model": "gpt-5.2-codex",
            "started_at": "2026-03-02T10:00:00.000Z", "project": "/srv/app"}
    check({k: codex.get(k) for k in CONTEXT_KEYS} == want, "codex context: %s" % {k: codex.get(k) for k in CONTEXT_KEYS})
    root = os.path.join(work, "agents", "context")
    gemini_dir = os.path.join(root, ".gemini", "tmp", "my-app", "chats")
    os.makedirs(gemini_dir, exist_ok=True)
    copilot_dir = os.path.join(root, ".copilot", "session-state", "c1")
    os.makedirs(copilot_dir, exist_ok=True)
    with open(os.path.join(gemini_dir, "session-2026-12-01T10-00-ab12cd34.jsonl"), "w") as f:
        f.write(gemini_chat())
    with open(os.path.join(copilot_dir, "events.jsonl"), "w") as f:
        f.write(copilot_events())
    _, out, err = run(binary, "check", ".gemini", ".copilot", "--format", "json", cwd=root)
    got = {t["agent"]: {k: t.get(k) for k in CONTEXT_KEYS} for t in json.loads(out)["turns"]}
    check(got.get("gemini") == {"session_id": "5c1d7a34", "agent": "gemini", "agent_version": None,
                                "model": "gemini-2.5-pro", "started_at": "2026-12-01T10:00:01Z", "project": "my-app"},
          "gemini context (project from ~/.gemini/tmp/<project>/chats): %s" % got.get("gemini"))
    check(got.get("copilot") == {"session_id": "c1", "agent": "copilot", "agent_version": "1.0.102",
                                 "model": "claude-sonnet-4.5", "started_at": "2026-12-01T10:00:02Z",
                                 "project": "/home/dev/app"}, "copilot context: %s" % got.get("copilot"))
    # merge reads the fields back and writes them unchanged.
    _, out, _ = run(binary, "check", "corpus/mixed/2026", "--output", "json=out/ctx.json", "--quiet", cwd=work)
    _, merged, _ = run(binary, "merge", "out/ctx.json", "--format", "json", cwd=work)
    check(all(t.get("model") for t in json.loads(merged)["turns"]), "merge keeps the context")


def check_baseline(binary, work):
    """Write a baseline of today's flagged turns, add a flagged turn: only
    it fails, and the run says how many known ones it skipped."""
    print("baseline and statistics")
    root = os.path.join(work, "corpus", "baseline")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    turns = [("why did the export job die?", [("dmesg | tail -1", OOM)], "The job died because the disk filled up."),
             ("and the worker?", [], "The worker crashed because the disk filled up.")]
    path = os.path.join(root, "s.jsonl")
    with open(path, "w") as f:
        f.write(session(turns))
    base = os.path.join(work, "out", "baseline.json")
    code, _, err = run(binary, "check", "corpus/baseline", "--write-baseline", base, cwd=work)
    check(code == 0 and "wrote the baseline" in err, "--write-baseline records and exits 0 (%d: %s)" % (code, err))
    with open(base) as f:
        doc = json.load(f)
    check(doc["format"] == "causegate-baseline" and len(doc["claims"]) == 2, "the baseline holds both claims: %s" % doc)
    code, out, err = run(binary, "check", "corpus/baseline", "--baseline", base, cwd=work)
    check(code == 0 and "2 known flagged turns skipped" in err, "nothing new: exit 0, says 2 skipped (%d: %s)" % (code, err))
    _, sarif, _ = run(binary, "check", "corpus/baseline", "--format", "sarif", cwd=work)
    prints = {r["partialFingerprints"]["causegateClaim/v1"] for r in json.loads(sarif)["runs"][0]["results"]}
    check(prints == {c["fingerprint"] for c in doc["claims"]}, "the baseline's fingerprints are SARIF's")
    # A session that grows keeps its old turns' numbers; the new one fails alone.
    with open(path, "w") as f:
        f.write(session(turns + [("why did the cron job crash?", [], "The cron job crashed because the token expired.")]))
    code, out, err = run(binary, "check", "corpus/baseline", "--baseline", base, "--format", "json", cwd=work)
    got = json.loads(out)
    flagged = [t["turn"] for t in got["turns"] if t["action"] != "allow" and not t.get("known")]
    check(code == 1 and flagged == [3], "only the new turn fails (%d, %s)" % (code, flagged))
    check(got["summary"]["known"] == 2 and got["summary"]["blocked"] == 1, "summary: %s" % got["summary"])
    code, out, _ = run(binary, "check", "corpus/baseline", "--statistics", cwd=work)
    check(code == 1 and out.splitlines()[0].split() == ["2", "en.claim.because", "no-probe"] and
          out.splitlines()[-1].split()[0] == "3", "--statistics counts per rule and finding, most first: %r" % out)
    code, out, _ = run(binary, "check", "corpus/baseline", "--baseline", base, "--statistics", cwd=work)
    check(out.splitlines()[0].split() == ["1", "en.claim.because", "no-probe"] and len(out.splitlines()) == 2,
          "--statistics skips known: %r" % out)
    with open(os.path.join(work, "out", "not-a-baseline.json"), "w") as f:
        f.write("{}")
    code, _, err = run(binary, "check", "corpus/baseline", "--baseline", "out/not-a-baseline.json", cwd=work)
    check(code == 2 and "not a baseline" in err, "a file that is no baseline is an input error: %r" % err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    work = os.path.abspath(args.work)
    clean, mixed = write_corpus(os.path.join(work, "corpus"))
    os.makedirs(os.path.join(work, "out"), exist_ok=True)
    rel = os.path.relpath

    print("exit codes")
    code, out, err = run(binary, "check", "corpus/clean", cwd=work)
    check(code == 0, "clean corpus exits 0 (got %d: %s)" % (code, err))
    check(out.endswith("causegate check: 1 file, 2 turns: 0 blocked (0.0%)\n"), "clean summary: %r" % out[-80:])
    code, out, err = run(binary, "check", "corpus/mixed/2026", cwd=work)
    check(code == 1, "blocked turns exit 1 (got %d)" % code)
    code, _, _ = run(binary, "check", "corpus/mixed/2026", "--max-block-rate", "60%", cwd=work)
    check(code == 0, "--max-block-rate above the rate exits 0 (got %d)" % code)
    code, _, _ = run(binary, "check", "corpus/mixed/2026", "--max-block-rate", "0.1", cwd=work)
    check(code == 1, "--max-block-rate below the rate exits 1 (got %d)" % code)
    code, out, err = run(binary, "check", "corpus/mixed", cwd=work)
    check(code == 2, "an unreadable file exits 2 (got %d)" % code)
    check("corpus/mixed/broken.jsonl: unreadable: " in out and "unknown transcript format" in out,
          "the unreadable file is reported: %r" % out)
    for bad in (["corpus/nothing-here"], ["corpus/*.nope"], ["corpus/clean", "--shard", "3/2"],
                ["corpus/clean", "--format", "pdf"], ["corpus/clean", "--output", "sarif"],
                ["corpus/clean", "--max-block-rate", "2"], ["corpus/clean", "-j", "-1"]):
        code, _, err = run(binary, "check", *bad, cwd=work)
        check(code == 2, "usage/input error exits 2: %s (got %d)" % (" ".join(bad), code))
        check(err.strip() != "", "usage/input error says why: %s" % " ".join(bad))
    check("\r" not in err, "no progress line when stderr is not a terminal")

    print("formats")
    outputs = ["json=out/r.json", "junit=out/r.xml", "sarif=out/r.sarif", "text=out/r.txt", "github=out/r.gh",
               "markdown=out/r.md", "html=out/r.html"]
    code, out, err = run(binary, "check", "corpus/mixed", *sum((["--output", o] for o in outputs), []), cwd=work)
    check(code == 2 and out == "", "files only: nothing on stdout, exit 2 for the broken file")
    check("unreadable" in err and "causegate check: " in err, "files only: errors and summary on stderr")
    with open(os.path.join(work, "out", "r.json")) as f:
        results = json.load(f)
    s = results["summary"]
    check(s["files"] == 3 and s["unreadable"] == 1 and s["turns"] == 5, "json summary: %s" % s)
    check(s["blocked"] == 3, "json: three blocked turns (got %d)" % s["blocked"])
    by_file = {f["path"]: f for f in results["files"]}
    check(by_file["corpus/mixed/2026/03/rollout-2026-03-02T10-00-00-x.jsonl"]["format"] == "codex-rollout",
          "json: the rollout is read as Codex CLI")
    codex_turn = [t for t in results["turns"] if "rollout" in t["file"]][0]
    check(codex_turn["action"] == "block" and codex_turn["claims"][0]["finding"] == "fabricated",
          "the rollout's fabricated quote is blocked")
    check(codex_turn["final_line"] == 9, "the rollout's final line is task_complete's")
    for t in results["turns"]:
        for c in t["claims"]:
            b, e = c["span"]
            check(t["final_message"].encode()[b:e].decode() == c["sentence"] or c["sentence"] in
                  t["final_message"].encode()[b:e].decode().replace("`", ""), "claim span holds its sentence")
    check_junit(os.path.join(work, "out", "r.xml"), results)
    check_sarif(os.path.join(work, "out", "r.sarif"), os.path.join(os.path.dirname(__file__), "check_sarif_schema.json"),
                results)
    check_text_formats(os.path.join(work, "out"), results)
    code, out, _ = run(binary, "check", "corpus/mixed", "--format", "json", cwd=work)
    with open(os.path.join(work, "out", "r.json")) as f:
        check(out == f.read(), "--format json on stdout is the --output json file")

    print("compaction summaries")
    # Claude Code's compaction subagent (research fixture
    # agent-acompact-e1f845.jsonl): its summary is no agent's answer, so
    # neither check nor the hook judges it (gate/HOOKS.md).
    compact = os.path.join(work, "corpus", "compact")
    os.makedirs(compact, exist_ok=True)
    summary = session([("Your task is to create a detailed summary of the conversation so far.", [],
                        "<analysis>The build failed because the cache was stale.</analysis>")])
    summary = "\n".join(json.dumps(dict(json.loads(l), isSidechain=True, agentId="acompact-e1f845"))
                        for l in summary.splitlines()) + "\n"
    for name in ("agent-acompact-e1f845.jsonl", "agent-a1b2c3.jsonl"):
        with open(os.path.join(compact, name), "w") as f:
            f.write(summary)
    code, out, err = run(binary, "check", "corpus/compact", "--format", "json", cwd=work)
    got = json.loads(out)
    note = "compaction summary: not an agent's answer (spec section 3)"
    check(code == 0 and got["summary"]["turns"] == 0, "compaction summaries: no turns judged, exit 0 (%d: %s)" % (code, err))
    check(all(f.get("not_judged") == note for f in got["files"]), "json: each file says why: %s" % got["files"])
    code, out, _ = run(binary, "check", "corpus/compact", cwd=work)
    check("corpus/compact/agent-acompact-e1f845.jsonl: not judged: " + note in out, "text: the file says why: %r" % out)
    for payload in ({"agent_id": "acompact-e1f845", "agent_transcript_path": os.path.join(compact, "agent-a1b2c3.jsonl")},
                    {"agent_transcript_path": os.path.join(compact, "agent-acompact-e1f845.jsonl")}):
        payload.update(hook_event_name="SubagentStop", session_id="s", transcript_path=os.path.join(compact, "main.jsonl"))
        p = subprocess.run([binary, "hook", "--agent", "claude-code"], input=json.dumps(payload), capture_output=True,
                           text=True, timeout=60)
        check(p.returncode == 0 and p.stdout == "" and note in p.stderr,
              "hook: the SubagentStop is allowed, and stderr says why: %r %r" % (p.stdout, p.stderr))
    for name in ("agent-acompact-e1f845.jsonl", "agent-a1b2c3.jsonl"):
        code, out, _ = run(binary, "explain", "--subagent", os.path.join(compact, name), cwd=work)
        check(code == 0 and "not judged: " + note in out, "explain %s: says it is not judged: %r" % (name, out))

    print("workers and shards")
    corpus = os.path.join(work, "corpus", "generated")
    subprocess.run([sys.executable, os.path.join(args.source, "bench", "check_corpus.py"), corpus,
                    "--sizes", ",".join(["0.03"] * 12), "--codex-share", "0.3", "--seed", "3"],
                   check=True, capture_output=True)
    _, full, _ = run(binary, "check", "corpus/generated", "-j", "1", "--format", "json", cwd=work)
    _, full_j3, _ = run(binary, "check", "corpus/generated", "-j", "3", "--format", "json", cwd=work)
    check(full == full_j3, "-j 1 and -j 3 give the same results")
    full_results = json.loads(full)
    shards, seen = [], []
    for i in range(1, 4):
        path = os.path.join(work, "out", "shard%d.json" % i)
        code, _, err = run(binary, "check", "corpus/generated", "--shard", "%d/3" % i, "--output", "json=" + path,
                           "--quiet", cwd=work)
        check(code in (0, 1), "shard %d runs (got %d: %s)" % (i, code, err))
        check(err == "", "--quiet: nothing on stderr")
        with open(path) as f:
            files = [x["path"] for x in json.load(f)["files"]]
        seen += files
        shards.append(path)
    check(sorted(seen) == sorted(f["path"] for f in full_results["files"]), "shards are disjoint and cover the corpus")
    check(all(len(s) > 0 for s in [seen]), "shards hold files")
    code, merged, _ = run(binary, "merge", *shards, "--format", "json", cwd=work)
    check(merged == full, "merged shards equal one full run")
    check(code == (1 if full_results["summary"]["blocked"] else 0), "merge exits as check would (got %d)" % code)
    _, merged_sarif, _ = run(binary, "merge", *shards, "--format", "sarif", cwd=work)
    _, full_sarif, _ = run(binary, "check", "corpus/generated", "--format", "sarif", cwd=work)
    check(merged_sarif == full_sarif, "merge renders the same SARIF as check")
    code, _, err = run(binary, "merge", "corpus/clean/ok.jsonl", cwd=work)
    check(code == 2 and "not check results" in err, "merge refuses a file that is not check results")

    check_other_agents(binary, os.path.join(work, "agents"))
    check_context(binary, work)
    check_baseline(binary, work)

    print("%d failure(s)" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
