#!/usr/bin/env python3
"""End-to-end: /metrics as Prometheus reads it, from the daemon started as
examples/systemd/causegate.service starts it.

The unit file is checked by `systemd-analyze verify` (when systemd-analyze
is installed); its ExecStart is run (the binary under test in place of
/usr/local/bin/causegate, a port the system picks in place of 8787); hook
requests of several agents and several kinds of fail-open are sent; then
/metrics must pass `promtool check metrics` (when promtool is installed:
Debian's prometheus package) and, always, the strict parser of the text
exposition format 0.0.4 below, and hold the agent and decision labels,
fail-open counted by reason, causegate_build_info with the binary's version
and the process_* metrics with plausible values. ExecReload (SIGHUP) must
count a reload; the stop signal (KillSignal) must end the daemon with exit 0
within TimeoutStopSec.
"""
import argparse
import json
import math
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_util import Checks, Daemon, transcript  # noqa: E402

UNIT = os.path.join("examples", "systemd", "causegate.service")
INSTALLED = "/usr/local/bin/causegate"
METRIC_NAME = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$")
LABEL_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
TYPES = {"counter", "gauge", "histogram", "summary", "untyped"}


def parse_exposition(text):
    """Parses Prometheus text format 0.0.4 strictly. Returns (families,
    errors): families maps a name to {"type", "help", "samples": [(name,
    labels dict, value)]}; errors lists every rule broken, with its line."""
    errors, families, seen_series, order = [], {}, set(), []
    if text and not text.endswith("\n"):
        errors.append("the text does not end with a newline")

    def family_of(sample_name):
        for suffix in ("_bucket", "_sum", "_count"):
            base = sample_name[:-len(suffix)] if sample_name.endswith(suffix) else None
            if base and base in families and families[base]["type"] in ("histogram", "summary"):
                return base
        return sample_name

    for n, line in enumerate(text.split("\n")[:-1], 1):
        where = "line %d: " % n
        if line == "":
            errors.append(where + "empty line")
            continue
        if line.startswith("#"):
            parts = line.split(" ", 3)
            if len(parts) >= 3 and parts[1] in ("HELP", "TYPE"):
                name = parts[2]
                if not METRIC_NAME.match(name):
                    errors.append(where + "bad metric name %r" % name)
                fam = families.setdefault(name, {"type": None, "help": None, "samples": []})
                if name not in order:
                    order.append(name)
                if parts[1] == "TYPE":
                    kind = parts[3] if len(parts) == 4 else ""
                    if kind not in TYPES:
                        errors.append(where + "bad type %r" % kind)
                    if fam["type"] is not None:
                        errors.append(where + "second TYPE for %s" % name)
                    if fam["samples"]:
                        errors.append(where + "TYPE after samples of %s" % name)
                    fam["type"] = kind
                else:
                    if fam["help"] is not None:
                        errors.append(where + "second HELP for %s" % name)
                    fam["help"] = parts[3] if len(parts) == 4 else ""
            continue
        m = re.match(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)( -?\d+)?$", line)
        if not m:
            errors.append(where + "not a sample line: %r" % line)
            continue
        name, labels_text, value_text = m.group(1), m.group(3), m.group(4)
        labels = {}
        if labels_text:
            rest = labels_text
            while rest:
                lm = re.match(r'^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)', rest)
                if not lm:
                    errors.append(where + "bad labels %r" % labels_text)
                    break
                key = lm.group(1)
                if key in labels:
                    errors.append(where + "label %s twice" % key)
                labels[key] = lm.group(2).replace("\\n", "\n").replace('\\"', '"').replace("\\\\", "\\")
                rest = rest[lm.end():]
        try:
            value = float(value_text)
        except ValueError:
            if value_text not in ("+Inf", "-Inf", "NaN"):
                errors.append(where + "bad value %r" % value_text)
            value = float(value_text.replace("Inf", "inf")) if "Inf" in value_text else math.nan
        fam_name = family_of(name)
        if fam_name not in families or families[fam_name]["type"] is None:
            errors.append(where + "sample of %s before its TYPE" % name)
            families.setdefault(fam_name, {"type": None, "help": None, "samples": []})
        if order and order[-1] != fam_name:
            errors.append(where + "%s is not next to the rest of its family" % name)
        series = (name, tuple(sorted(labels.items())))
        if series in seen_series:
            errors.append(where + "series %s twice" % (series,))
        seen_series.add(series)
        families[fam_name]["samples"].append((name, labels, value))

    for name, fam in families.items():
        if fam["help"] is None:
            errors.append("%s: no HELP" % name)
        if fam["type"] == "counter":
            if not name.endswith("_total"):
                errors.append("%s: a counter's name ends in _total" % name)
            for _, _, v in fam["samples"]:
                if v < 0:
                    errors.append("%s: a counter below 0" % name)
        if fam["type"] == "histogram":
            groups = {}
            for sname, labels, v in fam["samples"]:
                key = tuple(sorted((k, x) for k, x in labels.items() if k != "le"))
                groups.setdefault(key, {"buckets": [], "count": None, "sum": None})
                if sname == name + "_bucket":
                    if "le" not in labels:
                        errors.append("%s: a bucket without le" % name)
                        continue
                    groups[key]["buckets"].append((float(labels["le"].replace("Inf", "inf")), v))
                elif sname == name + "_count":
                    groups[key]["count"] = v
                elif sname == name + "_sum":
                    groups[key]["sum"] = v
            for key, g in groups.items():
                bounds = [b for b, _ in g["buckets"]]
                counts = [c for _, c in g["buckets"]]
                if bounds != sorted(bounds) or not bounds or bounds[-1] != math.inf:
                    errors.append("%s: buckets not ascending to +Inf: %s" % (name, bounds))
                if counts != sorted(counts):
                    errors.append("%s: bucket counts not cumulative: %s" % (name, counts))
                if g["count"] is None or g["sum"] is None or (counts and counts[-1] != g["count"]):
                    errors.append("%s: _count and _sum must be there, +Inf equal to _count" % name)
    return families, errors


