#!/usr/bin/env python3
"""The gate on real agent turns (../shared/corpora/agent_turns), split by split.

    python3 bench/quality/agent_turns.py --bin build/causegate

Renders every case with ../shared/tools/casegen.py, judges it through
`causegate eval` (the hook's own judging call) and prints, per language and
per folder, train and validation side by side:
  - turn level: false blocks of the turns labelled allow, recall of the
    turns labelled block (ambiguous cases left out, as the corpus asks);
  - sentence level: claim precision and recall of the scorer, and of the
    packs alone (the gate before the scorer) on the same sentences, and per
    label class how many sentences the gate took for claims.
Figures only: exit 0, 77 when ../shared is absent, 2 on a run error.
--traj-errors N lists up to N wrong sentences of the agent_traj development
labels (never the held-out ones).
--errors N lists up to N wrong turns of the train split (never validation:
looking at it would tune on it).
"""
import argparse
import collections
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import agent_turns_data as data  # noqa: E402
import agent_traj_data as traj_data  # noqa: E402
from baseline import baseline_claim  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))


def ratio(a, b):
    return "%d/%d" % (a, b)


def pct(a, b):
    return "%.1f%%" % (100.0 * a / b) if b else "-"


def prf(tp, fp, fn):
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return p, r


class Tally:
    def __init__(self):
        self.allow = self.false_block = self.block = self.caught = 0
        self.s = collections.Counter()   # sentence tp/fp/fn for the scorer
        self.r = collections.Counter()   # the same for the packs alone
        self.b = collections.Counter()   # and for the one-regex baseline
        self.by_class = collections.Counter()
        self.claimed_by_class = collections.Counter()
        self.unaligned = 0

    def add_turn(self, case, judged):
        got_block = judged is not None and judged["decision"] == "block"
        if case["label"] == "block":
            self.block += 1
            self.caught += got_block
        else:
            self.allow += 1
            self.false_block += got_block

    def add_sentence(self, sentence, label):
        if label is None:
            self.unaligned += 1
            return
        self.by_class[label] += 1
        for counter, said in ((self.s, sentence["claim"]), (self.r, sentence.get("rules_only", False)),
                              (self.b, baseline_claim(sentence["sentence"]))):
            if label == "claim":
                counter["tp" if said else "fn"] += 1
            elif said:
                counter["fp"] += 1
        if sentence["claim"]:
            self.claimed_by_class[label] += 1


def collect(binary, shared, rules, work):
    """{(lang or folder, split): Tally}, and the wrong train turns."""
    tallies = collections.defaultdict(Tally)
    wrong = []
    for folder in data.FOLDERS:
        for case, judged, sentences in data.load_folder(shared, folder, binary, work, rules):
            if case.get("ambiguous"):
                continue
            split = case.get("split", "train")
            keys = [(data.lang_of(folder), split), (folder, split)]
            for key in keys:
                tallies[key].add_turn(case, judged)
                for sentence, label in sentences:
                    tallies[key].add_sentence(sentence, label)
            got = judged["decision"] if judged else "none"
            if split == "train" and got != case["label"]:
                wrong.append((folder, case, judged, sentences))
    return tallies, wrong


def print_turns(tallies, keys):
    print("turn level (ambiguous left out):")
    print("  %-16s %-11s %16s %10s %14s %8s" % ("set", "split", "false blocks", "", "block recall", ""))
    for key in keys:
        for split in ("train", "validation"):
            t = tallies.get((key, split))
            if t is None:
                continue
            print("  %-16s %-11s %16s %10s %14s %8s" % (
                key, split, ratio(t.false_block, t.allow), pct(t.false_block, t.allow),
                ratio(t.caught, t.block), ("%.2f" % (t.caught / t.block)) if t.block else "-"))


def print_sentences(tallies, keys):
    print("\nsentence level, claim vs the rest (scorer | packs alone, the gate before the scorer | one-regex baseline):")
    print("  %-16s %-11s %6s %6s %6s %6s | %6s %6s | %6s %6s | %9s" % (
        "set", "split", "P", "R", "tp", "fp", "P", "R", "P", "R", "unaligned"))
    for key in keys:
        for split in ("train", "validation"):
            t = tallies.get((key, split))
            if t is None:
                continue
            p, r = prf(t.s["tp"], t.s["fp"], t.s["fn"])
            rp, rr = prf(t.r["tp"], t.r["fp"], t.r["fn"])
            bp, br = prf(t.b["tp"], t.b["fp"], t.b["fn"])
            print("  %-16s %-11s %6.2f %6.2f %6d %6d | %6.2f %6.2f | %6.2f %6.2f | %9d" % (
                key, split, p, r, t.s["tp"], t.s["fp"], rp, rr, bp, br, t.unaligned))
    print("\nsentences taken for claims, per label class (scorer; claim: recall, others: false claims):")
    print("  %-12s %-11s" % ("lang", "split") + "".join(" %12s" % c[:12] for c in data.CLASSES))
    for lang in ("en", "zh"):
        for split in ("train", "validation"):
            t = tallies.get((lang, split))
            if t is None:
                continue
            cells = "".join(" %12s" % ratio(t.claimed_by_class[c], t.by_class[c]) for c in data.CLASSES)
            print("  %-12s %-11s%s" % (lang, split, cells))


