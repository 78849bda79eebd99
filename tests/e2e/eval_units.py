#!/usr/bin/env python3
"""End-to-end: `causegate eval --units` (and `explain --format json`) write
what the scorer read, and `eval --weights` judges with another weights file (the two things
bench/quality/fit_scorer.py stands on). Uses the bundled example sessions
only, so it runs in a user's clone too.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(HERE)), "examples", "transcripts")
WEIGHTS = os.path.join(os.path.dirname(os.path.dirname(HERE)), "rules", "scorer", "claim_weights.tsv")
CASES = {"export-blocked": "block", "export-allowed": "allow", "export-blocked-zh": "block"}


def layout(work):
    """A folder eval reads: labels.jsonl and <id>/payload.json."""
    with open(os.path.join(work, "labels.jsonl"), "w") as labels:
        for name, label in CASES.items():
            os.makedirs(os.path.join(work, name))
            with open(os.path.join(EXAMPLES, name + ".payload.json")) as f:
                payload = json.load(f)
            transcript = os.path.join(work, name, "transcript.jsonl")
            shutil.copy(os.path.join(EXAMPLES, name + ".jsonl"), transcript)
            payload["transcript_path"] = transcript
            with open(os.path.join(work, name, "payload.json"), "w") as f:
                json.dump(payload, f)
            labels.write(json.dumps({"id": name, "label": label, "finding": "no-citation" if label == "block" else None,
                                     "lang": "zh" if name.endswith("-zh") else "en"}) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    args = ap.parse_args()
    failures = []

    def check(ok, what):
        print(("ok   " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    with tempfile.TemporaryDirectory() as work:
        layout(work)
        units = os.path.join(work, "units.jsonl")
        p = subprocess.run([args.bin, "eval", work, "--units", units, "--strict"], capture_output=True, text=True)
        check(p.returncode == 0, "eval --strict agrees on the bundled examples (%d: %s)" % (p.returncode, p.stdout[-300:]))
        rows = [json.loads(l) for l in open(units)]
        check([r["id"] for r in rows] == list(CASES), "one line per case, in label order")
        check(all(r["decision"] == CASES[r["id"]] for r in rows), "each line carries the case's decision")
        blocked = rows[0]
        claims = [s for s in blocked["sentences"] if s["claim"]]
        check(len(claims) == 1, "the blocked example has one claim sentence")
        if claims:
            s = claims[0]
            check(s["unit"] == "paragraph" and s["rule"] == "en.claim.because", "the claim names its unit and rule")
            names = [f["name"] for f in s["features"]]
            check("cue:claim.because" in names and "failure" in names, "its features: %s" % names)
            check(abs(sum(f["weight"] for f in s["features"]) - (s["score"] - weights_bias())) < 1e-6,
                  "score = bias + the features' weights")
            check("rules_only" in s, "the packs' own decision is there to compare with")

        # explain --format json carries the same reading of the scored sentences.
        p = subprocess.run([args.bin, "explain", "--format", "json", os.path.join(work, "export-blocked", "transcript.jsonl")],
                           capture_output=True, text=True)
        # (explain exits 1 on a block; the JSON is on stdout either way)
        explained = json.loads(p.stdout).get("sentences", []) if p.stdout.strip() else []
        check([s["sentence"] for s in explained if s["claim"]] == [s["sentence"] for s in claims],
              "explain --format json lists the same claim with its features")

        # Weights that make nothing a claim, for the scorer and for the
        # sentence-shape model (which may add a claim the scorer let pass):
        # the blocked examples pass.
        strict = os.path.join(work, "none.tsv")
        with open(strict, "w") as f:
            f.write("# nothing is a claim\nbias\t0\nthreshold\t1000\n")
        p = subprocess.run([args.bin, "eval", work, "--weights", strict, "--shape-weights", strict],
                           capture_output=True, text=True)
        check(p.returncode == 0 and "1 passed, 2 failed" in p.stdout,
              "--weights and --shape-weights are used: %s" % p.stdout[-80:])
        broken = os.path.join(work, "broken.tsv")
        with open(broken, "w") as f:
            f.write("bias\t0\n")
        p = subprocess.run([args.bin, "eval", work, "--shape-weights", broken], capture_output=True, text=True)
        check(p.returncode == 2 and "threshold" in p.stderr, "a broken --shape-weights file is an error: %s" % p.stderr)
        # Every sentence carries its shape n-grams, for fit_shapes.py.
        check(all("shapes" in s for s in blocked["sentences"]), "eval --units lists each sentence's shape n-grams")
        bad = os.path.join(work, "bad.tsv")
        with open(bad, "w") as f:
            f.write("bias\t0\nthreshold\tlots\n")
        p = subprocess.run([args.bin, "eval", work, "--weights", bad], capture_output=True, text=True)
        check(p.returncode == 2 and "bad.tsv:2:" in p.stderr, "a broken weights file is refused with its line: %r" % p.stderr)
    print("eval units: %d failure(s)" % len(failures))
    return 1 if failures else 0


def weights_bias():
    """The bias of the weights compiled into the binary (their source file)."""
    with open(WEIGHTS) as f:
        for line in f:
            if line.startswith("bias\t"):
                return float(line.split("\t")[1])
    raise SystemExit("no bias in " + WEIGHTS)


if __name__ == "__main__":
    sys.exit(main())
