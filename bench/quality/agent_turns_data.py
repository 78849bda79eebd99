"""Real agent turns (../shared/corpora/agent_turns) as the gate reads them.

Shared by bench/quality/agent_turns.py (the figures) and
bench/quality/fit_scorer.py (the fit): renders each folder's cases with
../shared/tools/casegen.py, judges them with `causegate eval --units`, and
pairs every sentence the gate read with the sentence label a person set
(sentences.jsonl). The corpora are read in place and never copied into the
project; the rendered sessions live in a scratch folder.
"""
import json
import os
import re
import subprocess
import sys

import written_sets  # bench/quality is not a package; its scripts run from here

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDERS = ["public_en", "claude_code_nb", "public_zh", "public_zh2"]
CLASSES = ["claim", "hedged", "negated", "question", "conditional", "uncertainty", "rationale",
           "explanation", "reported", "observation", "other"]

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_NOT_WORD = re.compile(r"[^0-9a-z\u3400-\u4dbf\u4e00-\u9fff]+")


def norm(text):
    """Letters, digits and Han only, lower case: the gate drops markup the
    labeller kept (backticks, emphasis), and the two split differently."""
    return _NOT_WORD.sub("", text.lower())


def min_len(key):
    """Shorter keys match too much by containment: 4 letters, or 2 Han
    characters (a Chinese table cell is often two)."""
    return 2 if _HAN.search(key) else 4


def corpus_root(shared):
    return os.path.join(shared, "corpora", "agent_turns")


def load_cases(case_dir):
    """{id: case} of every case file in case_dir."""
    cases = {}
    for name in sorted(os.listdir(case_dir)):
        if name.endswith(".json"):
            with open(os.path.join(case_dir, name), encoding="utf-8") as f:
                case = json.load(f)
            cases[case["id"]] = case
    return cases


