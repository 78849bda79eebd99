#!/usr/bin/env python3
"""What a cold hook call costs in instructions, turn by turn, against a baseline.

    bench/hook_instructions.py --bin build/causegate [--baseline OTHER_BINARY]
                               [--set written_heldout2] [--cases ID,ID,...]

Wall time on a shared 2-core machine moves by 10% between runs of the same
binary; callgrind's instruction count does not, so it is the figure to
compare two binaries by. Each case of one of our written sets (rendered
with ../shared/tools/casegen.py, as written_sets.py does) is judged by one
fresh `causegate hook` process under callgrind, with the resident daemon
off (CAUSEGATE_RESIDENT=0): a cold call, compiling what its turn needs, as
an agent pays it. Prints each case's instructions, the sum and, with
--baseline, the baseline's beside them and the ratio, measured in the
same run.

The default cases are the four the ninth session measured its cost steps
with (rules/QUALITY_HISTORY.md): two English and two Chinese turns of
written_heldout2, with and without tool calls. Exit 0; 77 when casegen or
valgrind is absent.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import resident_bench  # noqa: E402  (bench/ is not a package)

DEFAULT_SET = "written_heldout2"
DEFAULT_CASES = "h2-en-035,h2-zh-002,h2-en-006,h2-zh-009"


def instructions(binary, payload, work):
    """Callgrind's instruction count of one cold hook call on payload."""
    with open(payload, "rb") as f:
        count = resident_bench.instructions([binary, "hook"], f.read(), dict(os.environ, CAUSEGATE_RESIDENT="0"), work)
    if count is None:
        sys.exit("callgrind printed no count for %s" % payload)
    return count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "causegate"))
    ap.add_argument("--baseline", help="another causegate binary, measured on the same cases in the same run")
    ap.add_argument("--set", default=DEFAULT_SET, help="a folder of bench/quality (default %(default)s)")
    ap.add_argument("--cases", default=DEFAULT_CASES, help="case ids, comma-separated (default %(default)s)")
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(REPO), "shared"))
    args = ap.parse_args()
    casegen = os.path.join(args.shared, "tools", "casegen.py")
    if not os.path.isfile(casegen):
        print("SKIP: %s not found (it lives beside the project, in ../shared)" % casegen)
        return 77
    if not shutil.which("valgrind"):
        print("SKIP: valgrind not found (scripts/install-deps --bench)")
        return 77
    binaries = [("binary", os.path.abspath(args.bin))]
    if args.baseline:
        binaries.append(("baseline", os.path.abspath(args.baseline)))
    with tempfile.TemporaryDirectory() as work:
        subprocess.run([sys.executable, casegen, "--all", os.path.join(HERE, "quality", args.set), work],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ids = [c for c in args.cases.split(",") if c]
        header = "%-14s %16s" % ("case", "binary")
        if args.baseline:
            header += " %16s %8s" % ("baseline", "ratio")
        print("cold hook calls, callgrind instructions (%s of bench/quality/%s)" % (len(ids), args.set))
        print(header)
        totals = {name: 0 for name, _ in binaries}
        for case_id in ids:
            payload = os.path.join(work, case_id, "payload.json")
            if not os.path.isfile(payload):
                sys.exit("no case %s in bench/quality/%s" % (case_id, args.set))
            counts = {name: instructions(path, payload, work) for name, path in binaries}
            for name in counts:
                totals[name] += counts[name]
            row = "%-14s %16s" % (case_id, "{:,}".format(counts["binary"]))
            if args.baseline:
                row += " %16s %7.3fx" % ("{:,}".format(counts["baseline"]), counts["binary"] / counts["baseline"])
            print(row)
        row = "%-14s %16s" % ("sum", "{:,}".format(totals["binary"]))
        if args.baseline:
            row += " %16s %7.3fx" % ("{:,}".format(totals["baseline"]), totals["binary"] / totals["baseline"])
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
