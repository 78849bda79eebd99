#!/usr/bin/env python3
"""`causegate help COMMAND` and the man page against the binary's own --help.

For every command and subcommand the binary lists: `causegate help CMD...`
prints exactly `causegate CMD... --help`, and docs/causegate.1 names the
command and every long option its --help shows. So a new command or flag
without a line in the man page fails here.
"""
import argparse
import re
import subprocess
import sys


def run(binary, *args):
    p = subprocess.run([binary] + list(args), capture_output=True, text=True, timeout=30)
    return p.returncode, p.stdout


def subcommands(help_text):
    """Names listed under SUBCOMMANDS: in a CLI11 help text."""
    names, inside = [], False
    for line in help_text.splitlines():
        if re.match(r"^SUBCOMMANDS:?$", line.strip(), re.I):
            inside = True
            continue
        if inside:
            m = re.match(r"^\s+([a-z][a-z0-9-]*)\s", line + " ")
            if m:
                names.append(m.group(1))
            elif line.strip() and not line.startswith(" "):
                inside = False
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--man", required=True)
    args = ap.parse_args()
    man = open(args.man, encoding="utf-8").read().replace("\\-", "-").replace("\\(em", "-")
    failures = []
    code, top = run(args.bin, "--help")
    if code != 0:
        failures.append("causegate --help exit %d" % code)
    code, version = run(args.bin, "--version")
    if code != 0 or not re.match(r"^causegate \d+\.\d+\.\d+", version):
        failures.append("causegate --version: %r" % version)
    todo = [[name] for name in subcommands(top)]
    if not todo:
        failures.append("no subcommands found in --help")
    seen = 0
    for path in todo:
        seen += 1
        code, via_flag = run(args.bin, *(path + ["--help"]))
        code2, via_help = run(args.bin, "help", *path)
        name = " ".join(path)
        if code != 0 or code2 != 0 or via_flag != via_help:
            failures.append("`causegate help %s` differs from `causegate %s --help`" % (name, name))
        if not re.search(r"\b%s\b" % re.escape(name.split()[-1]), man):
            failures.append("man page does not name the command %r" % name)
        for flag in sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", via_flag))):
            if flag in ("--help",):
                continue
            if flag not in man:
                failures.append("man page does not document %s of `%s`" % (flag, name))
        todo.extend([path + [sub] for sub in subcommands(via_flag)])
    for flag in sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", top))):
        if flag not in man and flag != "--help":
            failures.append("man page does not document the global option %s" % flag)
    code, _ = run(args.bin, "help", "no-such-command")
    if code != 2:
        failures.append("`causegate help no-such-command` exit %d, expected 2" % code)
    print("commands checked: %d, failures: %d" % (seen, len(failures)))
    for f in failures:
        print("  FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