def value(families, name, **labels):
    fam = families.get(name, {"samples": []})
    for sname, l, v in fam["samples"]:
        if sname == name and l == labels:
            return v
    return None


def read_unit(path):
    """The [Service] keys of a unit file (a key given twice keeps the last)."""
    keys, section = {}, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if line.startswith("["):
                section = line.strip("[]")
                continue
            key, _, val = line.partition("=")
            keys[(section, key.strip())] = val.strip()
    return keys


def self_check_parser(c):
    """The parser refuses what Prometheus refuses (so a pass means something)."""
    good = "# HELP a_total x\n# TYPE a_total counter\na_total{k=\"v\\\"q\"} 1\n"
    c.check(parse_exposition(good)[1] == [], "parser: a good text passes: %s" % parse_exposition(good)[1])
    for bad in ["a_total 1\n",                                             # no TYPE
                "# HELP a x\n# TYPE a counter\na 1\n",                      # counter without _total
                "# HELP a x\n# TYPE a gauge\na{k=\"v} 1\n",                 # bad quoting
                "# HELP a x\n# TYPE a gauge\na 1\na 2\n",                   # a series twice
                "# HELP a x\n# TYPE a gauge\na one\n",                      # bad value
                "# HELP h x\n# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n",
                "# HELP a x\n# TYPE a gauge\na 1"]:                         # no final newline
        c.check(parse_exposition(bad)[1] != [], "parser: refuses %r" % bad)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    c = Checks()
    self_check_parser(c)

    unit_path = os.path.join(args.source, UNIT)
    unit = read_unit(unit_path)
    exec_start = shlex.split(unit[("Service", "ExecStart")])
    c.check(exec_start[:2] == [INSTALLED, "serve"], "ExecStart runs %s serve: %s" % (INSTALLED, exec_start))
    if shutil.which("systemd-analyze"):
        local = os.path.join(work, "causegate.service")
        with open(unit_path) as f:
            text = f.read().replace(INSTALLED, binary)
        with open(local, "w") as f:
            f.write(text)
        p = subprocess.run(["systemd-analyze", "verify", "--man=no", local], capture_output=True, text=True, timeout=60)
        c.check(p.returncode == 0 and p.stderr.strip() == "" and p.stdout.strip() == "",
                "systemd-analyze verify: %d %s %s" % (p.returncode, p.stdout, p.stderr))
    else:
        print("note: systemd-analyze not installed; the unit file is read here only")

    # ExecStart as systemd runs it, on a free port.
    argv = exec_start[2:]
    if "--listen" in argv:
        argv[argv.index("--listen") + 1] = "127.0.0.1:0"
    root = os.path.join(work, "root")
    argv += ["--root", root]
    started = time.time()
    # The gate's per-session state (the loop guard) in this run's own folder,
    # so an earlier run's blocks of the same session do not count.
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state"))
    d = Daemon(binary, work, argv, env=env, name="unit")
    try:
        blocked = transcript(os.path.join(root, "b.jsonl"), "The root cause is the disk filling up on the node.")
        d.request("POST", "/hook", blocked)
        codex = json.loads(blocked)
        codex.update(session_id="codex-session", turn_id="t1", model="gpt-5.2-codex", cwd=root, permission_mode="default",
                     last_assistant_message="The root cause is the disk filling up on the node.")
        d.request("POST", "/hook", json.dumps(codex))
        d.request("POST", "/hook", "not json")
        d.request("POST", "/hook", json.dumps({"session_id": "s", "hook_event_name": "Stop",
                                               "transcript_path": os.path.join(root, "missing.jsonl")}))
        d.request("POST", "/hook", json.dumps({"session_id": "s", "hook_event_name": "Stop",
                                               "transcript_path": "/etc/passwd"}))
        d.json("POST", "/v1/judge", {"agent": "gemini", "prompt": "why?", "final_message": "It is fine."})
        status, headers, body = d.request("GET", "/metrics")
        text = body.decode()
        c.check(status == 200 and headers.get("content-type", "").startswith("text/plain; version=0.0.4"),
                "content type: %s" % headers.get("content-type"))
        families, errors = parse_exposition(text)
        for e in errors:
            c.check(False, "exposition format: " + e)
        if shutil.which("promtool"):
            p = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True,
                               timeout=60)
            c.check(p.returncode == 0 and p.stdout.strip() == "" and p.stderr.strip() == "",
                    "promtool check metrics: %d %s %s" % (p.returncode, p.stdout, p.stderr))
        else:
            print("note: promtool not installed (Debian package prometheus); the strict parser alone checked")

        v = lambda name, **l: value(families, name, **l)  # noqa: E731
        c.check(v("causegate_verdicts_total", route="/hook", agent="claude-code", decision="block") == 1,
                "claude-code block counted with its agent\n" + text)
        c.check(v("causegate_verdicts_total", route="/hook", agent="codex", decision="block") == 1,
                "codex block counted with its agent")
        c.check(v("causegate_verdicts_total", route="/v1/judge", agent="gemini", decision="allow") == 1,
                "judge allow counted with the agent the client named")
        c.check(v("causegate_fail_open_total", route="/hook", reason="bad-input") == 1, "fail-open: bad input")
        c.check(v("causegate_fail_open_total", route="/hook", reason="outside-roots") == 1,
                "fail-open: a transcript outside the roots (/etc/passwd)")
        c.check(v("causegate_fail_open_total", route="/hook", reason="transcript") == 1,
                "fail-open: a transcript that is not there")
        version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.split()[-1]
        c.check(v("causegate_build_info", version=version) == 1, "build_info names version %s" % version)
        start = v("process_start_time_seconds")
        c.check(start is not None and abs(start - started) < 30, "process start time %s near %s" % (start, started))
        c.check((v("process_cpu_seconds_total") or -1) >= 0, "process cpu seconds")
        c.check((v("process_resident_memory_bytes") or 0) > 1 << 20, "resident memory over 1 MiB")
        c.check((v("process_open_fds") or 0) >= 3, "open fds")
        c.check((v("process_max_fds") or 0) >= (v("process_open_fds") or 0), "max fds")
        c.check(families.get("process_cpu_seconds_total", {}).get("type") == "counter", "cpu seconds is a counter")

        # ExecReload, with $MAINPID as systemd sets it.
        reload_cmd = shlex.split(unit[("Service", "ExecReload")].replace("$MAINPID", str(d.proc.pid)))
        subprocess.run(reload_cmd, check=True, timeout=10)
        deadline = time.time() + 10
        reloads = 0
        while time.time() < deadline:
            _, _, body = d.request("GET", "/metrics")
            reloads = value(parse_exposition(body.decode())[0], "causegate_reloads_total", result="ok") or 0
            if reloads >= 1:
                break
            time.sleep(0.1)
        c.check(reloads >= 1, "ExecReload reloads the packs (reloads ok: %s)" % reloads)
    finally:
        sig = getattr(signal, unit.get(("Service", "KillSignal"), "SIGTERM"))
        code = d.stop(sig, timeout=int(unit.get(("Service", "TimeoutStopSec"), "90")))
    c.check(code == 0, "KillSignal stops the daemon with exit 0 (got %s)" % code)
    return c.report("serve_metrics")


if __name__ == "__main__":
    sys.exit(main())