def load_sentence_labels(folder_dir):
    by_case = {}
    with open(os.path.join(folder_dir, "sentences.jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                by_case.setdefault(row["case_id"], []).append(row)
    return by_case


def render(shared, case_dir, out_dir):
    """casegen --all, once per scratch folder (the cases do not change)."""
    labels = os.path.join(out_dir, "labels.jsonl")
    if not os.path.isfile(labels):
        casegen = os.path.join(shared, "tools", "casegen.py")
        subprocess.run([sys.executable, casegen, "--all", case_dir, out_dir], check=True, stdout=subprocess.DEVNULL)
    return out_dir


def judge(binary, rendered_dir, units_path, rules_dir=None, weights=None):
    """causegate eval --units: every case's decision and sentence features
    (with weights, as a cross-validation fold judges)."""
    cmd = [binary]
    if rules_dir:
        cmd += ["--rules", rules_dir]
    cmd += ["eval", rendered_dir, "--units", units_path]
    if weights:
        cmd += ["--weights", weights]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    judged = {}
    with open(units_path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                judged[row["id"]] = row
    return judged


def align(gate_sentences, labelled):
    """Each gate sentence gets the label of the labelled sentence(s) it
    overlaps: claim when any overlapping one is a claim, else the label of
    the longest overlap; None when nothing overlaps (the gate and the
    labeller read a different text there)."""
    keyed = [(norm(row["sentence"]), row["label"]) for row in labelled]
    out = []
    for g in gate_sentences:
        key = norm(g["sentence"])
        if len(key) < min_len(key):
            out.append(None)
            continue
        best, best_len, claim = None, 0, False
        for text, label in keyed:
            if len(text) < min_len(text):
                continue
            if key in text or text in key:
                overlap = min(len(key), len(text))
                claim = claim or label == "claim"
                if overlap > best_len:
                    best, best_len = label, overlap
        out.append("claim" if claim else best)
    return out


def load_folder(shared, folder, binary, work, rules_dir=None):
    """[(case, judged row or None, [(gate sentence, label or None)])]."""
    folder_dir = os.path.join(corpus_root(shared), folder)
    cases = load_cases(os.path.join(folder_dir, "cases"))
    labels = load_sentence_labels(folder_dir)
    rendered = render(shared, os.path.join(folder_dir, "cases"), os.path.join(work, folder))
    judged = judge(binary, rendered, os.path.join(work, folder + ".units.jsonl"), rules_dir)
    rows = []
    for case_id, case in cases.items():
        j = judged.get(case_id)
        sentences = j["sentences"] if j else []
        rows.append((case, j, list(zip(sentences, align(sentences, labels.get(case_id, []))))))
    return rows


def lang_of(folder):
    return "zh" if folder.startswith("public_zh") else "en"


def load_dev_cases(shared, binary, work):
    """../shared/cases, the written development cases: [(case, judged row,
    [(gate sentence, label)])] where a sentence's label is the packs' own
    decision (rules_only), which agrees with every one of the cases' turn
    labels; the cases carry no sentence labels of their own."""
    case_dir = os.path.join(shared, "cases")
    rendered = render(shared, case_dir, os.path.join(work, "dev_cases"))
    judged = judge(binary, rendered, os.path.join(work, "dev_cases.units.jsonl"))
    rows = []
    for case_id, case in load_cases(case_dir).items():
        j = judged.get(case_id)
        sentences = j["sentences"] if j else []
        rows.append((case, j, [(s, "claim" if s.get("rules_only") else "other") for s in sentences]))
    return rows


SPEC_FORMS = os.path.join(HERE, "spec_forms.jsonl")


def load_spec_forms(shared, binary, work):
    """bench/quality/spec_forms.jsonl, our own sentences for the claim forms
    and exemptions of the spec (section 2), each in a one-probe diagnosis
    turn: [(case, judged row, [(gate sentence, label)])], a gate sentence
    labelled claim when it overlaps one of the message's listed claims.
    Written here, in the agent domain; they give the spec's forms examples
    that a few hundred real sentences cannot, so a form the real train
    split shows rarely is still learnt. Rendered through casegen like the
    corpora, so the features are the gate's own."""
    case_dir = os.path.join(work, "spec_forms_cases")
    os.makedirs(case_dir, exist_ok=True)
    messages = {}
    with open(SPEC_FORMS, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            m = json.loads(line)
            messages[m["id"]] = m
            case = {"id": m["id"], "lang": m["lang"], "label": "block" if m["claims"] else "allow",
                    "finding": "no-citation" if m["claims"] else None, "why": "spec form", "event": "Stop",
                    "stop_hook_active": False, "prompt": m["prompt"],
                    "steps": [{"tool": "Bash", "input": {"command": m["command"]}, "output": m["output"],
                               "is_error": False}],
                    "final": m["final"]}
            with open(os.path.join(case_dir, m["id"] + ".json"), "w", encoding="utf-8") as out:
                json.dump(case, out, ensure_ascii=False)
    rendered = render(shared, case_dir, os.path.join(work, "spec_forms"))
    judged = judge(binary, rendered, os.path.join(work, "spec_forms.units.jsonl"))
    rows = []
    for case_id, m in messages.items():
        j = judged.get(case_id)
        labelled = label_by_claims(j["sentences"] if j else [], m["claims"])
        rows.append(({"id": case_id, "label": "block" if m["claims"] else "allow"}, j, labelled))
    return rows


def label_by_claims(sentences, claims):
    """[(gate sentence, "claim" or "other")]: a claim when the sentence and
    one of the message's listed claim sentences hold one another."""
    claims = [norm(c) for c in claims]
    labelled = []
    for s in sentences:
        key = norm(s["sentence"])
        hit = len(key) >= min_len(key) and any(key in c or c in key for c in claims)
        labelled.append((s, "claim" if hit else "other"))
    return labelled


# Our written development sets (written_sets.SETS says which sets are
# development; a set moves there in that one place): those whose final
# messages carry claim labels (claims.jsonl: every claim sentence,
# supported or not, set by hand by the spec without looking at the gate)
# are read here. A held-out set's claims.jsonl is never read: it stays a
# measure.
WRITTEN_LABELLED = written_sets.DEVELOPMENT


def load_written(shared, binary, work):
    """The labelled written development sets: [(case, judged row, [(gate
    sentence, label)])]; a set without a claims.jsonl is skipped."""
    rows = []
    for name in WRITTEN_LABELLED:
        folder = os.path.join(HERE, name)
        labels_path = os.path.join(folder, "claims.jsonl")
        if not os.path.isfile(labels_path):
            continue
        with open(labels_path, encoding="utf-8") as f:
            claims = {m["id"]: m["claims"] for m in (json.loads(line) for line in f if line.strip())}
        cases = load_cases(folder)
        rendered = render(shared, folder, os.path.join(work, name))
        judged = judge(binary, rendered, os.path.join(work, name + ".units.jsonl"))
        for case_id, case in cases.items():
            if case_id not in claims:
                continue
            j = judged.get(case_id)
            rows.append((case, j, label_by_claims(j["sentences"] if j else [], claims[case_id])))
    return rows
