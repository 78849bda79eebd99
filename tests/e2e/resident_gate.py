#!/usr/bin/env python3
"""End-to-end: the resident gate (gate/HOOKS.md, "The resident gate") on the
real binary, in a HOME, config, state and runtime folder of its own.

- Off by default: no daemon is started, nothing listens.
- No daemon answers: the stop is judged locally, exactly as with the gate
  off, and a daemon is started in the background; the hook does not wait
  for it (its stdout and stderr close at once).
- The daemon's verdicts equal local judging byte for byte, stdout and
  stderr, over the bundled examples and every labelled case (those skip
  with a message when ../shared is absent), with and without config files.
- A stale daemon (the binary rebuilt: its fingerprint differs) answers
  nothing: the stop is judged locally, the old daemon exits, a new one runs.
- CAUSEGATE_RESIDENT=0 leaves the daemon alone; =1 turns it on without the
  config key; "resident": false makes a running daemon exit.
- A stopped daemon (SIGSTOP) costs a bounded wait, then local judging.
- The folder must be 0700 and the user's, the socket is 0600, and a peer
  of another uid is refused (a daemon run as nobody, asked as root).
- Idle exit after resident_idle_seconds; `causegate status`; init --resident.
"""
import argparse
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
NOBODY = 65534


class Checks:
    def __init__(self):
        self.failures = 0

    def check(self, ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if not ok:
            self.failures += 1
        return ok


class World:
    """A HOME with its config, state and runtime folders, and the binary."""

    def __init__(self, binary, client, root):
        shutil.rmtree(root, ignore_errors=True)
        self.root = root
        self.bin = binary
        self.client = client  # what the agent runs: causegate, or causegate-hook
        self.home = os.path.join(root, "home")
        self.config_dir = os.path.join(root, "config")
        self.runtime = os.path.join(root, "run")
        for d in (self.home, os.path.join(self.config_dir, "causegate"), self.runtime):
            os.makedirs(d, exist_ok=True)
        os.chmod(self.runtime, 0o700)
        self.folder = os.path.join(self.runtime, "causegate")
        self.socket = os.path.join(self.folder, "resident.sock")
        self.config = os.path.join(self.config_dir, "causegate", "config.json")
        self.env = {k: v for k, v in os.environ.items()
                    if not k.startswith(("CAUSEGATE_", "XDG_", "CLAUDE_"))}
        self.env.update(HOME=self.home, XDG_CONFIG_HOME=self.config_dir,
                        XDG_STATE_HOME=os.path.join(root, "state"), XDG_RUNTIME_DIR=self.runtime,
                        CAUSEGATE_TRANSCRIPT_WAIT_MS="0")

    def write_config(self, values):
        with open(self.config, "w") as f:
            json.dump(values, f)

    def hook(self, payload, extra_env=None, args=(), binary=None, timeout=30):
        env = dict(self.env, **(extra_env or {}))
        start = time.monotonic()
        p = subprocess.run([binary or self.client, "hook"] + list(args), input=payload, env=env,
                           capture_output=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, time.monotonic() - start

    def local(self, payload, args=()):
        return self.hook(payload, {"CAUSEGATE_RESIDENT": "0"}, args, binary=self.bin)

    def status(self, extra=()):
        p = subprocess.run([self.bin, "status"] + list(extra), env=self.env, capture_output=True, text=True,
                           timeout=30)
        return p.returncode, p.stdout

    def daemon_pid(self):
        code, out = self.status()
        if code != 0:
            return None
        for line in out.splitlines():
            if line.startswith("daemon: running, pid "):
                return int(line.split()[3].rstrip(","))
        return None

    def served(self):
        code, out = self.status()
        for line in out.splitlines():
            if line.startswith("daemon: running"):
                return int(line.rsplit(",", 1)[1].split()[0])
        return -1

    def wait_daemon(self, up=True, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if (self.daemon_pid() is not None) == up:
                return True
            time.sleep(0.05)
        return False

    def stop_daemon(self):
        pid = self.daemon_pid()
        if pid is not None:
            os.kill(pid, signal.SIGTERM)
            self.wait_daemon(up=False)


def alive(pid):
    """Running: a zombie (exited, not yet reaped by whoever adopted it) is not."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def gone(pid, timeout=15):
    """True once pid has exited (the daemon finishes its last answers first)."""
    deadline = time.time() + timeout
    while alive(pid) and time.time() < deadline:
        time.sleep(0.05)
    return not alive(pid)


def example_payloads():
    """The bundled examples, their transcript paths made absolute."""
    out = []
    folder = os.path.join(REPO, "examples", "transcripts")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".payload.json"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            payload = json.load(f)
        payload["transcript_path"] = os.path.join(REPO, payload["transcript_path"])
        out.append((name, json.dumps(payload).encode()))
    return out


def case_payloads(shared, work):
    casegen = os.path.join(shared, "tools", "casegen.py")
    cases = os.path.join(shared, "cases")
    if not os.path.isfile(casegen) or not os.path.isdir(cases):
        print("SKIP  labelled cases: %s not found (they live beside the project in CI only); "
              "the bundled examples are still compared" % casegen)
        return []
    rendered = os.path.join(work, "cases")
    subprocess.run([sys.executable, casegen, "--all", cases, rendered], check=True, stdout=subprocess.DEVNULL)
    rows = [json.loads(l) for l in open(os.path.join(rendered, "labels.jsonl"), encoding="utf-8")]
    return [(row["id"], open(os.path.join(rendered, row["id"], "payload.json"), "rb").read()) for row in rows]


def compare_all(c, w, payloads, what, args=()):
    """Each payload judged locally and by the daemon: identical stdout and stderr."""
    before = w.served()
    differ = []
    for name, payload in payloads:
        _, want_out, want_err, _ = w.local(payload, args)
        code, out, err, _ = w.hook(payload, args=args)
        if code != 0 or out != want_out or err != want_err:
            differ.append("%s: exit %d\n    resident %r %r\n    local    %r %r"
                          % (name, code, out[:120], err[:200], want_out[:120], want_err[:200]))
    served = w.served() - before
    c.check(not differ, "%s: %d stops, stdout and stderr identical to local judging%s"
            % (what, len(payloads), "" if not differ else ":\n  " + "\n  ".join(differ[:5])))
    c.check(served == len(payloads), "%s: the daemon served %d of %d" % (what, served, len(payloads)))


def test_off_by_default(c, w, payload):
    code, out, err, _ = w.hook(payload)
    _, want, _, _ = w.local(payload)
    c.check(code == 0 and out == want, "off by default: judged locally")
    time.sleep(0.3)
    c.check(not os.path.exists(w.socket), "off by default: no daemon started (no socket)")
    code, text = w.status()
    c.check(code == 1 and "resident gate: off" in text and "not running" in text,
            "status without a daemon: exit 1, off, not running (%d: %r)" % (code, text))


def test_start_and_serve(c, w, payload):
    w.write_config({"resident": True})
    _, want_out, want_err, _ = w.local(payload)
    code, out, err, took = w.hook(payload, timeout=10)
    c.check(code == 0 and out == want_out and err == want_err,
            "no daemon yet: judged locally, identical (%r)" % err[:200])
    c.check(took < 5, "the hook did not wait for the daemon it started (%.2f s)" % took)
    c.check(w.wait_daemon(), "a daemon runs after that stop")
    mode = stat.S_IMODE(os.lstat(w.folder).st_mode)
    c.check(mode == 0o700, "socket folder mode %04o" % mode)
    st = os.lstat(w.socket)
    c.check(stat.S_ISSOCK(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600,
            "socket mode %04o" % stat.S_IMODE(st.st_mode))
    code, out, err, _ = w.hook(payload)
    c.check(out == want_out and err == want_err and w.served() == 1,
            "the next stop is the daemon's: identical, 1 verdict served")
    code, text = w.status()
    c.check(code == 0 and "resident gate: on" in text and "verdicts served" in text and "up " in text,
            "status: running, pid, uptime, verdicts (%r)" % text)


def test_rules_paths(c, w, payload):
    """--rules: an absolute path is the daemon's to judge with, a relative one the client's."""
    packs = os.path.join(REPO, "rules", "packs")
    for where, rules, cwd in (("absolute", packs, None), ("relative", "packs", os.path.join(REPO, "rules"))):
        env = dict(w.env)
        want = subprocess.run([w.bin, "--rules", rules, "hook"], input=payload, capture_output=True, cwd=cwd,
                              env=dict(env, CAUSEGATE_RESIDENT="0"))
        before = w.served()
        got = subprocess.run([w.client, "--rules", rules, "hook"], input=payload, capture_output=True, cwd=cwd,
                             env=env)
        c.check(got.returncode == 0 and got.stdout == want.stdout and got.stderr == want.stderr,
                "--rules %s: identical to local judging (%r)" % (where, got.stderr[:160]))
        c.check(w.served() - before == (1 if where == "absolute" else 0),
                "--rules %s: %s" % (where, "the daemon judged it" if where == "absolute" else "judged locally"))


def test_oversized_input(c, w):
    """Over the hook's input bound: failed open exactly as locally, never judged by the daemon."""
    big = b'{"hook_event_name": "Stop", "x": "' + b"a" * (8 << 20) + b'"}'
    _, want_out, want_err, _ = w.local(big)
    before = w.served()
    code, out, err, _ = w.hook(big)
    c.check(code == 0 and out == want_out == b"" and err == want_err and b"fail-open" in err,
            "input over 8 MiB: fails open as locally (%r)" % err[:160])
    c.check(w.served() == before, "input over 8 MiB: not the daemon's")


def test_switches(c, w, payload):
    before = w.served()
    w.hook(payload, {"CAUSEGATE_RESIDENT": "0"})
    c.check(w.served() == before, "CAUSEGATE_RESIDENT=0: the daemon is not asked")
    w.write_config({"resident": False})
    pid = w.daemon_pid()
    _, want, _, _ = w.local(payload)
    code, out, _, _ = w.hook(payload)
    c.check(out == want, "\"resident\": false: judged locally")
    c.check(w.wait_daemon(up=False) and gone(pid), "\"resident\": false: the running daemon exits")
    time.sleep(0.3)
    c.check(not os.path.exists(w.socket), "\"resident\": false: no daemon started again")
    code, out, _, _ = w.hook(payload, {"CAUSEGATE_RESIDENT": "1"})
    c.check(out == want and w.wait_daemon(), "CAUSEGATE_RESIDENT=1 without the key: a daemon starts")
    w.stop_daemon()
    w.write_config({"resident": True})


def test_stale(c, w, payload):
    folder = os.path.join(w.root, "bin")
    os.makedirs(folder, exist_ok=True)
    for name in ("causegate", "causegate-serve", "causegate-hook"):
        if os.path.exists(os.path.join(os.path.dirname(w.bin), name)):
            shutil.copy2(os.path.join(os.path.dirname(w.bin), name), os.path.join(folder, name))
    copy = os.path.join(folder, os.path.basename(w.client))
    judging = os.path.join(folder, "causegate")  # whose identity the fingerprint holds
    w.stop_daemon()
    w.hook(payload, binary=copy)
    c.check(w.wait_daemon(), "stale: a daemon runs for the copied binary")
    old = w.daemon_pid()
    w.hook(payload, binary=copy)
    c.check(w.served() == 1, "stale: it serves the copy")
    # The binary rebuilt in place: same path, another file.
    os.utime(judging, (time.time() + 10, time.time() + 10))
    _, want_out, want_err, _ = w.hook(payload, {"CAUSEGATE_RESIDENT": "0"}, binary=judging)
    code, out, err, _ = w.hook(payload, binary=copy)
    c.check(code == 0 and out == want_out and err == want_err,
            "stale: the stop is judged locally, identical (%r)" % err[:200])
    c.check(gone(old), "stale: the old daemon exited")
    c.check(w.wait_daemon(), "stale: a new daemon runs")
    new = w.daemon_pid()
    c.check(new is not None and new != old, "stale: a new pid (%s, was %s)" % (new, old))
    before = w.served()
    w.hook(payload, binary=copy)
    c.check(w.served() == before + 1, "stale: the new daemon serves the rebuilt binary")
    w.stop_daemon()


def test_stopped_daemon(c, w, payload):
    w.hook(payload)
    if not c.check(w.wait_daemon(), "stopped daemon: one runs"):
        return
    pid = w.daemon_pid()
    _, want, _, _ = w.local(payload)
    os.kill(pid, signal.SIGSTOP)
    try:
        code, out, err, took = w.hook(payload, timeout=20)
    finally:
        os.kill(pid, signal.SIGCONT)
    c.check(code == 0 and out == want, "stopped daemon: judged locally, same verdict")
    c.check(b"judging locally" in err, "stopped daemon: stderr says why (%r)" % err[:200])
    c.check(took < 3, "stopped daemon: the wait is bounded (%.2f s)" % took)
    w.stop_daemon()


def test_folder_permissions(c, w, payload):
    w.stop_daemon()
    _, want, _, _ = w.local(payload)
    os.chmod(w.folder, 0o755)
    code, out, err, _ = w.hook(payload)
    c.check(code == 0 and out == want, "folder 0755: judged locally")
    c.check(b"lets others in" in err, "folder 0755: stderr says why (%r)" % err[:200])
    time.sleep(0.3)
    c.check(not os.path.exists(w.socket), "folder 0755: no daemon started")
    os.chmod(w.folder, 0o700)
    if os.getuid() != 0:
        print("SKIP  foreign folder and foreign peer: need root to make files of another uid")
        return
    os.chown(w.folder, NOBODY, NOBODY)
    code, out, err, _ = w.hook(payload)
    c.check(code == 0 and out == want and b"owned by uid %d" % NOBODY in err,
            "folder of another uid: judged locally, stderr says why (%r)" % err[:200])
    time.sleep(0.3)
    c.check(not os.path.exists(w.socket), "folder of another uid: no daemon started")
    os.chown(w.folder, 0, 0)


def test_foreign_peer(c, w, payload):
    """A daemon run as nobody refuses root's connection (SO_PEERCRED)."""
    if os.getuid() != 0 or shutil.which("setpriv") is None:
        print("SKIP  foreign peer: needs root and setpriv")
        return
    root = os.path.join(w.root, "nobody")
    runtime = os.path.join(root, "run")
    os.makedirs(runtime)
    os.makedirs(os.path.join(root, "config", "causegate"))
    with open(os.path.join(root, "config", "causegate", "config.json"), "w") as f:
        json.dump({"resident": True}, f)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames + ["."]:
            os.chown(os.path.join(dirpath, name), NOBODY, NOBODY)
    os.chmod(runtime, 0o700)
    env = dict(w.env, HOME=root, XDG_CONFIG_HOME=os.path.join(root, "config"), XDG_RUNTIME_DIR=runtime,
               XDG_STATE_HOME=os.path.join(root, "state"))
    log = open(os.path.join(w.root, "nobody.log"), "w")
    proc = subprocess.Popen(["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups",
                             w.bin, "resident-daemon"], env=env, stdout=log, stderr=log)
    sock_path = os.path.join(runtime, "causegate", "resident.sock")
    deadline = time.time() + 15
    while not os.path.exists(sock_path) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    if not c.check(os.path.exists(sock_path), "foreign peer: a daemon of uid %d listens" % NOBODY):
        proc.kill()
        return
    answer = b""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.settimeout(5)
        s.connect(sock_path)  # root passes the 0700 folder; the daemon must not
        s.sendall(b"causegate-resident 1\nop status\ninput 0\n\n")
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            answer += chunk
    except OSError:
        pass
    finally:
        s.close()
    c.check(answer == b"", "foreign peer: root's connection closed unanswered (%r)" % answer[:80])
    # And the real client, as root, pointed at nobody's folder: refused too.
    code, out, err, _ = w.hook(payload, {"XDG_RUNTIME_DIR": runtime})
    _, want, _, _ = w.local(payload)
    c.check(code == 0 and out == want and b"owned by uid" in err,
            "foreign peer: root's hook judges locally (%r)" % err[:160])
    proc.terminate()
    proc.wait(timeout=15)
    log.close()
    with open(os.path.join(w.root, "nobody.log")) as f:
        text = f.read()
    c.check("refused a client of uid 0" in text, "foreign peer: the daemon logged the refusal")


def test_config_files(c, w, payloads):
    """The daemon reads the config files at every stop, as the hook does."""
    project = os.path.join(w.root, "project")
    os.makedirs(os.path.join(project, ".git"), exist_ok=True)
    with open(os.path.join(project, ".causegate.json"), "w") as f:
        json.dump({"mode": "warn", "rules": {"en.claim.*": "warn", "en.no-such-rule": "off"}}, f)
    moved = []
    for name, payload in payloads:
        doc = json.loads(payload)
        doc["cwd"] = project
        moved.append((name, json.dumps(doc).encode()))
    w.hook(moved[0][1])
    w.wait_daemon()
    compare_all(c, w, moved, "with a project config file")
    # A config edited while the daemon runs holds at the next stop.
    with open(os.path.join(project, ".causegate.json"), "w") as f:
        json.dump({"mode": "off"}, f)
    code, out, err, _ = w.hook(moved[0][1])
    c.check(out == b"", "config edited while the daemon runs: mode off holds at once (%r)" % out[:80])


def test_idle_exit(c, w, payload):
    w.stop_daemon()
    w.write_config({"resident": True, "resident_idle_seconds": 1})
    w.hook(payload)
    c.check(w.wait_daemon(), "idle: a daemon runs")
    pid = w.daemon_pid()
    c.check(gone(pid, timeout=10), "idle: it exits after resident_idle_seconds 1")
    c.check(not os.path.exists(w.socket), "idle: its socket is gone")
    w.write_config({"resident": True})


def test_init(c, w):
    env = dict(w.env)
    os.remove(w.config)
    p = subprocess.run([w.bin, "init", "--agent", "claude-code", "--resident"], env=env, capture_output=True,
                       text=True)
    c.check(p.returncode == 0 and json.load(open(w.config)) == {"resident": True},
            "init --resident: writes \"resident\": true (%r)" % p.stdout)
    settings = open(os.path.join(w.home, ".claude", "settings.json")).read()
    client = os.path.join(os.path.dirname(w.bin), "causegate-hook")
    if os.access(client, os.X_OK):
        c.check(json.dumps(client) in settings, "init --resident: registers causegate-hook (%s)" % settings[:200])
    with open(w.config, "w") as f:
        f.write('{\n    "mode": "warn"\n}\n')
    subprocess.run([w.bin, "init", "--agent", "claude-code", "--resident"], env=env, capture_output=True)
    text = open(w.config).read()
    c.check(text == '{\n    "mode": "warn",\n    "resident": true\n}\n',
            "init --resident: keeps the other keys and the indentation (%r)" % text)
    p = subprocess.run([w.bin, "init", "--agent", "claude-code", "--resident"], env=env, capture_output=True,
                       text=True)
    c.check("unchanged" in p.stdout and open(w.config).read() == text, "init --resident again: unchanged")
    p = subprocess.run([w.bin, "init", "--agent", "claude-code", "--resident", "--uninstall"], env=env,
                       capture_output=True, text=True)
    c.check(open(w.config).read() == '{\n    "mode": "warn"\n}\n',
            "init --uninstall --resident: the key removed, the file's bytes as they were")
    with open(w.config, "w") as f:
        f.write("{ not json")
    p = subprocess.run([w.bin, "init", "--agent", "claude-code", "--resident"], env=env, capture_output=True,
                       text=True)
    c.check(p.returncode == 2 and "line 1, column" in p.stderr and open(w.config).read() == "{ not json",
            "init --resident on a broken config: exit 2 with line and column, the file untouched")
    w.write_config({"resident": True})


def test_small_client(c, w):
    """causegate-hook is causegate for anything but a served hook call."""
    p = subprocess.run([w.client, "--version"], env=w.env, capture_output=True, text=True)
    want = subprocess.run([w.bin, "--version"], env=w.env, capture_output=True, text=True)
    c.check(p.returncode == 0 and p.stdout == want.stdout and p.stdout.startswith("causegate "),
            "causegate-hook --version runs causegate (%r)" % p.stdout)
    code, out, err, _ = w.hook(b"", {"CAUSEGATE_RESIDENT": "0"})
    c.check(code == 0 and out == b"" and b"fail-open" in err, "causegate-hook, empty stdin: fails open (%r)" % err[:120])


def run_all(c, binary, client, shared, work, cases):
    print("--- the agent runs %s" % os.path.basename(client))
    w = World(binary, client, work)
    examples = example_payloads()
    payload = dict(examples)["export-blocked.payload.json"]
    try:
        if client != binary:
            test_small_client(c, w)
        test_off_by_default(c, w, payload)
        test_start_and_serve(c, w, payload)
        compare_all(c, w, examples, "bundled examples")
        compare_all(c, w, examples, "bundled examples, --agent claude-code --max-blocks 1",
                    args=["--agent", "claude-code", "--max-blocks", "1"])
        if cases:
            compare_all(c, w, cases, "labelled cases")
        test_config_files(c, w, examples + cases[:20])
        test_rules_paths(c, w, payload)
        test_oversized_input(c, w)
        test_switches(c, w, payload)
        test_stale(c, w, payload)
        test_stopped_daemon(c, w, payload)
        test_folder_permissions(c, w, payload)
        if client == binary:
            test_foreign_peer(c, w, payload)
            test_idle_exit(c, w, payload)
            test_init(c, w)
    finally:
        w.stop_daemon()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    c = Checks()
    binary = os.path.abspath(args.bin)
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    cases = case_payloads(args.shared, args.work)
    run_all(c, binary, binary, args.shared, os.path.join(args.work, "causegate"), cases)
    client = os.path.join(os.path.dirname(binary), "causegate-hook")
    if os.access(client, os.X_OK):
        run_all(c, binary, client, args.shared, os.path.join(args.work, "causegate-hook"), cases)
    else:
        print("SKIP  causegate-hook: not built beside %s" % binary)
    print("%d failure(s)" % c.failures)
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
