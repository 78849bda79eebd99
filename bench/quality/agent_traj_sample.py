#!/usr/bin/env python3
"""Draw a new sample of agent_traj sentences to label by hand.

    python3 bench/quality/agent_traj_sample.py --bin build/causegate \
        --seed 20261207 --weighed 300 --unweighed 150 --out /tmp/traj_sample.jsonl

Every assistant message of ../shared/corpora/agent_traj is judged as a
final message (agent_traj_data.py), and the sample is drawn uniformly
from the sentences no label file names yet, in two strata: sentences the
scorer weighs (they carry a claim cue, form or place) and the rest. The
earlier label files sampled weighed sentences only, so a claim the packs
carry no cue for could never be counted as missed; the second stratum
measures that. The output (outside the repository: it holds the corpus's
text) gives each sentence with its message and the task, for a labeller;
the label file written from it keeps only case ids and sentence keys.
"""
import argparse
import json
import os
import random
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import agent_traj_data as traj  # noqa: E402
import agent_turns_data as data  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))


def labelled_keys(paths):
    """Every (case id, sentence key) the label files name, ambiguous ones
    too: a sentence labelled once is not drawn again."""
    return {(cols[0], cols[1]) for path in paths for cols in traj.label_rows(path)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(REPO), "shared"))
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--weighed", type=int, default=300)
    ap.add_argument("--unweighed", type=int, default=150)
    ap.add_argument("--labels", nargs="*",
                    default=[path for _, path, _ in traj.LABEL_FILES if os.path.isfile(path)],
                    help="label files whose sentences are not drawn again (default: every one there is)")
    ap.add_argument("--work", default=None, help="scratch folder (default: a new temporary one)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    if not os.path.isfile(traj.trajectories_path(args.shared)):
        print("SKIP: no %s" % traj.trajectories_path(args.shared))
        return 77
    work = args.work or tempfile.mkdtemp(prefix="causegate-traj-sample-")
    case_dir = os.path.join(work, "cases")
    traj.write_cases(args.shared, case_dir)
    rendered = data.render(args.shared, case_dir, os.path.join(work, "rendered"))
    judged = data.judge(args.bin, rendered, os.path.join(work, "units.jsonl"))
    taken = labelled_keys(args.labels)
    strata = {"weighed": [], "unweighed": []}
    seen = set()
    for case_id in sorted(judged):
        for s in judged[case_id].get("sentences", []):
            key = (case_id, traj.sentence_key(s["sentence"]))
            if key in taken or key in seen:
                continue
            seen.add(key)
            strata["weighed" if s.get("features") else "unweighed"].append((key, s["sentence"]))
    rng = random.Random(args.seed)
    cases = {}
    with open(args.out, "w", encoding="utf-8") as out:
        for name, want in (("weighed", args.weighed), ("unweighed", args.unweighed)):
            pool = strata[name]
            for (case_id, key), sentence in rng.sample(pool, min(want, len(pool))):
                if case_id not in cases:
                    with open(os.path.join(case_dir, case_id + ".json"), encoding="utf-8") as f:
                        cases[case_id] = json.load(f)
                case = cases[case_id]
                out.write(json.dumps({"case": case_id, "key": key, "stratum": name, "sentence": sentence,
                                      "message": case["final"], "task": case["prompt"][:1500]},
                                     ensure_ascii=False) + "\n")
            print("%s: %d drawn of %d" % (name, min(want, len(pool)), len(pool)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
