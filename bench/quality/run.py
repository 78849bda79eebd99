#!/usr/bin/env python3
"""Quality benchmark of the rule packs on outside corpora (rules/QUALITY.md).

    python3 bench/quality/run.py --bin build/causegate

Reads ../shared/corpora/*.dev.jsonl in place (never copies them), runs every
text through `causegate classify` once, and prints per file and source:
precision / recall / F1 of `causal` (labels causal and hedged are positive,
not-causal negative) or of `hedged` (hedge vs no-hedge), the naive one-regex
baseline on the same rows and the gain over it, the targets of issue #3, and
on Yu et al. how `claim` separates direct causal (claim expected) from
conditional causal (no claim expected). Then the false-block rate on real
agent final messages (agent_traj/final_messages.jsonl), judged through
`causegate hook` as turns whose prompt asks for no diagnosis, and the
figures on real agent turns (agent_turns: turn and sentence level, train
and validation, with the one-regex baseline; bench/quality/agent_turns.py),
and on our own written turns (bench/quality/written_sets.py).

Not part of `make test`: it prints figures, it does not pass or fail (exit 0;
77 when ../shared/corpora is absent; 2 on a usage or run error).
--errors N prints up to N misclassified rows per file and source to the
terminal, for working on the packs (never paste them into a pack).
"""
import argparse
import collections
import json
import os
import re
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import agent_turns  # noqa: E402
import written_sets  # noqa: E402
from baseline import BASELINE_CAUSAL, BASELINE_HEDGE  # noqa: E402

# Targets of issue #3: (file, source prefix, metric) -> (figure, minimum).
TARGETS = {
    ("causal_en.dev.jsonl", "yu2019", "causal"): ("F1", 0.50),
    ("causal_en.dev.jsonl", "cnc_v2", "causal"): ("F1", 0.50),
    ("causal_zh.dev.jsonl", "gcdt", "causal"): ("F1", 0.45),
    ("causal_zh.dev.jsonl", "ccks2021", "causal"): ("R", 0.85),
    ("hedge_en.dev.jsonl", "wikiweasel", "hedged"): ("F1", 0.55),
    ("hedge_en.dev.jsonl", "pei2021", "hedged"): ("F1", 0.88),
}
YU_TARGET = 0.80
FALSE_BLOCK_TARGET = 0.01

# Turns built around the agent final messages: a prompt that asks for no
# diagnosis (the design target), and, for information, one that does.
# Rule ids name their kind (rules/FORMAT.md): these kinds keep a sentence
# from being a claim.
EXEMPT_KIND = re.compile(r"\.(?:hedge|question|conditional|negation|uncertainty|rationale)\.")

PLAIN_PROMPT = "Implement the change requested in the task description and submit the patch."
DIAGNOSTIC_PROMPT = "Why does this test fail? Investigate and fix it."


class Counts:
    def __init__(self):
        self.tp = self.fp = self.fn = self.tn = 0

    def add(self, gold, pred):
        if gold:
            self.tp += pred
            self.fn += not pred
        else:
            self.fp += pred
            self.tn += not pred

    def p(self):
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else float("nan")

    def r(self):
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else float("nan")

    def f1(self):
        p, r = self.p(), self.r()
        return 2 * p * r / (p + r) if p == p and r == r and p + r > 0 else float("nan")

    def get(self, name):
        return {"P": self.p(), "R": self.r(), "F1": self.f1()}[name]


def fmt(x):
    return "  -  " if x != x else "%.3f" % x


def unwrap(text):
    """The text without one pair of straight double quotes around all of it.
    Some upstream files are CSV exports that keep the field's quotes; read as
    Markdown prose such a sentence is a quotation (reported speech, never a
    claim), which is right for an agent's message and wrong for a corpus row."""
    t = text.strip()
    if len(t) > 2 and t[0] == '"' and t[-1] == '"' and '"' not in t[1:-1]:
        return t[1:-1].strip()
    return text


