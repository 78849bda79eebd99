#!/usr/bin/env python3
"""End-to-end: rule packs a user writes (issue 16, item 4).

- A pack file with three different problems: `rules lint` lists all three,
  each at its file:line:column, then the count, and exits 1; a folder of
  two bad files lists the problems of both.
- A rule id that a built-in rule has: `rules lint` names both places (the
  user's file:line and `<builtin>/en.json:line`, the built-in pack as
  `rules lint` shows it), and the hook, `check` and `serve` refuse the packs
  in the same words; the hook fails open (exit 0, nothing on stdout, that
  message on stderr). Before, lint passed such a pack ("0 problem(s)") and
  every hook call then failed open without saying where the other rule was:
  the gate was off.
- `--rules FILE` works as `--rules FOLDER` holding that file, for hook,
  check, explain, rules lint/test/list and serve (which reloads when the
  file changes).
- `rules list` says what each rule is for: a built-in description without
  the notes for pack authors, a user's own, and for a rule without one a
  sentence from its kind.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

from serve_util import Checks, Daemon

PROMPT = "why did the nightly build fail?"
CLAIM = "The cache zorched the linker."


def run(binary, args, stdin=None):
    return subprocess.run([binary] + args, input=stdin, capture_output=True, text=True, timeout=120)


def line_of(text, needle):
    return text[:text.index(needle)].count("\n") + 1


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def pack_text(rules, name="custom", version="1"):
    return json.dumps({"format": "causegate-pack/1", "pack": name, "version": version, "lang": "en",
                       "rules": rules}, indent=2) + "\n"


# Three rules, three different problems: a pattern RE2 refuses, a kind
# that does not exist, examples that are not an array.
THREE_PROBLEMS = r"""{
  "format": "causegate-pack/1",
  "pack": "team",
  "version": "1",
  "lang": "en",
  "rules": [
    {
      "id": "team.claim.blame",
      "kind": "claim",
      "pattern": "\\b(blame",
      "match": ["We blame the cache."],
      "no_match": ["The cache is fine."]
    },
    {
      "id": "team.claim.zorch",
      "kind": "cliam",
      "pattern": "\\bzorched\\b",
      "match": ["The cache zorched the linker."],
      "no_match": ["The cache is fine."]
    },
    {
      "id": "team.hedge.guess",
      "kind": "hedge",
      "pattern": "\\bmy guess\\b",
      "match": "My guess is the cache.",
      "no_match": ["The cache is fine."]
    }
  ]
}
"""

CUSTOM_RULES = [
    {"id": "custom.feature.zorch", "kind": "feature", "tag": "force-claim", "pattern": "\\bzorched\\b",
     "description": "Zorched: this team's word for a cause.",
     "match": ["The cache zorched the linker."], "no_match": ["The cache is fine."]},
    {"id": "custom.hedge.reckon", "kind": "hedge", "pattern": "\\bI reckon\\b",
     "match": ["I reckon the cache did it."], "no_match": ["The cache is fine."]},
]


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


def payload(transcript_path):
    return json.dumps({"session_id": "s", "hook_event_name": "Stop", "stop_hook_active": False,
                       "transcript_path": transcript_path})


def lint_problems(c, binary, work):
    team = write(os.path.join(work, "three", "team.json"), THREE_PROBLEMS)
    p = run(binary, ["rules", "lint", team])
    lines = p.stdout.splitlines()
    print(p.stdout, end="")
    c.check(p.returncode == 1, "lint of three problems exits 1 (got %d)" % p.returncode)
    expected = [
        (line_of(THREE_PROBLEMS, '"pattern": "\\\\b(blame"'), r'rule "team\.claim\.blame": pattern: missing \)'),
        (line_of(THREE_PROBLEMS, '"kind": "cliam"'), r'rule "team\.claim\.zorch": unknown kind "cliam"'),
        (line_of(THREE_PROBLEMS, '"match": "My guess'), r'rule "team\.hedge\.guess": match: must be an array'),
    ]
    c.check(len(lines) == 4, "three problems and the count, one a line: %r" % lines)
    for i, (line, what) in enumerate(expected):
        got = lines[i] if i < len(lines) else ""
        c.check(re.match(r"^%s:%d:\d+: %s" % (re.escape(team), line, what), got) is not None,
                "problem %d at %s:%d: %r" % (i + 1, team, line, got))
    c.check(lines[-1:] == ["1 pack(s), 3 rule(s), 3 problem(s)"], "the count: %r" % lines[-1:])

    # A folder: every problem of every file, file by file.
    folder = os.path.join(work, "folder")
    write(os.path.join(folder, "team.json"), THREE_PROBLEMS)
    broken = write(os.path.join(folder, "broken.json"), '{"format": "causegate-pack/1",\n  "pack": }\n')
    p = run(binary, ["rules", "lint", folder])
    lines = p.stdout.splitlines()
    c.check(p.returncode == 1 and len(lines) == 5 and lines[-1] == "2 pack(s), 3 rule(s), 4 problem(s)",
            "lint of a folder lists the problems of both files: %r" % lines)
    c.check(bool(lines) and lines[0].startswith(broken + ":2:11: invalid JSON: syntax error") and
            "json.exception" not in p.stdout, "a JSON error at its line and column, in plain words: %r" % lines[:1])
    c.check(all(l.startswith(os.path.join(folder, "team.json") + ":") for l in lines[1:4]),
            "then team.json's three: %r" % lines[1:4])

    # Descriptions are linted: one line, at most 160 characters.
    long = dict(CUSTOM_RULES[1], description="x" * 161)
    too_long = write(os.path.join(work, "long", "long.json"), pack_text([long]))
    p = run(binary, ["rules", "lint", too_long])
    c.check(p.returncode == 1 and "description: 161 characters, more than 160" in p.stdout,
            "lint refuses a description past one line of rules list: %r" % p.stdout)


def clash(c, binary, work, source):
    builtin = open(os.path.join(source, "rules", "packs", "en.json"), encoding="utf-8").read()
    builtin_line = line_of(builtin, '"id": "en.claim.because"')
    rules = [dict(CUSTOM_RULES[0], id="en.claim.because")]
    folder = os.path.join(work, "clash")
    team = write(os.path.join(folder, "team.json"), pack_text(rules, name="team"))
    user_line = line_of(open(team).read(), '"id": "en.claim.because"')

    p = run(binary, ["rules", "lint", team])
    lines = p.stdout.splitlines()
    c.check(p.returncode == 1 and lines[-1:] == ["1 pack(s), 1 rule(s), 1 problem(s)"],
            "lint refuses an id a built-in rule has (exit %d): %r" % (p.returncode, lines))
    message = lines[0] if lines else ""
    c.check(re.match(r'^%s:%d:\d+: rule "en\.claim\.because": duplicate id: also in the built-in pack "en" at '
                     r'<builtin>/en\.json:%d:\d+ ' % (re.escape(team), user_line, builtin_line), message) is not None,
            "the lint error names both places: %r" % message)
    p = run(binary, ["--rules", folder, "rules", "lint"])
    c.check(p.returncode == 1 and message in p.stdout, "`--rules DIR rules lint` lints DIR: %r" % p.stdout)

    # The gate is on without the pack; with it, the pack is refused loudly.
    t = transcript(os.path.join(work, "clash_transcript.jsonl"), "The link failed because the disk filled up.")
    p = run(binary, ["hook"], payload(t))
    c.check(p.returncode == 0 and '"decision":"block"' in p.stdout, "without --rules the hook blocks: %r" % p.stdout[:80])
    for rules_path in (team, folder):
        p = run(binary, ["--rules", rules_path, "hook"], payload(t))
        c.check(p.returncode == 0 and p.stdout == "" and
                p.stderr == "causegate: allowed without judging (fail-open): rule packs: %s\n" % message,
                "hook --rules %s fails open with lint's message (exit %d, stdout %r, stderr %r)" %
                (rules_path, p.returncode, p.stdout[:80], p.stderr))
    p = run(binary, ["--rules", team, "check", t])
    c.check(p.returncode == 2 and message in p.stderr, "check --rules refuses it: %d %r" % (p.returncode, p.stderr))
    p = subprocess.run([binary, "serve", "--rules", team, "--listen", "127.0.0.1:0"], capture_output=True,
                       text=True, timeout=60)
    c.check(p.returncode != 0 and message in p.stderr, "serve --rules refuses to start: %d %r" %
            (p.returncode, p.stderr))

    # A mistyped registration still fails open: exit 2 would block.
    p = run(binary, ["--rules", os.path.join(work, "gone.json"), "hook"], payload(t))
    c.check(p.returncode == 0 and p.stdout == "", "hook with --rules naming nothing exits 0: %d" % p.returncode)


def file_or_folder(c, binary, work):
    folder = os.path.join(work, "custom")
    pack = write(os.path.join(folder, "custom.json"), pack_text(CUSTOM_RULES))
    t = transcript(os.path.join(work, "custom_transcript.jsonl"))
    same = [
        ("hook", ["hook"], payload(t)),
        ("check", ["check", t], None),
        ("explain", ["explain", t], None),
        ("rules lint", ["rules", "lint"], None),
        ("rules test", ["rules", "test"], None),
        ("rules list", ["rules", "list"], None),
    ]
    for name, args, stdin in same:
        by_file = run(binary, ["--rules", pack] + args, stdin)
        by_folder = run(binary, ["--rules", folder] + args, stdin)
        c.check((by_file.returncode, by_file.stdout) == (by_folder.returncode, by_folder.stdout),
                "%s: --rules FILE answers as --rules FOLDER (%d %r / %d %r)" %
                (name, by_file.returncode, by_file.stdout[-160:], by_folder.returncode, by_folder.stdout[-160:]))
        c.check("fail-open" not in by_file.stderr, "%s --rules FILE loads it: %r" % (name, by_file.stderr[-200:]))
        if name in ("hook", "check", "explain"):
            c.check("custom.feature.zorch" in by_file.stdout, "%s uses the pack's rule: %r" %
                    (name, by_file.stdout[-200:]))
    by_arg = run(binary, ["rules", "lint", pack])
    c.check(by_arg.returncode == 0 and by_arg.stdout == "1 pack(s), 2 rule(s), 0 problem(s)\n",
            "rules lint FILE: %r" % by_arg.stdout)

    try:
        d = Daemon(binary, os.path.join(work, "serve"), ["--rules", pack, "--root", work])
    except RuntimeError as e:
        c.check(False, "serve --rules FILE starts: %s" % e)
        return
    try:
        status, v = d.json("POST", "/v1/judge", {"prompt": PROMPT, "final_message": CLAIM, "tool_calls": []})
        c.check(status == 200 and v["decision"] == "block" and v["claims"][0]["rule"] == "custom.feature.zorch",
                "serve --rules FILE judges with it: %s %s" % (status, v))
        write(pack, pack_text(CUSTOM_RULES, version="2"))
        deadline, version = time.time() + 20, None
        while time.time() < deadline and version != "2":
            _, health = d.json("GET", "/healthz")
            version = next((p["version"] for p in health["packs"] if p["name"] == "custom"), None)
            time.sleep(0.05)
        c.check(version == "2", "serve reloads the pack file when it changes (version %s)" % version)
    finally:
        d.stop()


def descriptions(c, binary, work):
    p = run(binary, ["rules", "list"])
    rows = {line.split()[0]: line for line in p.stdout.splitlines() if not line.startswith("pack ")}
    c.check(p.returncode == 0 and rows.get("en.claim.because", "").endswith(" Because / because of."),
            "rules list: a built-in rule's description: %r" % rows.get("en.claim.because"))
    c.check(rows.get("en.claim.cause-is", "").endswith(
        " A nominal cause phrase: the cause / reason / culprit / source is X."),
        "rules list: the one-line purpose, not the notes: %r" % rows.get("en.claim.cause-is"))
    c.check("costs about twice as much to compile" not in p.stdout and "word_not_in.py" not in p.stdout,
            "rules list shows no notes for pack authors")
    c.check(all(len(line.split(None, 2)) == 3 for line in rows.values()), "every rule has a purpose shown")
    pack = write(os.path.join(work, "listed", "custom.json"), pack_text(CUSTOM_RULES))
    p = run(binary, ["rules", "list", pack])
    rows = {line.split()[0]: line for line in p.stdout.splitlines() if not line.startswith("pack ")}
    c.check(rows.get("custom.feature.zorch", "").endswith(" Zorched: this team's word for a cause."),
            "rules list: the user's description: %r" % rows.get("custom.feature.zorch"))
    c.check(rows.get("custom.hedge.reckon", "").endswith(" Marks a sentence as a hypothesis, not a claim."),
            "rules list: a rule without one gets its kind's: %r" % rows.get("custom.hedge.reckon"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    c = Checks()
    lint_problems(c, args.bin, args.work)
    clash(c, args.bin, args.work, args.source)
    file_or_folder(c, args.bin, args.work)
    descriptions(c, args.bin, args.work)
    return c.report("rules_user_packs")


if __name__ == "__main__":
    sys.exit(main())
