#!/usr/bin/env python3
"""End-to-end: `causegate init --agent codex` leaves a hook Codex will run,
and `causegate doctor` says so, in a private HOME.

init must record Codex's trust of the hook in ~/.codex/config.toml: the
table [hooks.state."<hooks.json>:stop:<i>:<j>"] whose trusted_hash is the
sha256 of the hook's definition, computed here independently with
hashlib from the hook init wrote. The user's config.toml (comments, other
tables, another hook's trust) is kept; --dry-run shows the diff and writes
nothing; a second init changes nothing. doctor then exits 0 and says
"trusted"; with the hash tampered it exits 1 and says "modified since
trusted"; init repairs it; --uninstall gives config.toml back byte for
byte, and doctor then reports causegate as not registered (exit 0).
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys

CONFIG = """# my Codex settings
model = "gpt-5.1-codex"  # the default

[projects."/srv/app"]
trust_level = "trusted"

[hooks.state."{hooks}:stop:0:0"]
trusted_hash = "sha256:{other_hash}"
"""
OTHER_HOOK = {"type": "command", "command": "notify-send done"}


def codex_hash(handler):
    """Codex's hash of a command hook on Stop (research: matched currentHash on Codex 0.171.0)."""
    definition = {"event_name": "stop", "hooks": [{"async": handler.get("async", False),
                                                   "command": handler["command"],
                                                   "timeout": handler.get("timeout", 600), "type": "command"}]}
    return hashlib.sha256(json.dumps(definition, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    home = os.path.join(args.work, "home")
    project = os.path.join(args.work, "project")
    os.makedirs(os.path.join(home, ".codex"))
    os.makedirs(os.path.join(project, ".git"))  # its own git root, not the checkout around the build
    binary = os.path.abspath(args.bin)
    hooks_path = os.path.join(home, ".codex", "hooks.json")
    config_path = os.path.join(home, ".codex", "config.toml")
    failures = []

    def need(ok, what):
        if not ok:
            failures.append(what)

    def run(*argv, env_home=home):
        return subprocess.run([binary] + list(argv), capture_output=True, text=True, cwd=project,
                              env=dict(os.environ, HOME=env_home), timeout=60)

    def read(path):
        with open(path, encoding="utf-8") as f:
            return f.read()

    with open(hooks_path, "w") as f:
        json.dump({"hooks": {"Stop": [{"hooks": [OTHER_HOOK]}]}}, f, indent=2)
        f.write("\n")
    original = CONFIG.format(hooks=hooks_path, other_hash=codex_hash(OTHER_HOOK))
    with open(config_path, "w") as f:
        f.write(original)

    # --dry-run: both diffs, nothing written.
    p = run("init", "--agent", "codex", "--dry-run")
    need(p.returncode == 0 and read(config_path) == original, "dry-run wrote config.toml: %s" % p.stderr)
    need(("--- %s" % config_path) in p.stdout and "+[hooks.state." in p.stdout
         and "would record Codex's hook trust" in p.stdout, "dry-run output:\n%s" % p.stdout)

    # init: the hook after the other one, its trust recorded, one line naming config.toml.
    p = run("init", "--agent", "codex")
    need(p.returncode == 0, "init exit %d: %s" % (p.returncode, p.stderr))
    trust_lines = [l for l in p.stdout.splitlines() if l.startswith("codex: %s: recorded Codex's hook trust" % config_path)]
    need(len(trust_lines) == 1, "init did not say it recorded the trust:\n%s" % p.stdout)
    groups = json.loads(read(hooks_path))["hooks"]["Stop"]
    ours = groups[1]["hooks"][0] if len(groups) == 2 else {}
    need(ours.get("command", "").endswith(" hook --agent codex"), "hooks.json: %r" % groups)
    config = read(config_path)
    need(config.startswith(original), "config.toml lost its content:\n%s" % config)
    expected = '[hooks.state."%s:stop:1:0"]\ntrusted_hash = "sha256:%s"\n' % (hooks_path, codex_hash(ours) if ours else "")
    need(config == original + "\n" + expected, "config.toml after init:\n%s\nexpected to end with:\n%s" % (config, expected))
    p = run("init", "--agent", "codex")
    need(p.returncode == 0 and read(config_path) == config and "already recorded, nothing to change" in p.stdout,
         "second init changed something: %s" % p.stdout)

    # doctor: trusted, exit 0; also through --home with HOME elsewhere.
    p = run("doctor")
    line = next((l for l in p.stdout.splitlines() if l.startswith("codex:")), "")
    need(p.returncode == 0 and "trusted (" in line and "-> will run" in line, "doctor: exit %d: %s" % (p.returncode, p.stdout))
    p = run("doctor", "--home", home, env_home=args.work)
    need(p.returncode == 0 and "trusted (" in p.stdout, "doctor --home: exit %d: %s" % (p.returncode, p.stdout))

    # Tampered hash: doctor exit 1, "modified since trusted", and the fix.
    with open(config_path, "w") as f:
        f.write(config.replace(codex_hash(ours), "0" * 64))
    p = run("doctor")
    need(p.returncode == 1 and "modified since trusted" in p.stdout and "fix: causegate init --agent codex" in p.stdout,
         "doctor on a tampered hash: exit %d: %s" % (p.returncode, p.stdout))
    p = run("init", "--agent", "codex")
    need(p.returncode == 0 and "updated Codex's hook trust" in p.stdout and read(config_path) == config,
         "init did not repair the hash: %s" % p.stdout)
    need(run("doctor").returncode == 0, "doctor after the repair")

    # Uninstall: only ours goes; config.toml is the user's again, byte for byte.
    p = run("init", "--agent", "codex", "--uninstall")
    need(p.returncode == 0 and "removed causegate's hook trust entry" in p.stdout, "uninstall: %s %s" % (p.stdout, p.stderr))
    need(read(config_path) == original, "config.toml after uninstall:\n%s" % read(config_path))
    p = run("doctor")
    need(p.returncode == 0 and "causegate is not registered" in p.stdout, "doctor after uninstall: %s" % p.stdout)

    print("init, doctor and uninstall on Codex: failures: %d" % len(failures))
    for f in failures:
        print("  FAIL " + f)
    shutil.rmtree(args.work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
