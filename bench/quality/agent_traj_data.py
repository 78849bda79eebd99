"""A Gemini agent's SWE-bench trajectories as the gate reads them, with our
own sentence labels.

../shared/corpora/agent_traj/trajectories_sample200.jsonl holds 200
mini-swe-agent runs of Gemini 3 Pro on SWE-bench Verified, unlabelled. Each
assistant message after the first command is read as if it were a final
message: the task (the issue text) is the prompt, the commands of the
messages before it, with the output each got, are the turn's tool calls.
Their prose is real agent text of a style agent_turns barely holds (terse
"THOUGHT:" reasoning over code, in a bug-fixing task), and
bench/quality/agent_traj_labels.tsv labels a random sample of the
sentences the scorer weighs there, by hand and by the spec. The corpus is
read in place and never copied; the labels name sentences by a hash.

Shared by fit_scorer.py (train rows) and agent_turns.py (the figure).
"""
import hashlib
import json
import os
import re

import agent_turns_data as data

HERE = os.path.dirname(os.path.abspath(__file__))
# The development labels (looked at while designing rules) and the
# held-out ones (labelled after, never looked at while designing).
LABELS = os.path.join(HERE, "agent_traj_labels.tsv")
HELDOUT_LABELS = os.path.join(HERE, "agent_traj_heldout_labels.tsv")
# The second sample (agent_traj_sample.py, seed 20261207), drawn from the
# sentences the scorer weighs and from the rest, labelled by a helper
# session that never saw the gate's output, and split in two by run
# (sample2_half): the development half is read while designing, the
# held-out half never.
SAMPLE2_DEV_LABELS = os.path.join(HERE, "agent_traj_sample2_dev_labels.tsv")
SAMPLE2_HELDOUT_LABELS = os.path.join(HERE, "agent_traj_sample2_heldout_labels.tsv")
# A third sample (seed 20261208) of sentences the scorer did not weigh
# only, to size the claims no rule reaches; labelled blind like the second
# and read (development).
SAMPLE3_LABELS = os.path.join(HERE, "agent_traj_sample3_unweighed_labels.tsv")
# (title, path, development?): every label file, in the order figures print.
LABEL_FILES = (
    ("development labels, looked at while designing", LABELS, True),
    ("held-out labels, never looked at while designing", HELDOUT_LABELS, False),
    ("second sample, development half, read while designing", SAMPLE2_DEV_LABELS, True),
    ("second sample, held-out half, never read", SAMPLE2_HELDOUT_LABELS, False),
    ("third sample, unweighed sentences only, read", SAMPLE3_LABELS, True),
)


def sample2_half(case_id):
    """'dev' or 'heldout' for a message of the second sample: by the SHA-1
    of its run's instance id, so a run's messages stay in one half."""
    instance = case_id[len("traj-"):].rsplit("-m", 1)[0]
    return "dev" if int(hashlib.sha1(instance.encode("utf-8")).hexdigest()[0], 16) % 2 == 0 else "heldout"
# The command block of a mini-swe-agent message, and how much of the calls
# before a message a case keeps: as many as the look-up would read in a
# long turn, and each output as long as the corpus keeps it.
_BASH = re.compile(r"```bash\n(.*?)```", re.S)
MAX_STEPS = 12
MAX_OUTPUT = 6000
MAX_PROMPT = 4000


def trajectories_path(shared):
    return os.path.join(shared, "corpora", "agent_traj", "trajectories_sample200.jsonl")


def sentence_key(text):
    return hashlib.sha1(data.norm(text).encode("utf-8")).hexdigest()[:16]


def repo_of(case_id):
    """traj-django__django-11603-m021 -> django: runs are held out by project."""
    return "traj/" + case_id[len("traj-"):].split("__", 1)[0]


def label_rows(path):
    """Each label line's columns: case id, sentence key, label, and in the
    second sample the stratum it was drawn from."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                yield line.rstrip("\n").split("\t")


def load_labels(path=LABELS):
    """{(case id, sentence key): label}; 'ambiguous' rows are left out."""
    return {(cols[0], cols[1]): cols[2] for cols in label_rows(path) if cols[2] != "ambiguous"}


def load_strata(path):
    """{(case id, sentence key): 'weighed' | 'unweighed'}: which stratum of
    agent_traj_sample.py a label was drawn from (empty for the first two
    files, which sampled weighed sentences only)."""
    return {(cols[0], cols[1]): cols[3] for cols in label_rows(path) if len(cols) > 3}


def write_cases(shared, case_dir, wanted=None):
    """One case per labelled message (ids in wanted; None: every message
    after the first command), in the case format of ../shared/spec/cases.md,
    for casegen."""
    os.makedirs(case_dir, exist_ok=True)
    with open(trajectories_path(shared), encoding="utf-8") as f:
        for line in f:
            run = json.loads(line)
            messages = run["messages"]
            task = next((m["content"] for m in messages if m["role"] == "task"), "")
            steps = []
            for i, m in enumerate(messages):
                if m["role"] != "assistant":
                    continue
                text = m.get("content", "")
                case_id = "traj-%s-m%03d" % (run["instance_id"], i)
                if (wanted is None or case_id in wanted) and steps:
                    case = {"id": case_id, "lang": "en", "label": "allow", "finding": None, "why": "agent_traj",
                            "event": "Stop", "stop_hook_active": False, "prompt": task[:MAX_PROMPT],
                            "steps": steps[-MAX_STEPS:], "final": text}
                    with open(os.path.join(case_dir, case_id + ".json"), "w", encoding="utf-8") as out:
                        json.dump(case, out, ensure_ascii=False)
                commands = _BASH.findall(text)
                if commands:
                    reply = messages[i + 1] if i + 1 < len(messages) else {}
                    output = reply.get("content", "") if reply.get("role") == "user" else ""
                    steps.append({"tool": "Bash", "input": {"command": commands[0]}, "output": output[:MAX_OUTPUT],
                                  "is_error": False})


def load(shared, binary, work, rules_dir=None, labels_path=LABELS):
    """[(case id, [(gate sentence, label)])] for the labelled sentences, and
    how many labels found no sentence (the splitter moved): None when the
    corpus is absent."""
    if not os.path.isfile(trajectories_path(shared)):
        return None, 0
    labels = load_labels(labels_path)
    wanted = {case_id for case_id, _ in labels}
    # One scratch folder per label file: render() renders a folder once.
    name = os.path.splitext(os.path.basename(labels_path))[0].replace("_labels", "")
    case_dir = os.path.join(work, name + "_cases")
    write_cases(shared, case_dir, wanted)
    rendered = data.render(shared, case_dir, os.path.join(work, name))
    units = os.path.join(work, name + ".units.jsonl")
    judged = data.judge(binary, rendered, units, rules_dir)
    rows, matched = [], set()
    for case_id in sorted(wanted):
        j = judged.get(case_id)
        labelled = []
        for s in (j["sentences"] if j else []):
            key = (case_id, sentence_key(s["sentence"]))
            if key in labels:
                labelled.append((s, labels[key]))
                matched.add(key)
        rows.append((case_id, labelled))
    return rows, len(labels) - len(matched)