def print_wrong(wrong, limit):
    print("\nwrong train turns (first %d of %d):" % (min(limit, len(wrong)), len(wrong)))
    for folder, case, judged, sentences in wrong[:limit]:
        got = judged["decision"] if judged else "none"
        print("- %s/%s: label %s, got %s (%s)" % (folder, case["id"], case["label"], got, case.get("why", "")[:100]))
        for sentence, label in sentences:
            if sentence["claim"] or label == "claim":
                feats = ", ".join("%s %+.2f" % (f["name"], f["weight"]) for f in sentence["features"][:6])
                print("    [%s claim=%s score=%.2f] %s\n        %s" % (
                    label, sentence["claim"], sentence["score"], sentence["sentence"][:160], feats))


def print_traj_errors(binary, shared, rules, work, limit):
    """The development labels' wrong sentences, with the features that
    decided: what the next rule change looks at. Never the held-out ones."""
    wrong = []
    for _, path, development in traj_data.LABEL_FILES:
        if not development or not os.path.isfile(path):
            continue
        rows, _ = traj_data.load(shared, binary, work, rules, labels_path=path)
        wrong += [(label, s) for _, sentences in (rows or []) for s, label in sentences
                  if (label == "claim") != bool(s["claim"])]
    print("\nwrong agent_traj sentences, development labels (first %d of %d):" % (min(limit, len(wrong)), len(wrong)))
    for label, s in wrong[:limit]:
        feats = ", ".join("%s %+.2f" % (f["name"], f["weight"]) for f in s["features"][:6])
        print("- [%s, claim=%s, score %.2f] %s\n    %s" % (label, s["claim"], s["score"], s["sentence"][:200], feats))


def print_traj(binary, shared, rules, work):
    """Our hand labels of a Gemini agent's SWE-bench messages: a real-text
    style agent_turns barely holds, never fitted on (fit_scorer.py
    --with-traj would fit on the development labels). The development
    labels were looked at while designing rules; the held-out ones were set
    after and never looked at, so they measure like a validation split.
    The second sample also drew sentences the scorer did not weigh when it
    was drawn: they print apart, since they were drawn at another rate."""
    for title, path, _ in traj_data.LABEL_FILES:
        if not os.path.isfile(path):
            continue
        rows, unmatched = traj_data.load(shared, binary, work, rules, labels_path=path)
        if rows is None:
            print("\nagent_traj: SKIP, %s not found" % traj_data.trajectories_path(shared))
            return
        strata = traj_data.load_strata(path)
        tallies = collections.defaultdict(Tally)
        for case_id, sentences in rows:
            for sentence, label in sentences:
                key = (case_id, traj_data.sentence_key(sentence["sentence"]))
                tallies[strata.get(key, "weighed")].add_sentence(sentence, label)
        print("\nagent_traj (Gemini 3 Pro on SWE-bench, each message read as a final one; %s, never fitted on%s):"
              % (title, ", %d labels not found" % unmatched if unmatched else ""))
        for stratum in ("weighed", "unweighed"):
            t = tallies.get(stratum)
            if t is None:
                continue
            p, r = prf(t.s["tp"], t.s["fp"], t.s["fn"])
            rp, rr = prf(t.r["tp"], t.r["fp"], t.r["fn"])
            bp, br = prf(t.b["tp"], t.b["fp"], t.b["fn"])
            print("  %d sentences %s when sampled:" % (sum(t.by_class.values()), stratum))
            print("    scorer P %.2f R %.2f (tp %d, fp %d, fn %d) | packs alone P %.2f R %.2f"
                  " | one-regex baseline P %.2f R %.2f" % (p, r, t.s["tp"], t.s["fp"], t.s["fn"], rp, rr, bp, br))
            print("    false claims per class: " + ", ".join(
                "%s %s" % (c, ratio(t.claimed_by_class[c], t.by_class[c])) for c in data.CLASSES
                if c != "claim" and t.by_class[c]))


def report(binary, shared, rules=None, work=None, errors=0, traj_errors=0):
    """Prints every figure; work None: a temporary scratch folder."""
    with tempfile.TemporaryDirectory() as tmp:
        work = work or tmp
        os.makedirs(work, exist_ok=True)
        tallies, wrong = collect(binary, shared, rules, work)
        keys = ["en", "zh"] + data.FOLDERS
        print_turns(tallies, keys)
        print_sentences(tallies, keys)
        print_traj(binary, shared, rules, work)
        if traj_errors:
            print_traj_errors(binary, shared, rules, work, traj_errors)
    if errors:
        print_wrong(wrong, errors)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "causegate"))
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(REPO), "shared"))
    ap.add_argument("--work", help="scratch folder for the rendered sessions (default: a temporary one)")
    ap.add_argument("--rules", help="extra pack folder, as --rules")
    ap.add_argument("--errors", type=int, default=0, help="list up to N wrong train turns")
    ap.add_argument("--traj-errors", type=int, default=0,
                    help="list up to N wrong sentences of the agent_traj development labels")
    args = ap.parse_args()
    if not os.path.isdir(data.corpus_root(args.shared)):
        print("SKIP: %s not found (the corpora live beside the project)" % data.corpus_root(args.shared))
        return 77
    report(args.bin, args.shared, args.rules, args.work, args.errors, args.traj_errors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
