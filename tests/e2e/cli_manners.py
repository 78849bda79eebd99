#!/usr/bin/env python3
"""End-to-end: the command line behaves as people expect of a CLI.

One check per point of issue 16, item 3:
  1. options anywhere: --rules (and --color) after the command, in every
     command, answer as before it;
  2. --output FORMAT=FILE takes one value: `check --output sarif=x a b`
     checks both files;
  3. "did you mean": a mistyped command, subcommand or option names the
     nearest one;
  4. ranges read as numbers, and --max-blocks has the same range (0 to 100)
     in hook, check, explain and serve; --turn starts at 1;
  5. "-" reads the transcript from stdin in check and explain;
  6. --color auto|always|never beside NO_COLOR, CLICOLOR_FORCE, TERM=dumb.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

PROMPT = "why did the nightly build fail?"
CLAIM = "The cache zorched the linker."
# The claim of examples/transcripts/export-blocked.jsonl.
EXPORT_CLAIM = "the log rotation job deleted the staging folder"
ESC = "\x1b["

PACK = {"format": "causegate-pack/1", "pack": "custom", "version": "1", "lang": "en", "rules": [
    {"id": "custom.feature.zorch", "kind": "feature", "tag": "force-claim", "pattern": "\\bzorched\\b",
     "description": "Zorched: this team's word for a cause.",
     "match": ["The cache zorched the linker."], "no_match": ["The cache is fine."]}]}


class Checks:
    def __init__(self):
        self.failures = []
        self.n = 0

    def check(self, ok, what):
        self.n += 1
        if not ok:
            self.failures.append(what)
        return ok


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def transcript(path, final=CLAIM):
    lines = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": PROMPT}},
        {"type": "assistant", "uuid": "a1", "message": {"id": "m1", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make 2>&1 | tail -2"}}]}},
        {"type": "user", "uuid": "u2", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "ld: error: cannot open output file"}]}},
        {"type": "assistant", "uuid": "a2", "message": {"id": "m2", "role": "assistant", "content": [
            {"type": "text", "text": final}]}},
    ]
    return write(path, "".join(json.dumps(line) + "\n" for line in lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    binary = os.path.abspath(args.bin)
    examples = os.path.join(os.path.abspath(args.source), "examples", "transcripts")
    blocked = os.path.join(examples, "export-blocked.jsonl")
    allowed = os.path.join(examples, "export-allowed.jsonl")
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "CLICOLOR_FORCE")}
    env["TERM"] = "xterm"

    def run(argv, stdin=None, extra=None):
        e = dict(env, **(extra or {}))
        return subprocess.run([binary] + argv, input=stdin, capture_output=True, text=True, env=e,
                              cwd=args.work, timeout=120)

    c = Checks()

    # 1. --rules after the command: a pack that makes "zorched" a claim.
    pack = write(os.path.join(args.work, "packs", "custom.json"), json.dumps(PACK, indent=2) + "\n")
    t = transcript(os.path.join(args.work, "zorch.jsonl"))
    hook_input = json.dumps({"session_id": "s", "hook_event_name": "Stop", "stop_hook_active": False,
                             "transcript_path": t, "cwd": args.work})
    for name, argv, stdin in (("check", ["check", t], None), ("explain", ["explain", t], None),
                              ("hook", ["hook"], hook_input), ("rules list", ["rules", "list"], None)):
        before = run(["--rules", pack] + argv, stdin)
        after = run(argv + ["--rules", pack], stdin)
        c.check((after.returncode, after.stdout) == (before.returncode, before.stdout) and after.stdout,
                "1. %s: --rules after the command answers as before it (%d %r / %d %r)" %
                (name, after.returncode, after.stdout[-120:], before.returncode, before.stdout[-120:]))
        plain = run(argv, stdin)
        c.check(plain.stdout != after.stdout, "1. %s: --rules after the command had no effect" % name)
    p = run(["check", blocked, "--rules", os.path.join(args.work, "gone.json")])
    c.check(p.returncode == 2 and "gone.json" in p.stderr, "1. --rules after check is checked: %r" % p.stderr)

    # 2. --output takes one value; the paths after it are paths.
    sarif = os.path.join(args.work, "x.sarif")
    p = run(["check", "-q", "--output", "sarif=" + sarif, blocked, allowed])
    ok = c.check(p.returncode == 1 and os.path.isfile(sarif), "2. check --output sarif=x a b: rc %d %r" %
                 (p.returncode, p.stderr))
    if ok:
        doc = json.load(open(sarif, encoding="utf-8"))
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for run_ in doc["runs"] for r in run_["results"]}
        c.check(any(u.endswith("export-blocked.jsonl") for u in uris), "2. the blocked file is in the SARIF: %r" % uris)
    p = run(["check", "-q", "--output", "sarif=" + sarif, "--output", "junit=" + sarif + ".xml", blocked])
    c.check(p.returncode == 1 and os.path.isfile(sarif + ".xml"), "2. --output twice: %r" % p.stderr)

    # 3. did you mean.
    for argv, want in ((["chek", blocked], 'unknown command "chek"; did you mean `check`?'),
                       (["check", "--formt", "json", blocked], "causegate check: unknown option --formt; did you mean --format?"),
                       (["rules", "lnt"], "did you mean `rules lint`?"),
                       (["explain", blocked, "--trun", "1"], "did you mean --turn?"),
                       (["--colr", "never", "check", blocked], "did you mean --color?"),
                       (["frobnicate"], "(commands: ")):
        p = run(argv)
        c.check(p.returncode == 2 and want in p.stderr, "3. %s: rc %d %r" % (" ".join(argv), p.returncode, p.stderr))
    p = run(["hook", "--max-blockz", "1"], "{}")
    c.check(p.returncode == 0 and "did you mean --max-blocks?" in p.stderr,
            "3. hook: a typo is named and the hook still fails open: rc %d %r" % (p.returncode, p.stderr))

    # 4. Ranges read as numbers; --max-blocks the same everywhere.
    for argv, stdin in ((["hook", "--max-blocks", "101"], "{}"), (["check", "--max-blocks", "101", blocked], None),
                        (["explain", "--max-blocks", "101", blocked], None), (["serve", "--max-blocks", "101"], None)):
        p = run(argv, stdin)
        c.check("--max-blocks: 101 is not a whole number from 0 to 100" in p.stderr and "000000" not in p.stderr,
                "4. %s: %r" % (argv[0], p.stderr))
        h = run([argv[0], "--help"])
        c.check("--max-blocks N" in h.stdout and "(0 to 100)" in h.stdout and "INT:" not in h.stdout,
                "4. %s --help shows the range in words" % argv[0])
    for argv in (["check", "--max-blocks", "0", blocked], ["explain", "--max-blocks", "0", blocked]):
        p = run(argv)
        c.check(p.returncode in (0, 1) and "not a whole number" not in p.stderr, "4. --max-blocks 0 accepted: %r" % p.stderr)
    p = run(["explain", "--turn", "0", blocked])
    c.check(p.returncode == 2 and "--turn: 0 is not a whole number 1 or more" in p.stderr, "4. --turn 0: %r" % p.stderr)
    p = run(["check", "-j", "-1", blocked])
    c.check(p.returncode == 2 and "-1 is not a whole number from 0 to 1024" in p.stderr, "4. -j -1: %r" % p.stderr)

    # 5. "-" is stdin.
    text = open(blocked, encoding="utf-8").read()
    p = run(["check", "-"], text)
    c.check(p.returncode == 1 and p.stdout.startswith("-:") and "1 blocked" in p.stdout, "5. check -: %r" % p.stdout)
    # The html report of a transcript on stdin shows what the file's shows:
    # the final message and the tool lines nearest the claim.
    by_path = run(["check", "--format", "html", blocked])
    by_dash = run(["check", "--format", "html", "-"], text)
    c.check(by_dash.returncode == by_path.returncode == 1 and EXPORT_CLAIM in by_dash.stdout and
            by_dash.stdout.count(EXPORT_CLAIM) == by_path.stdout.count(EXPORT_CLAIM) and
            ("nearest lines" in by_dash.stdout) == ("nearest lines" in by_path.stdout),
            "5. check - --format html shows the final message: %d of %d" %
            (by_dash.stdout.count(EXPORT_CLAIM), by_path.stdout.count(EXPORT_CLAIM)))
    p = run(["check", "--format", "json", "-", allowed], text)
    files = [f["path"] for f in json.loads(p.stdout)["files"]] if p.returncode in (0, 1) and p.stdout else []
    c.check("-" in files and len(files) == 2, "5. check - FILE: files %r" % files)
    by_file = run(["explain", "--format", "json", blocked])
    by_stdin = run(["explain", "--format", "json", "-"], text)
    c.check(by_stdin.returncode == by_file.returncode == 1 and
            json.loads(by_stdin.stdout)["decision"] == json.loads(by_file.stdout)["decision"],
            "5. explain - judges as explain FILE: %r" % by_stdin.stderr)
    p = run(["explain", "-"], text)
    c.check(p.stdout.startswith("transcript: -"), "5. explain - names the transcript -: %r" % p.stdout[:60])
    left = [n for n in os.listdir(os.environ.get("TMPDIR", "/tmp")) if n.startswith("causegate-stdin-")]
    c.check(not left or all(os.path.getmtime(os.path.join(os.environ.get("TMPDIR", "/tmp"), n)) < os.path.getmtime(t)
                            for n in left), "5. the stdin copy is removed: %r" % left)

    # 6. Colour (stdout is a pipe here, so auto means none unless forced).
    for argv, extra, want in ((["--color", "always"], {}, True), (["--color", "never"], {"CLICOLOR_FORCE": "1"}, False),
                              ([], {}, False), ([], {"CLICOLOR_FORCE": "1"}, True),
                              ([], {"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}, False),
                              (["--color", "always"], {"NO_COLOR": "1"}, True),
                              ([], {"CLICOLOR_FORCE": "1", "NO_COLOR": ""}, True),
                              ([], {"CLICOLOR_FORCE": "0"}, False)):
        p = run(["explain", blocked] + argv, extra=extra)
        c.check((ESC in p.stdout) == want, "6. explain %s %r: colour %s" % (" ".join(argv), extra, ESC in p.stdout))
    home = os.path.join(args.work, "home")
    os.makedirs(os.path.join(home, ".claude"))
    for flag, want in (("always", True), ("never", False)):
        p = run(["init", "--agent", "claude-code", "--dry-run", "--color", flag, "--binary", binary], extra={"HOME": home})
        c.check(p.returncode == 0 and ("\x1b[32m+" in p.stdout) == want and "+++" in p.stdout,
                "6. init --dry-run --color %s: %r" % (flag, p.stdout[:120]))
    p = run(["explain", blocked, "--color", "sometimes"])
    c.check(p.returncode == 2 and "--color" in p.stderr, "6. --color sometimes refused: %r" % p.stderr)

    print("cli manners: %d checks, failures: %d" % (c.n, len(c.failures)))
    for f in c.failures:
        print("  FAIL " + f)
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
