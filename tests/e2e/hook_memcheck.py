#!/usr/bin/env python3
"""valgrind memcheck over the hook end to end: the bundled examples, inputs
that fail open, and (where ../shared exists) one labelled case in ten,
rendered as Claude Code sessions. Any memory error or definite/indirect
leak fails the test. tests/valgrind/re2.supp silences RE2's sparse sets,
which read uninitialised memory by design.

Skips (77) when valgrind is not installed: scripts/install-deps --bench.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SUPPRESSIONS = os.path.join(REPO, "tests", "valgrind", "re2.supp")
ERROR_EXIT = 99
FAIL_OPEN_INPUTS = [b"", b"not json", b"[1,2]", b'{"hook_event_name":"Stop","transcript_path":"/nonexistent"}']


def memcheck(binary, stdin, cwd):
    cmd = ["valgrind", "-q", "--suppressions=" + SUPPRESSIONS, "--error-exitcode=%d" % ERROR_EXIT,
           "--leak-check=full", "--errors-for-leak-kinds=definite,indirect", binary, "hook"]
    p = subprocess.run(cmd, input=stdin, capture_output=True, cwd=cwd, timeout=600)
    return p.returncode, p.stderr.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)  # runs from each case's folder
    if shutil.which("valgrind") is None:
        print("SKIP: valgrind not installed (scripts/install-deps --bench)")
        return 77
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)

    runs = []  # (name, stdin bytes, cwd)
    for payload in sorted(glob.glob(os.path.join(REPO, "examples", "transcripts", "*.payload.json"))):
        runs.append((os.path.basename(payload), open(payload, "rb").read(), REPO))
    for stdin in FAIL_OPEN_INPUTS:
        runs.append(("fail-open %r" % stdin[:30], stdin, args.work))
    casegen = os.path.join(args.shared, "tools", "casegen.py")
    if os.path.isfile(casegen):
        rendered = os.path.join(args.work, "cases")
        subprocess.run([sys.executable, casegen, "--all", os.path.join(args.shared, "cases"), rendered],
                       check=True, stdout=subprocess.DEVNULL)
        for case in sorted(glob.glob(os.path.join(rendered, "*", "payload.json")))[::10]:
            runs.append((os.path.basename(os.path.dirname(case)), open(case, "rb").read(), os.path.dirname(case)))
    else:
        print("note: %s not found; labelled cases skipped" % casegen)

    failures = 0
    for name, stdin, cwd in runs:
        code, err = memcheck(binary, stdin, cwd)
        if code == ERROR_EXIT:
            failures += 1
            print("FAIL %s\n%s" % (name, err[-3000:]))
        elif code != 0:
            failures += 1
            print("FAIL %s: exit %d: %s" % (name, code, err[-500:]))
        else:
            print("ok   %s" % name)
    print("memcheck: %d runs, %d failed" % (len(runs), failures))
    shutil.rmtree(args.work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