def classify(binary, rows, rules_dir):
    """{id: answer} for rows, through one `causegate classify` process."""
    cmd = [binary] + (["--rules", rules_dir] if rules_dir else []) + ["classify"]
    payload = "".join(json.dumps({"id": r["id"], "text": unwrap(r["text"]), "lang": r["lang"]},
                                 ensure_ascii=False) + "\n" for r in rows).encode("utf-8")
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    p = subprocess.run(cmd, input=payload, capture_output=True)
    elapsed = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - cpu0
    if p.returncode != 0:
        sys.exit("classify failed (exit %d): %s" % (p.returncode, p.stderr.decode()[:500]))
    out = {}
    for line in p.stdout.decode("utf-8").splitlines():
        answer = json.loads(line)
        if "error" in answer:
            sys.exit("classify answered an error: %s" % line[:300])
        out[answer["id"]] = answer
    if len(out) != len(rows):
        sys.exit("classify answered %d of %d rows" % (len(out), len(rows)))
    return out, elapsed


def source_key(source):
    return source.split("/")[0]


def bench_file(path, binary, rules_dir, show_errors):
    name = os.path.basename(path)
    rows = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    answers, elapsed = classify(binary, rows, rules_dir)
    hedge_file = any(r["label"] in ("hedge", "no-hedge") for r in rows)
    metric = "hedged" if hedge_file else "causal"
    base_rx = BASELINE_HEDGE if hedge_file else BASELINE_CAUSAL
    by_source = collections.OrderedDict()
    yu = {"direct": [0, 0], "conditional": [0, 0]}          # [claim true, total]
    yu_spec = [0, 0]  # direct rows the spec itself keeps from being claims; of the rest, claims
    yu_base = {"direct": [0, 0], "conditional": [0, 0]}
    misses = collections.defaultdict(list)
    for r in rows:
        src = source_key(r["source"])
        ours, base = by_source.setdefault(src, (Counts(), Counts()))
        a = answers[r["id"]]
        gold = r["label"] in (("hedge",) if hedge_file else ("causal", "hedged"))
        pred = a[metric]
        ours.add(gold, pred)
        base.add(gold, bool(base_rx.search(r["text"])))
        if pred != gold and len(misses[src]) < show_errors:
            misses[src].append(("FN" if gold else "FP", a["rules"], r["text"]))
        if src == "yu2019" and r["label"] in ("causal", "hedged"):
            kind = "direct" if r["label"] == "causal" else "conditional"
            yu[kind][0] += a["claim"]
            yu[kind][1] += 1
            if kind == "direct":
                if any(EXEMPT_KIND.search(rule) for rule in a["rules"]):
                    yu_spec[0] += 1
                else:
                    yu_spec[1] += a["claim"]
            yu_base[kind][0] += bool(BASELINE_CAUSAL.search(r["text"])) and not BASELINE_HEDGE.search(r["text"])
            yu_base[kind][1] += 1
    lang = rows[0]["lang"] if rows else "?"
    return name, lang, metric, by_source, (yu, yu_spec), yu_base, misses, len(rows), elapsed


