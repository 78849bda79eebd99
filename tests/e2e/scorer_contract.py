#!/usr/bin/env python3
"""The committed claim scorer weights keep the spec's contract: every claim
form the prior marks `alone` (bench/quality/scorer_prior.tsv) is a claim by
itself, bias + weight at or above the threshold, whether the weights came
from bench/quality/fit_scorer.py (which holds that as a constraint) or from
a hand edit. Reads project files only, so it runs in a user's clone too.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "bench", "quality"))
import fit_scorer  # noqa: E402


def load_weights(path):
    weights = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, value = line.rstrip("\n").split("\t")[:2]
            weights[name] = float(value)
    return weights


def main():
    prior = fit_scorer.load_prior(fit_scorer.PRIOR)
    weights = load_weights(fit_scorer.DEFAULT_OUT)
    alone = sorted(n for n, (_, _, is_alone) in prior.items() if is_alone)
    if not alone:
        print("FAIL: the prior marks no claim form `alone`")
        return 1
    bias, threshold = weights["bias"], weights["threshold"]
    short = []
    for name in alone:
        if name not in weights:
            short.append("%s: no weight in %s" % (name, fit_scorer.DEFAULT_OUT))
        elif bias + weights[name] < threshold:
            short.append("%s: bias + weight %.4f < threshold %.4f" % (name, bias + weights[name], threshold))
    for line in short:
        print("FAIL: " + line)
    print("%d of %d `alone` claim forms are claims by themselves" % (len(alone) - len(short), len(alone)))
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
