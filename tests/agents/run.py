#!/usr/bin/env python3
"""The real agent CLIs against a scripted model, with causegate as their hook.

For each case: a scratch HOME, `causegate init` (or the plugin, the http
hook, `hook --server`), the CLI pointed at tests/agents/mock_model.py, one
scripted debugging turn (read a log, claim an unsupported cause, then
answer the block by quoting the log, by a hypothesis, or by the same claim
again). The assertions are on what the model received: the number of main
requests (2: the stop was allowed at once; each block adds one), the block
reason in the request after a block, and the let-through after the limit.

Everything runs in a private network namespace (`unshare -n`: only
loopback exists), so no CLI reaches the internet. The CLIs are installed
from npm at the versions of tests/agents/versions.json into a cache folder
first (outside the namespace). Exit 0 pass, 1 a case failed, 77 skipped
(npm or unshare missing; one line says which).

  run.py --bin build/causegate                 every agent, pinned versions
  run.py --bin build/causegate --latest        the same on @latest
  run.py --bin ... --agents codex --only loop  a subset
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import agents as agent_defs  # noqa: E402
import mock_model  # noqa: E402
import scenarios  # noqa: E402

SKIP = 77


def skip(why):
    print(f"test-agents: SKIPPED: {why}")
    sys.exit(SKIP)


def default_cache():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "causegate-agents")


def in_private_netns():
    """True when only loopback exists (the namespace this script asks for)."""
    # /proc/net/dev is the namespace's own (/sys may still show the host's).
    try:
        with open("/proc/net/dev") as f:
            names = {line.split(":", 1)[0].strip() for line in f if ":" in line}
    except OSError:
        return False
    return names <= {"lo"}


def reexec_isolated(argv):
    """Runs this script again inside `unshare -n` (root) or `unshare -rn`."""
    if shutil.which("unshare") is None:
        skip("unshare is missing (util-linux); the suite runs each CLI with no network but loopback")
    flags = ["-n"] if os.geteuid() == 0 else ["-r", "-n"]
    probe = subprocess.run(["unshare", *flags, "true"], stderr=subprocess.PIPE, text=True)
    if probe.returncode != 0:
        skip(f"unshare {' '.join(flags)} is not permitted here ({probe.stderr.strip()})")
    os.execvp("unshare", ["unshare", *flags, sys.executable, os.path.abspath(__file__), *argv, "--isolated"])


def bring_up_loopback():
    subprocess.run(["ip", "link", "set", "lo", "up"], check=False)


class Daemon:
    """`causegate serve` on a loopback port, for the http and --server cases."""

    def __init__(self, causegate, case, env):
        port_file = os.path.join(case.root, "daemon.port")
        self.log = open(os.path.join(case.root, "daemon.log"), "w")
        self.proc = subprocess.Popen([causegate, "serve", "--listen", "127.0.0.1:0", "--port-file", port_file,
                                      "--root", case.home, "--audit-log", os.path.join(case.root, "audit.jsonl")],
                                     env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 10
        while not (os.path.exists(port_file) and os.path.getsize(port_file) > 0):
            if time.time() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"causegate serve did not start (log: {self.log.name})")
            time.sleep(0.02)
        with open(port_file) as f:
            self.url = "http://" + f.read().strip()

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()


def warm_copilot(binary, shared_cache, work):
    """Copilot unpacks ~235 MB on its first start: once, before cases race for it."""
    home = tempfile.mkdtemp(prefix="copilot-warm-", dir=work)
    agent_defs.share_copilot_cache(home, shared_cache)
    subprocess.run([binary, "--version"], env={"HOME": home, "PATH": "/usr/bin:/bin",
                                                "XDG_CACHE_HOME": os.path.join(home, ".cache")},
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)


def check_doctor(agent, case, env, root):
    """`causegate doctor` must tell whether the hook will run; where it will
    not, doing what it says must make it run. Returns a problem or None."""
    code, report = case.doctor(env)
    with open(os.path.join(root, "doctor.txt"), "w") as f:
        f.write(report)
    if code != 0 and hasattr(agent, "follow_doctor"):
        problem = agent.follow_doctor(case, env, report)
        if problem:
            return problem
        code, report = case.doctor(env)
        with open(os.path.join(root, "doctor.txt"), "a") as f:
            f.write("--- after following its advice\n" + report)
    if code != 0:
        return f"causegate doctor exited {code}: {report.strip()}"
    if "will run" not in report:
        return f"causegate doctor does not say the hook will run: {report.strip()}"
    return None


def gate_lines(root, limit=8):
    """What causegate printed in a case, as far as the CLI passed it on:
    Claude Code's stream-json carries each hook's stderr, the other CLIs
    may echo it on their own stderr. A failure in CI can be read from the
    log alone (the kept case folder is on the CI machine)."""
    lines = []
    try:
        with open(os.path.join(root, "stdout"), encoding="utf-8", errors="replace") as f:
            for raw in f:
                try:
                    event = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(event, dict) and event.get("subtype") == "hook_response":
                    verdict = "block" if '"block"' in event.get("output", "") else "no block"
                    lines.append(f"{event.get('hook_event')} hook: exit {event.get('exit_code')}, {verdict}")
                    lines.extend(l for l in event.get("stderr", "").splitlines() if l.strip())
        with open(os.path.join(root, "stderr"), encoding="utf-8", errors="replace") as f:
            lines.extend(l.rstrip() for l in f if "causegate" in l)
    except OSError:
        pass
    return lines[:limit]


def run_case(case_spec, opts, binaries, copilot_cache):
    agent = {"claude-code": agent_defs.ClaudeCode(), "codex": agent_defs.Codex(), "gemini": agent_defs.Gemini(),
             "copilot": agent_defs.Copilot(copilot_cache)}[case_spec.agent]
    root = tempfile.mkdtemp(prefix=case_spec.name.replace("/", "-") + "-", dir=opts.work)
    case = agent_defs.Case(root, opts.bin, os.path.dirname(binaries[case_spec.agent]))
    text = scenarios.TEXTS[case_spec.lang]
    with open(os.path.join(case.work, scenarios.LOG_NAME), "w", encoding="utf-8") as f:
        f.write(scenarios.LOG_TEXT)
    script = mock_model.Script(f"cat {scenarios.LOG_NAME}", text["claim"], text["answers"],
                               subagent_mode=scenarios.SUBAGENT_MODES.get(case_spec.subagent),
                               parent_claim=text["hearsay"] if case_spec.subagent == "hearsay" else None)
    started = time.time()
    daemon = None
    with mock_model.MockModel(script, case_spec.mode, latency_ms=case_spec.latency_ms, dump_dir=root) as mock:
        try:
            if case_spec.registration in ("http", "server"):
                env0 = case.base_env()
                env0["CAUSEGATE_TOKEN"] = "agents-suite-token"
                daemon = Daemon(opts.bin, case, env0)
            env = agent.configure(case, mock.port, case_spec.registration, daemon.url if daemon else None)
            # A plugin given by --plugin-dir is in no settings file doctor reads.
            problem = check_doctor(agent, case, env, root) if case_spec.registration != "plugin" else None
            if problem:
                return case_spec, False, problem, time.time() - started, root
            argv = agent.command(binaries[case_spec.agent], text["prompt"], case_spec)
            with open(os.path.join(root, "stdout"), "w") as out, open(os.path.join(root, "stderr"), "w") as err:
                proc = subprocess.run(argv, cwd=case.work, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                      stderr=err, timeout=opts.case_timeout)
            exit_code = proc.returncode
        except subprocess.TimeoutExpired:
            exit_code = "timeout"
        except RuntimeError as e:
            return case_spec, False, str(e), time.time() - started, root
        finally:
            if daemon:
                daemon.stop()
        requests = list(mock.requests)
        unknown = list(mock.unknown)
    problems = scenarios.check(case_spec, requests, unknown, exit_code, root)
    with open(os.path.join(root, "requests.json"), "w", encoding="utf-8") as f:
        json.dump({"requests": requests, "unknown_routes": unknown, "exit": exit_code}, f, indent=2,
                  ensure_ascii=False)
    return case_spec, not problems, "; ".join(problems), time.time() - started, root


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the causegate binary")
    parser.add_argument("--cache", default=default_cache(), help="where the CLIs are installed (kept)")
    parser.add_argument("--work", help="scratch folder (default: a new temporary one, kept on failure)")
    parser.add_argument("--agents", default="claude-code,codex,gemini,copilot")
    parser.add_argument("--only", default="", help="run cases whose name contains this text")
    parser.add_argument("--latest", action="store_true", help="install and run @latest instead of the pins")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--case-timeout", type=int, default=120)
    parser.add_argument("--list", action="store_true", help="print the cases and exit")
    parser.add_argument("--isolated", action="store_true", help=argparse.SUPPRESS)
    opts = parser.parse_args()
    opts.bin = os.path.abspath(opts.bin)
    wanted = [a for a in opts.agents.split(",") if a]
    cases = [c for c in scenarios.cases(wanted) if opts.only in c.name]
    if opts.list:
        for c in cases:
            print(c.name)
        return 0
    versions = agent_defs.load_versions("latest" if opts.latest else "pinned")

    if not opts.isolated:
        if shutil.which("npm") is None:
            skip("npm is missing; the suite installs the agent CLIs from the npm registry")
        os.makedirs(opts.cache, exist_ok=True)
        with open(os.path.join(opts.cache, "npm-install.log"), "a") as log:
            for name in wanted:
                spec = versions[name]
                t0 = time.time()
                try:
                    agent_defs.install(opts.cache, name, spec, log)
                except RuntimeError as e:
                    print(f"test-agents: FAIL install {name}: {e}")
                    return 1
                print(f"test-agents: {name} {spec['package']}@{spec['version']} ready ({time.time() - t0:.1f} s)")
        sys.stdout.flush()
        reexec_isolated(sys.argv[1:])

    bring_up_loopback()
    if not in_private_netns():
        print("test-agents: FAIL: not in a private network namespace")
        return 1
    binaries = {name: agent_defs.agent_bin(opts.cache, name, versions[name]) for name in wanted}
    keep = opts.work is not None
    opts.work = opts.work or tempfile.mkdtemp(prefix="causegate-agents-")
    os.makedirs(opts.work, exist_ok=True)
    copilot_cache = os.path.join(opts.cache, "copilot-home-cache")
    lock = threading.Lock()
    failed = []
    t0 = time.time()
    if "copilot" in wanted:
        warm_copilot(binaries["copilot"], copilot_cache, opts.work)
    ordered = sorted(cases, key=lambda c: c.name)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
        futures = [pool.submit(run_case, c, opts, binaries, copilot_cache) for c in ordered]
        for future in concurrent.futures.as_completed(futures):
            spec, ok, why, seconds, root = future.result()
            with lock:
                line = f"{'PASS' if ok else 'FAIL'} {spec.name} ({seconds:.1f} s)"
                print(line + ("" if ok else f": {why} [{root}]"))
                if not ok:
                    for gate_line in gate_lines(root):
                        print("    " + gate_line[:300])
                sys.stdout.flush()
                if not ok:
                    failed.append(spec.name)
    total = time.time() - t0
    print(f"test-agents: {len(cases) - len(failed)} of {len(cases)} passed in {total:.0f} s"
          + "".join(f" {n}@{versions[n]['version']}" for n in wanted))
    if not failed and not keep:
        shutil.rmtree(opts.work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