def transcript(prompt, observation, final):
    """A minimal Claude Code session: the prompt, one Bash call with the
    observation the agent saw last as its output, the final message."""
    lines = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": prompt}},
        {"type": "assistant", "uuid": "a1", "message": {"id": "m1", "role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "run the last step"}}]}},
        {"type": "user", "uuid": "u2", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": observation}]}},
        {"type": "assistant", "uuid": "a2", "message": {"id": "m2", "role": "assistant", "content": [
            {"type": "text", "text": final}]}},
    ]
    return "".join(json.dumps(l, ensure_ascii=False) + "\n" for l in lines)


def write_sessions(work, prompt, rows):
    """Each row's final message as the last turn of a session that follows
    `prompt`, rendered in work as eval reads a case folder (labelled allow;
    key m0000, m0001, ...)."""
    labels = []
    for i, r in enumerate(rows):
        key = "m%04d" % i
        os.makedirs(os.path.join(work, key))
        path = os.path.join(work, key, "transcript.jsonl")
        final = r["final_assistant_message"]
        with open(path, "w", encoding="utf-8") as f:
            f.write(transcript(prompt, r.get("observation_before_final", ""), final))
        with open(os.path.join(work, key, "payload.json"), "w", encoding="utf-8") as f:
            json.dump({"session_id": key, "hook_event_name": "Stop", "stop_hook_active": False,
                       "transcript_path": path, "last_assistant_message": final}, f)
        labels.append({"id": key, "lang": "en", "label": "allow", "finding": None})
    with open(os.path.join(work, "labels.jsonl"), "w", encoding="utf-8") as f:
        f.write("".join(json.dumps(l) + "\n" for l in labels))


def blocked_ids(binary, rules_dir, work, prompt, rows):
    """Ids of the messages the gate blocks when each is the final message of a
    turn that follows `prompt`, judged by `causegate eval` (the hook's own
    RunGate, one process for all turns) over turns rendered in work."""
    write_sessions(work, prompt, rows)
    cmd = [binary] + (["--rules", rules_dir] if rules_dir else []) + ["eval", work]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0 or "cases: %d," % len(rows) not in p.stdout:
        sys.exit("eval failed (exit %d): %s" % (p.returncode, (p.stderr or p.stdout)[:500]))
    blocked = set()
    for line in p.stdout.splitlines():
        m = re.match(r"^  (m\d{4}): expected allow, got block", line)
        if m:
            blocked.add(int(m.group(1)[1:]))
    return sorted(blocked)


def bench_agent_messages(path, binary, rules_dir):
    rows = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    out = {}
    for label, prompt in (("plain", PLAIN_PROMPT), ("diagnostic", DIAGNOSTIC_PROMPT)):
        with tempfile.TemporaryDirectory(prefix="causegate-quality-") as work:
            out[label] = blocked_ids(binary, rules_dir, work, prompt, rows)
    return len(rows), out["plain"], out["diagnostic"], rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "causegate"), help="the causegate binary")
    ap.add_argument("--corpora", default=os.path.join(REPO, "..", "shared", "corpora"))
    ap.add_argument("--rules", default="", help="extra rule packs, as `causegate --rules`")
    ap.add_argument("--errors", type=int, default=0, metavar="N", help="print up to N misclassified rows per source")
    ap.add_argument("--no-agent", action="store_true",
                    help="skip the runs on agent text (agent_traj false blocks, agent_turns figures)")
    args = ap.parse_args()

    files = sorted(f for f in os.listdir(args.corpora) if f.endswith(".dev.jsonl")) \
        if os.path.isdir(args.corpora) else []
    if not files:
        print("SKIP: no corpora at %s (they live beside the project, never in it)" % args.corpora)
        return 77
    if not os.access(args.bin, os.X_OK):
        print("no causegate binary at %s (build it, or pass --bin)" % args.bin, file=sys.stderr)
        return 2

    header = "%-20s %-11s %-4s %-7s %5s | %5s %5s %5s | %5s %5s %5s | %7s | %s" % (
        "file", "source", "lang", "metric", "rows", "P", "R", "F1", "base P", "R", "F1", "gain F1", "target")
    print(header)
    print("-" * len(header))
    total_rows, total_s = 0, 0.0
    yu_lines, miss_lines = [], []
    for f in files:
        name, lang, metric, by_source, (yu, yu_spec), yu_base, misses, n, elapsed = bench_file(
            os.path.join(args.corpora, f), args.bin, args.rules, args.errors)
        total_rows += n
        total_s += elapsed
        for src, (ours, base) in by_source.items():
            target = TARGETS.get((name, src, metric))
            verdict = ""
            if target:
                figure, minimum = target
                value = ours.get(figure)
                verdict = "%s >= %.2f %s" % (figure, minimum, "met" if value >= minimum else "MISSED")
            positive_only = ours.fp + ours.tn == 0
            gain = (ours.r() - base.r()) if positive_only else (ours.f1() - base.f1())
            print("%-20s %-11s %-4s %-7s %5d | %5s %5s %5s | %5s %5s %5s | %+7.3f%s | %s" % (
                name, src, lang, metric, ours.tp + ours.fp + ours.fn + ours.tn,
                fmt(ours.p()), fmt(ours.r()), fmt(ours.f1()), fmt(base.p()), fmt(base.r()), fmt(base.f1()),
                gain, "R" if positive_only else " ", verdict))
            for kind, labels, text in misses.get(src, []):
                miss_lines.append("%s %s %s [%s]\n    %s" % (name, src, kind, ",".join(labels), text[:300]))
        if yu["direct"][1]:
            for kind, want in (("direct", True), ("conditional", False)):
                claim, total = yu[kind]
                share = (claim if want else total - claim) / total
                bclaim = yu_base[kind][0]
                bshare = (bclaim if want else total - bclaim) / total
                yu_lines.append("  %-11s %4d rows: claim=%-5s on %5.1f%% (baseline %5.1f%%)  target >= %d%% %s" % (
                    kind, total, str(want).lower(), 100 * share, 100 * bshare, 100 * YU_TARGET,
                    "met" if share >= YU_TARGET else "MISSED"))
            total = yu["direct"][1]
            yu_lines.append("  direct rows a hedge or exemption rule marks (no claim under spec/judgement.md): %d (%.1f%%);"
                            "\n    claim=true on %.1f%% of the other %d" % (
                                yu_spec[0], 100 * yu_spec[0] / total,
                                100 * yu_spec[1] / max(1, total - yu_spec[0]), total - yu_spec[0]))
    print("\nYu et al. (yu2019): claim on direct causal (label causal) vs conditional causal (label hedged)")
    print("\n".join(yu_lines))
    print("  (baseline: a claim when the causal regex matches and the hedge regex does not)")
    print("\nclassify throughput: %d rows in %.2f s of CPU = %.0f rows/s (one process per file, start-up included)" % (
        total_rows, total_s, total_rows / total_s if total_s else 0))

    agent = os.path.join(args.corpora, "agent_traj", "final_messages.jsonl")
    if not args.no_agent and os.path.isfile(agent):
        n, plain, diag, rows = bench_agent_messages(agent, args.bin, args.rules)
        rate = len(plain) / n
        print("\nfalse blocks on agent final messages (agent_traj/final_messages.jsonl, %d messages, "
              "each judged as a turn by the hook's gate through `causegate eval`):" % n)
        print("  prompt asks no diagnosis: %3d blocked = %5.2f%%  target <= %.0f%% %s" % (
            len(plain), 100 * rate, 100 * FALSE_BLOCK_TARGET, "met" if rate <= FALSE_BLOCK_TARGET else "MISSED"))
        print("  prompt asks why a test fails (information, not a target): %d blocked = %.2f%%" % (
            len(diag), 100 * len(diag) / n))
        for i in (plain + [d for d in diag if d not in plain])[:args.errors]:
            miss_lines.append("agent_traj BLOCK (%s prompt) %s\n    %s" % (
                "plain" if i in plain else "diagnostic", rows[i]["instance_id"], rows[i]["final_assistant_message"][:600].replace("\n", " | ")))
    if not args.no_agent:
        print("\nreal agent turns (agent_turns, bench/quality/agent_turns.py):")
        agent_turns.report(args.bin, os.path.dirname(os.path.abspath(args.corpora)), args.rules or None)
        print("\nour written turns (bench/quality/written_sets.py):")
        written_sets.report(args.bin, os.path.dirname(os.path.abspath(args.corpora)))
    if miss_lines:
        print("\nmisclassified rows (for working on the packs; never paste them into a pack):")
        print("\n".join(miss_lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
