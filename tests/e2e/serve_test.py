#!/usr/bin/env python3
"""End-to-end: `causegate serve` on a loopback port picked at run time.

Routes (/hook, /v1/judge, /healthz, /metrics, unknown routes and methods),
transcript roots (outside, symlink and .. escapes), fail-open on input the
gate cannot judge, limits (body, headers), the bearer token (missing, wrong,
right; a public address refused without one), the audit log, `hook
--server` with the daemon up, down and hanging, and the drain on SIGTERM of
a request in flight.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

from serve_util import Checks, Daemon, metric, run_hook, transcript

OOM = "Out of memory: Killed process 4242 (python) total-vm:81234kB"
UNSUPPORTED = "The root cause is the disk filling up on the node."
SUPPORTED = "The root cause is the kernel OOM killer: `%s`." % OOM


def test_routes_roots_fail_open(c, binary, work):
    root = os.path.join(work, "root")
    outside = os.path.join(work, "outside")
    audit = os.path.join(work, "audit.jsonl")
    blocked = transcript(os.path.join(root, "p", "blocked.jsonl"), UNSUPPORTED)
    allowed = transcript(os.path.join(root, "p", "allowed.jsonl"), SUPPORTED)
    escaped = transcript(os.path.join(outside, "secret.jsonl"), UNSUPPORTED)
    os.symlink(os.path.join(outside, "secret.jsonl"), os.path.join(root, "p", "link.jsonl"))
    os.symlink(outside, os.path.join(root, "p", "dir-link"))
    config = os.path.join(work, "limits.json")
    with open(config, "w") as f:
        json.dump({"max_body_bytes": 65536, "max_header_bytes": 2048, "read_timeout_ms": 500}, f)
    d = Daemon(binary, work, ["--root", root, "--audit-log", audit, "--config", config], name="main")
    try:
        status, health = d.json("GET", "/healthz")
        c.check(status == 200 and health["status"] == "ok" and health["rules"] > 0, "healthz: %s" % health)
        names = [p["name"] for p in health["packs"]]
        c.check("en" in names and "zh" in names and all(p["version"] for p in health["packs"]),
                "healthz packs: %s" % health["packs"])

        # A second daemon on the same port is refused, not load-balanced (no SO_REUSEPORT).
        p = subprocess.run([binary, "serve", "--listen", "127.0.0.1:%d" % d.port, "--root", root],
                           capture_output=True, text=True, timeout=30)
        c.check(p.returncode == 1 and "cannot bind" in p.stderr, "port in use: %d %s" % (p.returncode, p.stderr))

        # /hook gives exactly the bytes `causegate hook` prints.
        for name, payload, blocks in [("blocked", blocked, True), ("allowed", allowed, False)]:
            status, headers, body = d.request("POST", "/hook", payload, {"Content-Type": "application/json"})
            code, out, err = run_hook(binary, payload)
            c.check(status == 200, "/hook %s: status %d" % (name, status))
            c.check(body == out, "/hook %s: body differs from `causegate hook`:\n%r\n%r" % (name, body, out))
            c.check((b'"decision":"block"' in body) == blocks, "/hook %s: decision" % name)
            c.check("causegate-fail-open" not in headers, "/hook %s judged" % name)
            c.check(headers.get("server-timing", "").startswith("judge;dur="), "/hook %s: Server-Timing" % name)

        # Transcripts only under the roots; the rest fails open (200, empty).
        escapes = {
            "outside": json.loads(escaped)["transcript_path"],
            "symlink": os.path.join(root, "p", "link.jsonl"),
            "symlinked folder": os.path.join(root, "p", "dir-link", "secret.jsonl"),
            "dot-dot": os.path.join(root, "p", "..", "..", "outside", "secret.jsonl"),
            "agent_transcript_path": None,
        }
        for name, path in escapes.items():
            payload = json.loads(blocked)
            if path is None:
                payload["hook_event_name"] = "SubagentStop"
                payload["agent_transcript_path"] = os.path.join(outside, "secret.jsonl")
            else:
                payload["transcript_path"] = path
            status, headers, body = d.request("POST", "/hook", json.dumps(payload))
            c.check(status == 200 and body == b"", "roots %s: %d %r" % (name, status, body))
            c.check("outside the allowed roots" in headers.get("causegate-fail-open", ""),
                    "roots %s: fail-open header %r" % (name, headers.get("causegate-fail-open")))

        # Hook input the gate cannot judge: 200, empty body, the reason in a header.
        for name, body_in in [("not JSON", b"{nope"), ("empty", b""), ("array", b"[1,2]"),
                              ("wrong type", b'{"hook_event_name": "Stop", "transcript_path": 5}'),
                              ("missing file", json.dumps({"hook_event_name": "Stop",
                                                           "transcript_path": os.path.join(root, "none.jsonl")})),
                              ("bad UTF-8", b'{"hook_event_name": "Stop", "x": "\xff\xfe"}')]:
            status, headers, body = d.request("POST", "/hook", body_in)
            c.check(status == 200 and body == b"" and headers.get("causegate-fail-open"),
                    "fail-open %s: %d %r %r" % (name, status, body, headers.get("causegate-fail-open")))

        # /v1/judge.
        status, verdict = d.json("POST", "/v1/judge", {
            "prompt": "why did the training job crash?", "final_message": UNSUPPORTED,
            "tool_calls": [{"name": "Bash", "command": "dmesg | tail -3", "output": OOM}]})
        c.check(status == 200 and verdict["decision"] == "block" and verdict["action"] == "block"
                and verdict["claims"][0]["finding"] == "no-citation", "judge block: %s" % verdict)
        status, verdict = d.json("POST", "/v1/judge", {
            "prompt": "why did the training job crash?", "final_message": SUPPORTED,
            "tool_calls": [{"name": "Bash", "command": "dmesg | tail -3", "output": OOM}]})
        c.check(status == 200 and verdict["decision"] == "allow"
                and verdict["claims"][0]["citations"][0]["found_in"] == "tool-output", "judge allow: %s" % verdict)
        for bad in [b"{", b"[]", b'{"final_message": 1}', b'{"final_message": "x", "tool_calls": [{"output": "o"}]}']:
            status, headers, body = d.request("POST", "/v1/judge", bad)
            c.check(status == 400 and "error" in json.loads(body), "judge bad %r: %d %r" % (bad, status, body))

        # Routes and methods.
        status, headers, body = d.request("GET", "/nope")
        c.check(status == 404 and json.loads(body)["error"].startswith("no such route"), "404: %r" % body)
        status, headers, body = d.request("GET", "/hook")
        c.check(status == 405 and headers.get("allow") == "POST" and "error" in json.loads(body), "405: %r" % body)

        # Limits: a body of exactly max_body_bytes is read (400: not JSON),
        # one byte more is refused unread; headers over max_header_bytes.
        status, headers, body = d.request("POST", "/v1/judge", b"x" * 65536)
        c.check(status == 400 and "error" in json.loads(body), "body at the limit: %d %r" % (status, body[:100]))
        status, headers, body = d.request("POST", "/v1/judge", b"x" * 65537)
        c.check(status == 413 and "error" in json.loads(body), "413: %d %r" % (status, body[:100]))
        status, headers, body = d.request("POST", "/hook", b"{}", {"X-Filler-%d" % i: "v" * 60 for i in range(40)})
        c.check(status == 431 and "error" in json.loads(body), "431: %d %r" % (status, body[:100]))
        # A client that stalls mid-request is cut off after the read timeout.
        for name, partial in [("headers", b"POST /hook HTTP/1.1\r\nHost: x\r\n"),
                              ("body", b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a\":")]:
            start = time.time()
            sock = socket.create_connection((d.host, d.port), timeout=10)
            sock.sendall(partial)
            try:
                answer = sock.recv(4096)  # the 408, or b"" when the server hangs up
            except (socket.timeout, ConnectionResetError):
                answer = b"(no answer)"
            elapsed = time.time() - start
            sock.close()
            c.check(elapsed < 3 and (answer == b"" or answer.startswith(b"HTTP/1.1 408")),
                    "stalled %s: answered after %.1fs with %r" % (name, elapsed, answer[:40]))
        status, _, _ = d.request("GET", "/healthz")
        c.check(status == 200, "still serving after refused requests")
        status, _, body = d.request("GET", "/healthz?" + "x" * 9000)
        c.check(status == 414, "URI too long: %d" % status)

        # Metrics.
        status, headers, body = d.request("GET", "/metrics")
        text = body.decode()
        c.check(status == 200 and headers.get("content-type", "").startswith("text/plain"), "metrics content type")
        c.check(metric(text, 'causegate_verdicts_total{route="/hook",agent="claude-code",decision="block"}') == 1,
                "metrics: hook blocks\n" + text)
        c.check(metric(text, 'causegate_verdicts_total{route="/v1/judge",agent="unknown",decision="allow"}') == 1,
                "metrics: judge allows")
        fail_opens = sum(float(l.rsplit(" ", 1)[1]) for l in text.splitlines()
                         if l.startswith('causegate_fail_open_total{route="/hook",reason="'))
        c.check(fail_opens == 11, "metrics: fail-opens by reason add up to 11\n" + text)
        c.check(metric(text, 'causegate_requests_total{route="/v1/judge",status="400"}') == 5, "metrics: 400s\n" + text)
        c.check(metric(text, 'causegate_requests_total{route="/v1/judge",status="413"}') == 1, "metrics: 413")
        c.check(metric(text, 'causegate_rule_hits_total{rule="en.claim.root-cause"}') >= 2, "metrics: rule hits")
        c.check(metric(text, "causegate_judge_duration_seconds_count") == 4, "metrics: latency count")
    finally:
        code = d.stop()
    c.check(code == 0, "daemon exit code %d" % code)
    with open(audit) as f:
        lines = [json.loads(l) for l in f]
    c.check(len(lines) == 4 + 11, "audit lines: %d" % len(lines))
    c.check(lines[0]["decision"] == "block" and lines[0]["claims"][0]["rule"] == "en.claim.root-cause"
            and "final_message" not in lines[0] and lines[0]["timings_ms"]["total"] > 0, "audit line: %s" % lines[0])
    c.check(any(l.get("fail_open_reason", "").endswith("is outside the allowed roots") for l in lines),
            "audit: roots refusal logged")


def test_token(c, binary, work):
    root = os.path.join(work, "root")
    payload = transcript(os.path.join(root, "tok", "s.jsonl"), UNSUPPORTED)
    token = "t0ken-for-the-e2e-test-0123456789"
    env = dict(os.environ, CG_E2E_TOKEN=token)
    env.pop("CAUSEGATE_TOKEN", None)
    d = Daemon(binary, work, ["--root", root, "--token-env", "CG_E2E_TOKEN"], env=env, name="token")
    try:
        for name, headers, want in [("none", {}, 401), ("wrong", {"Authorization": "Bearer " + "x" * len(token)}, 401),
                                    ("prefix", {"Authorization": "Bearer " + token[:-1]}, 401),
                                    ("basic", {"Authorization": "Basic " + token}, 401),
                                    ("right", {"Authorization": "Bearer " + token}, 200)]:
            status, hdrs, body = d.request("POST", "/hook", payload, headers)
            c.check(status == want, "token %s: %d" % (name, status))
            if want == 401:
                c.check(hdrs.get("www-authenticate") == "Bearer" and "error" in json.loads(body), "401 body: %r" % body)
            else:
                c.check(b'"decision":"block"' in body, "token right: judged")
        for path, method in [("/metrics", "GET"), ("/v1/reload", "POST"), ("/v1/judge", "POST")]:
            status, _, _ = d.request(method, path, b"{}")
            c.check(status == 401, "token required on %s: %d" % (path, status))
        status, _, _ = d.request("GET", "/healthz")
        c.check(status == 200, "healthz needs no token")
        # Every refusal is counted by reason and logged: a refused hook is a
        # gate that is silently off.
        status, _, body = d.request("GET", "/metrics", None, {"Authorization": "Bearer " + token})
        c.check(status == 200 and b'causegate_refused_total{route="/hook",reason="token"} 4' in body,
                "/metrics counts the four refused /hook requests: %r" % body[-400:])
        # hook --server sends the token from the environment.
        code, out, err = run_hook(binary, payload, ["--server", d.url, "--server-token-env", "CG_E2E_TOKEN"], env=env)
        c.check(code == 0 and b'"decision":"block"' in out and "judging locally" not in err,
                "hook --server with token: %r %s" % (out[:80], err))
        code, out, err = run_hook(binary, payload, ["--server", d.url, "--server-token-env", "CG_NO_SUCH_VAR"], env=env)
        c.check(code == 0 and b'"decision":"block"' in out and "HTTP 401; judging locally" in err,
                "hook --server without token falls back: %s" % err)
    finally:
        c.check(d.stop() == 0, "token daemon exit code")

    # A public address needs a token; the token never comes from argv.
    env_no_token = dict(os.environ)
    env_no_token.pop("CAUSEGATE_TOKEN", None)
    p = subprocess.run([binary, "serve", "--listen", "0.0.0.0:0"], capture_output=True, text=True, timeout=30,
                       env=env_no_token)
    c.check(p.returncode == 1 and "not a loopback address" in p.stderr, "public without token: %d %s" % (p.returncode, p.stderr))
    p = subprocess.run([binary, "serve", "--token", token], capture_output=True, text=True, timeout=30)
    c.check(p.returncode != 0, "no --token flag")
    d = Daemon(binary, work, ["--listen", "0.0.0.0:0", "--root", root, "--token-env", "CG_E2E_TOKEN"], env=env,
               name="public")
    try:
        d.host = "127.0.0.1"
        status, _, _ = d.request("POST", "/hook", payload)
        c.check(status == 401, "public daemon refuses without token: %d" % status)
    finally:
        c.check(d.stop() == 0, "public daemon exit code")


def test_example_settings(c, binary, work, source):
    """examples/claude-settings-http.json, called the way Claude Code calls an
    http hook: $VAR in headers expanded for allowedEnvVars, the hook input POSTed."""
    with open(os.path.join(source, "examples", "claude-settings-http.json")) as f:
        settings = json.load(f)
    root = os.path.join(work, "root")
    payload = transcript(os.path.join(root, "example", "s.jsonl"), UNSUPPORTED)
    token = "example-token-0123456789abcdef"
    env = dict(os.environ, CAUSEGATE_TOKEN=token)
    d = Daemon(binary, work, ["--root", root], env=env, name="example")
    try:
        for event in ("Stop", "SubagentStop"):
            hook = settings["hooks"][event][0]["hooks"][0]
            c.check(hook["type"] == "http" and hook["url"].endswith(":8787/hook"), "example %s: %s" % (event, hook))
            headers = {}
            for name, value in hook["headers"].items():
                for var in hook["allowedEnvVars"]:
                    value = value.replace("${%s}" % var, env[var]).replace("$" + var, env[var])
                headers[name] = value
            status, _, body = d.request("POST", hook["url"].split(":8787", 1)[1], payload, headers)
            c.check(status == 200 and b'"decision":"block"' in body, "example %s: %d %r" % (event, status, body[:80]))
    finally:
        c.check(d.stop() == 0, "example daemon exit code")


def test_hook_server(c, binary, work):
    root = os.path.join(work, "root")
    cases = {"blocked": transcript(os.path.join(root, "hs", "b.jsonl"), UNSUPPORTED),
             "allowed": transcript(os.path.join(root, "hs", "a.jsonl"), SUPPORTED)}
    outside = transcript(os.path.join(work, "elsewhere", "o.jsonl"), UNSUPPORTED)
    local = {name: run_hook(binary, p)[1] for name, p in cases.items()}
    d = Daemon(binary, work, ["--root", root], name="hookserver")
    try:
        for name, payload in cases.items():
            code, out, err = run_hook(binary, payload, ["--server", d.url])
            c.check(code == 0 and out == local[name] and "judging locally" not in err,
                    "hook --server %s: %r %s" % (name, out[:80], err))
        # The daemon may not read it; the hook can, and judges it itself.
        code, out, err = run_hook(binary, outside, ["--server", d.url])
        c.check(code == 0 and b'"decision":"block"' in out and "did not judge" in err,
                "hook --server outside roots judges locally: %r %s" % (out[:80], err))
    finally:
        d.stop()
    # Daemon down: connection refused, judged locally, same answer.
    start = time.time()
    code, out, err = run_hook(binary, cases["blocked"], ["--server", d.url])
    c.check(code == 0 and out == local["blocked"] and "judging locally" in err,
            "hook --server, daemon down: %r %s" % (out[:80], err))
    c.check(time.time() - start < 5, "daemon down: quick fallback")
    # Daemon hanging: accepts, never answers; the timeout applies.
    hang = socket.socket()
    hang.bind(("127.0.0.1", 0))
    hang.listen(16)
    try:
        start = time.time()
        code, out, err = run_hook(binary, cases["blocked"],
                                  ["--server", "http://127.0.0.1:%d" % hang.getsockname()[1], "--server-timeout-ms", "200"])
        elapsed = time.time() - start
        c.check(code == 0 and out == local["blocked"] and "judging locally" in err,
                "hook --server, daemon hangs: %r %s" % (out[:80], err))
        c.check(elapsed < 3, "daemon hangs: fallback after the timeout (%.2fs)" % elapsed)
    finally:
        hang.close()
    # A URL that is not one: still judged.
    code, out, err = run_hook(binary, cases["blocked"], ["--server", "not-a-url"])
    c.check(code == 0 and out == local["blocked"], "hook --server bad URL: %s" % err)


def test_drain(c, binary, work):
    """SIGTERM while a request is half sent: the request is answered, then the daemon exits 0."""
    root = os.path.join(work, "root")
    payload = transcript(os.path.join(root, "drain", "s.jsonl"), UNSUPPORTED).encode()
    d = Daemon(binary, work, ["--root", root], name="drain")
    sock = socket.create_connection((d.host, d.port), timeout=10)
    head = ("POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
            % len(payload)).encode()
    sock.sendall(head + payload[:10])
    time.sleep(0.3)  # the worker is now reading the body
    d.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    sock.sendall(payload[10:])
    answer = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        answer += chunk
        if b"\r\n\r\n" in answer:
            head_end = answer.index(b"\r\n\r\n")
            length = [int(l.split(b":")[1]) for l in answer[:head_end].split(b"\r\n") if l.lower().startswith(b"content-length")]
            if length and len(answer) >= head_end + 4 + length[0]:
                break
    sock.close()
    c.check(answer.startswith(b"HTTP/1.1 200") and b'"decision":"block"' in answer,
            "drain: in-flight request answered: %r" % answer[:200])
    code = d.stop(sig=None)  # already signalled: a second SIGTERM would stop it at once
    c.check(code == 0, "drain: exit code %d" % code)
    c.check("finishing the requests in flight" in d.stderr() and "stopped" in d.stderr(), "drain: logged")


def test_second_signal(c, binary, work):
    """A second SIGTERM while a request is still being read stops the daemon at once."""
    d = Daemon(binary, work, ["--root", os.path.join(work, "root")], name="force")
    sock = socket.create_connection((d.host, d.port), timeout=10)
    sock.sendall(b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
    time.sleep(0.3)
    d.send_signal(signal.SIGTERM)
    time.sleep(0.3)
    c.check(d.proc.poll() is None, "first SIGTERM waits for the request in flight")
    start = time.time()
    code = d.stop(signal.SIGTERM, timeout=3)
    sock.close()
    c.check(code == 1 and time.time() - start < 2, "second SIGTERM: exit %d after %.1fs" % (code, time.time() - start))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    c = Checks()
    for test in [test_routes_roots_fail_open, test_token, test_hook_server, test_drain, test_second_signal]:
        print("--- " + test.__name__)
        test(c, args.bin, args.work)
    print("--- test_example_settings")
    test_example_settings(c, args.bin, args.work, args.source)
    return c.report("serve_test")


if __name__ == "__main__":
    sys.exit(main())
