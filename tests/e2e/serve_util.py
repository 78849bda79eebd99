"""Helpers for the daemon's end-to-end tests: start `causegate serve` on a
port the system picks (the daemon writes it to --port-file), talk HTTP to
it, stop it with a signal and collect its exit code and stderr."""
import http.client
import json
import os
import signal
import subprocess
import time


class Daemon:
    def __init__(self, binary, work, args=(), env=None, name="daemon", prefix=()):
        os.makedirs(work, exist_ok=True)
        self.port_file = os.path.join(work, name + ".port")
        self.log_path = os.path.join(work, name + ".log")
        if os.path.exists(self.port_file):
            os.remove(self.port_file)
        self.log = open(self.log_path, "w")
        listen = [] if "--listen" in args else ["--listen", "127.0.0.1:0"]
        cmd = list(prefix) + [binary, "serve", "--port-file", self.port_file] + listen + list(args)
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.time() + 20
        while not os.path.exists(self.port_file):
            if self.proc.poll() is not None:
                raise RuntimeError("daemon exited %d at start:\n%s" % (self.proc.returncode, self.stderr()))
            if time.time() > deadline:
                self.proc.kill()
                raise RuntimeError("daemon did not start:\n" + self.stderr())
            time.sleep(0.02)
        with open(self.port_file) as f:
            host, port = f.read().strip().rsplit(":", 1)
        self.host, self.port = host, int(port)
        self.url = "http://%s:%d" % (self.host, self.port)

    def request(self, method, path, body=None, headers=None, timeout=30):
        """Returns (status, headers dict with lower-case names, body bytes)."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            if isinstance(body, str):
                body = body.encode()
            conn.request(method, path, body=body, headers=headers or {})
            res = conn.getresponse()
            return res.status, {k.lower(): v for k, v in res.getheaders()}, res.read()
        finally:
            conn.close()

    def json(self, method, path, payload=None, headers=None):
        body = None if payload is None else json.dumps(payload)
        status, _, data = self.request(method, path, body, headers)
        return status, json.loads(data) if data else None

    def send_signal(self, sig):
        self.proc.send_signal(sig)

    def stop(self, sig=signal.SIGTERM, timeout=20):
        """Stops the daemon (sig None: waits for it to stop); returns its exit code."""
        if self.proc.poll() is None:
            if sig is not None:
                self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                raise RuntimeError("daemon did not stop within %ds:\n%s" % (timeout, self.stderr()))
        self.log.close()
        return self.proc.returncode

    def stderr(self):
        if not self.log.closed:
            self.log.flush()
        with open(self.log_path, errors="replace") as f:
            return f.read()


def raw_hook_request(body):
    """The bytes of one POST /hook with `body` (bytes), for tests that write
    to the socket themselves (pauses, splits, pipelining)."""
    return (b"POST /hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(body)) + body


def metric(text, line_prefix):
    """The value of the first sample line starting with line_prefix, or 0."""
    for line in text.splitlines():
        if line.startswith(line_prefix + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def transcript(path, final, output="Out of memory: Killed process 4242 (python) total-vm:81234kB"):
    """Writes a small Claude Code session: a diagnostic prompt, one Bash call
    with output, and the final message. Returns the hook input for it."""
    def line(obj):
        return json.dumps(obj, ensure_ascii=False)
    lines = [
        line({"type": "user", "uuid": "u1", "message": {"role": "user", "content": "why did the training job crash?"}}),
        line({"type": "assistant", "uuid": "a1", "message": {"id": "m1", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "dmesg | tail -3"}}]}}),
        line({"type": "user", "uuid": "u2", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": output}]}}),
        line({"type": "assistant", "uuid": "a2", "message": {"id": "m2", "role": "assistant", "content": [
            {"type": "text", "text": final}]}}),
    ]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return json.dumps({"session_id": "s-" + os.path.basename(path), "hook_event_name": "Stop",
                       "stop_hook_active": False, "transcript_path": path})


def run_hook(binary, payload, args=(), env=None, timeout=30):
    """`causegate hook` on payload; returns (exit code, stdout bytes, stderr text)."""
    p = subprocess.run([binary, "hook"] + list(args), input=payload.encode() if isinstance(payload, str) else payload,
                       capture_output=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


class Checks:
    """Collects failures so one run reports all of them."""

    def __init__(self):
        self.failures = []
        self.count = 0

    def check(self, ok, what):
        self.count += 1
        if not ok:
            self.failures.append(what)
            print("  FAIL " + what)
        return ok

    def report(self, name):
        print("%s: %d checks, %d failed" % (name, self.count, len(self.failures)))
        return 1 if self.failures else 0
