#!/usr/bin/env python3
"""End-to-end: action.yml, examples/ci/github-workflow.yml and
examples/ci/kubernetes-indexed-job.yaml, run here as GitHub Actions and
Kubernetes would run them (no `act`, no network).

A small runner reads the YAML, evaluates the `${{ }}` expressions and `if:`
conditions of the subset the files use (inputs, steps.*.outputs, matrix,
env, vars, github, runner; ==, !=, &&, ||, !, always()), and runs each
`run:` step with bash as a runner does: GITHUB_OUTPUT, GITHUB_ENV,
GITHUB_PATH and GITHUB_STEP_SUMMARY set to files, RUNNER_TEMP,
GITHUB_WORKSPACE, GITHUB_ACTION_PATH and GITHUB_API_URL set, workflow
commands (::error ...) read from stdout. Steps that `uses:` another
action are not run but recorded with their evaluated inputs (actions/cache,
upload-sarif, artifacts); `uses: your-org/causegate@v1` is this action. The
code-scanning check asks a fake GitHub API on a loopback port, answering
403 as a private repository without Advanced Security does, or 200.

On the bundled examples (examples/transcripts) and a release tarball made
from the binaries under test, it checks: the summary on the run's page,
annotations, outputs, SARIF uploaded or the plain sentence why not, the
exit codes (0 clean, 1 flagged, 2 unreadable), the workflow's shard matrix
and merge job (equal to one full run), and the Kubernetes Indexed Job's
commands with JOB_COMPLETION_INDEX. Also runs .pre-commit-hooks.yaml's
entry as pre-commit would on staged transcript files.
"""
import argparse
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import threading

import yaml

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("  FAIL " + what)
    return cond


# ------------------------------------------------------------ expressions

TOKEN = re.compile(r"\s*(?:(\|\||&&|==|!=|!|\(|\))|'((?:[^']|'')*)'|([A-Za-z_][A-Za-z0-9_.\-*]*(?:\(\))?)|(-?\d+(?:\.\d+)?))")


def evaluate(expr, ctx):
    """Evaluates a GitHub expression of the subset above; values are strings."""
    tokens, pos = [], 0
    while pos < len(expr):
        m = TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            if expr[pos:].strip() == "":
                break
            raise ValueError("expression %r: cannot read at %r" % (expr, expr[pos:]))
        pos = m.end()
        if m.group(1):
            tokens.append(("op", m.group(1)))
        elif m.group(2) is not None:
            tokens.append(("lit", m.group(2).replace("''", "'")))
        elif m.group(3):
            tokens.append(("ref", m.group(3)))
        else:
            tokens.append(("lit", m.group(4)))
    i = [0]

    def peek():
        return tokens[i[0]] if i[0] < len(tokens) else (None, None)

    def primary():
        kind, v = peek()
        i[0] += 1
        if kind == "op" and v == "(":
            r = disjunction()
            i[0] += 1
            return r
        if kind == "op" and v == "!":
            return "" if truthy(primary()) else "true"
        if kind == "lit":
            return v
        if v in ("always()", "success()", "failure()", "cancelled()"):
            return {"always()": "true", "success()": "" if ctx["failed"] else "true",
                    "failure()": "true" if ctx["failed"] else "", "cancelled()": ""}[v]
        if v in ("true", "false"):
            return "true" if v == "true" else ""
        return lookup(v, ctx)

    def comparison():
        left = primary()
        kind, v = peek()
        if kind == "op" and v in ("==", "!="):
            i[0] += 1
            right = primary()
            same = str(left).lower() == str(right).lower()
            return "true" if same == (v == "==") else ""
        return left

    def conjunction():
        left = comparison()
        while peek() == ("op", "&&"):
            i[0] += 1
            right = comparison()
            left = right if truthy(left) else left
        return left

    def disjunction():
        left = conjunction()
        while peek() == ("op", "||"):
            i[0] += 1
            right = conjunction()
            left = left if truthy(left) else right
        return left

    return disjunction()


def truthy(v):
    return v not in ("", None, "false", "0")


def lookup(ref, ctx):
    parts = ref.split(".")
    if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
        return ctx["steps"].get(parts[1], {}).get(parts[3], "")
    if parts[0] in ("inputs", "matrix", "env", "vars", "github", "runner") and len(parts) == 2:
        return str(ctx.get(parts[0], {}).get(parts[1], ""))
    raise ValueError("expression: unknown reference %r" % ref)


def substitute(text, ctx):
    if not isinstance(text, str):
        return "" if text is None else str(text).lower() if isinstance(text, bool) else str(text)
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(evaluate(m.group(1), ctx)), text)


# ------------------------------------------------------------ the runner

def read_commands(text):
    """GitHub's workflow commands in a step's output: (command, properties, message)."""
    out = []
    for line in text.splitlines():
        m = re.match(r"^::([a-z-]+)( [^:]*)?::(.*)$", line)
        if m:
            props = dict(p.split("=", 1) for p in (m.group(2) or "").strip().split(",") if "=" in p)
            out.append((m.group(1), props, m.group(3)))
    return out


def read_key_values(path):
    out = {}
    if not os.path.exists(path):
        return out
    lines = open(path).read().splitlines()
    k = 0
    while k < len(lines):
        line = lines[k]
        if "<<" in line and "=" not in line.split("<<")[0]:
            key, marker = line.split("<<", 1)
            body = []
            k += 1
            while k < len(lines) and lines[k] != marker:
                body.append(lines[k])
                k += 1
            out[key] = "\n".join(body)
        elif "=" in line:
            key, value = line.split("=", 1)
            out[key] = value
        k += 1
    return out


class Runner:
    """One job: the environment a runner gives its steps."""

    def __init__(self, work, workspace, api_url, env=None):
        self.work = work
        self.temp = os.path.join(work, "runner-temp")
        shutil.rmtree(self.temp, ignore_errors=True)
        os.makedirs(self.temp)
        self.summary = os.path.join(work, "step-summary.md")
        open(self.summary, "w").close()
        self.workspace = workspace
        self.api_url = api_url
        self.env = dict(env or {})
        self.path = []
        self.commands = []
        self.used = []          # (uses, with) of steps not run here
        self.logs = []

    def base_env(self, action_path):
        env = dict(os.environ)
        env.update(self.env)
        env.update({
            "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": self.workspace,
            "GITHUB_REPOSITORY": "acme/agents", "GITHUB_API_URL": self.api_url, "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_RUN_ID": "1", "GITHUB_SHA": "0" * 40, "GITHUB_REF": "refs/heads/main", "GITHUB_EVENT_NAME": "push",
            "GITHUB_STEP_SUMMARY": self.summary, "RUNNER_TEMP": self.temp, "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64",
            "GITHUB_ACTION_PATH": action_path})
        if self.path:
            env["PATH"] = os.pathsep.join(reversed(self.path)) + os.pathsep + env["PATH"]
        return env

    def run_steps(self, steps, ctx, action_path):
        """Runs steps; returns the exit code of the first failing one (0: none)."""
        ctx.setdefault("steps", {})
        ctx["failed"] = False
        first_failure = 0
        for step in steps:
            cond = step.get("if")
            if cond is not None:
                cond = cond.strip()
                if cond.startswith("${{"):
                    cond = cond[3:-2]
                ok = truthy(evaluate(cond, ctx))
                if ctx["failed"] and not re.search(r"always\(\)|failure\(\)", cond):
                    ok = False
            else:
                ok = not ctx["failed"]
            if not ok:
                continue
            code = self.run_step(step, ctx, action_path)
            if code != 0 and not ctx["failed"]:
                ctx["failed"] = True
                first_failure = code
        return first_failure

    def run_step(self, step, ctx, action_path):
        sid = step.get("id", "step%d" % len(ctx["steps"]))
        if "uses" in step:
            uses = step["uses"]
            inputs = {k: substitute(v, ctx) for k, v in (step.get("with") or {}).items()}
            if uses in ("your-org/causegate@v1", "./"):
                code, outputs = run_action(self, ctx["action_file"], inputs, ctx)
                ctx["steps"][sid] = outputs
                return code
            self.used.append((uses, inputs))
            ctx["steps"][sid] = {"cache-hit": "false"} if uses.startswith("actions/cache") else {}
            return 0
        env = self.base_env(action_path)
        env.update({k: substitute(v, ctx) for k, v in (step.get("env") or {}).items()})
        outputs_file = os.path.join(self.temp, "output-%s" % sid)
        env_file = os.path.join(self.temp, "env-%s" % sid)
        path_file = os.path.join(self.temp, "path-%s" % sid)
        for f in (outputs_file, env_file, path_file):
            open(f, "w").close()
        env.update(GITHUB_OUTPUT=outputs_file, GITHUB_ENV=env_file, GITHUB_PATH=path_file)
        script = os.path.join(self.temp, "script-%s.sh" % sid)
        with open(script, "w") as f:
            f.write(substitute(step["run"], ctx))
        p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=self.workspace, env=env,
                           capture_output=True, text=True, timeout=300)
        self.logs.append((step.get("name", sid), p.returncode, p.stdout, p.stderr))
        self.commands += read_commands(p.stdout)
        ctx["steps"][sid] = read_key_values(outputs_file)
        self.env.update(read_key_values(env_file))
        self.path += [l for l in open(path_file).read().splitlines() if l]
        return p.returncode


def run_action(runner, action_file, given, outer_ctx):
    """Runs a composite action's steps with the inputs given; returns (exit code, its outputs)."""
    with open(action_file) as f:
        action = yaml.safe_load(f)
    action_path = os.path.dirname(os.path.abspath(action_file))
    inputs = {}
    for name, spec in action["inputs"].items():
        default = spec.get("default", "")
        inputs[name] = given.get(name, substitute(default, {"github": {"token": "fake-token"}, "steps": {}}))
    unknown = set(given) - set(inputs)
    check(not unknown, "the action takes every input given: %s" % unknown)
    ctx = {"inputs": inputs, "steps": {}, "github": {"action_path": action_path, "token": inputs.get("token", "")},
           "runner": {"temp": runner.temp, "os": "Linux"}, "env": {}, "action_file": action_file}
    code = runner.run_steps(action["runs"]["steps"], ctx, action_path)
    outputs = {k: substitute(v["value"], ctx) for k, v in action.get("outputs", {}).items()}
    return code, outputs


class FakeGitHub(http.server.BaseHTTPRequestHandler):
    """The code-scanning analyses endpoint, answering as told."""
    answer = (403, {"message": "Advanced Security must be enabled for this repository to use code scanning."})
    seen = []

    def do_GET(self):
        FakeGitHub.seen.append((self.path, self.headers.get("Authorization")))
        status, body = FakeGitHub.answer
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


# ------------------------------------------------------------ the checks

def make_tarball(binary, work):
    """A release tarball as make dist would ship it: a versioned folder with bin/."""
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.split()[-1]
    top = "causegate-%s-linux-x86_64" % version
    path = os.path.join(work, top + ".tar.gz")
    with tarfile.open(path, "w:gz") as t:
        for name in ("causegate", "causegate-serve"):
            t.add(os.path.join(os.path.dirname(binary), name), arcname="%s/bin/%s" % (top, name))
    return path


def workspace_with(source, work, name):
    ws = os.path.join(work, name)
    shutil.rmtree(ws, ignore_errors=True)
    os.makedirs(ws)
    shutil.copytree(os.path.join(source, "examples", "transcripts"), os.path.join(ws, "examples", "transcripts"))
    return ws


def check_action(binary, source, work, api_url):
    print("action.yml on the bundled examples")
    action = os.path.join(source, "action.yml")
    tarball = make_tarball(binary, work)
    ws = workspace_with(source, work, "ws-action")

    # Flagged turns, a private repository without code scanning.
    FakeGitHub.answer = (403, {"message": "Advanced Security must be enabled for this repository to use code scanning."})
    r = Runner(work, ws, api_url)
    code, out = run_action(r, action, {"paths": "examples/transcripts", "tarball": tarball}, {})
    summary = open(r.summary).read()
    check(code == 1, "flagged examples: the action fails with 1 (got %d; %s)" % (code, r.logs[-1:]))
    check(out["exit-code"] == "1", "output exit-code is 1: %s" % out)
    check(summary.startswith("## causegate check\n") and "| finding |" in summary,
          "the Markdown summary is on the run's page: %r" % summary[:200])
    check("SARIF not uploaded to code scanning" in summary and "Advanced Security must be enabled" in summary,
          "the summary says plainly why no SARIF was uploaded: %r" % summary[-300:])
    check(not any(u.startswith("github/codeql-action/upload-sarif") for u, _ in r.used), "no upload without code scanning")
    check(any(c == "notice" and "SARIF not uploaded" in m for c, _, m in r.commands), "a notice says so too")
    errors = [(p, m) for c, p, m in r.commands if c == "error" and "file" in p]
    check(any(p["file"] == "examples/transcripts/export-blocked.jsonl" and p.get("line") for p, _ in errors),
          "an annotation on the blocked transcript's line: %s" % errors)
    check(FakeGitHub.seen and FakeGitHub.seen[-1][0] == "/repos/acme/agents/code-scanning/analyses?per_page=1" and
          FakeGitHub.seen[-1][1] == "Bearer fake-token", "the API is asked with the token: %s" % FakeGitHub.seen[-1:])
    check(out["code-scanning"] == "false", "output code-scanning is false")
    with open(out["json"]) as f:
        results = json.load(f)
    check(results["summary"]["blocked"] >= 1, "the JSON results are written: %s" % results["summary"])
    check(os.path.dirname(out["sarif"]).startswith(r.temp), "reports go to RUNNER_TEMP, not the workspace")

    # Code scanning on: the SARIF is uploaded with its category.
    FakeGitHub.answer = (200, [])
    r = Runner(work, ws, api_url)
    code, out = run_action(r, action, {"paths": "examples/transcripts", "tarball": tarball}, {})
    uploads = [w for u, w in r.used if u.startswith("github/codeql-action/upload-sarif")]
    check(len(uploads) == 1 and uploads[0]["category"] == "causegate" and os.path.isfile(uploads[0]["sarif_file"]),
          "SARIF uploaded where code scanning is on: %s" % uploads)
    if uploads:
        with open(uploads[0]["sarif_file"]) as f:
            check(json.load(f)["version"] == "2.1.0", "the uploaded file is SARIF 2.1.0")
    check("SARIF not uploaded" not in open(r.summary).read(), "no 'not uploaded' sentence when it was")
    check(code == 1, "still fails on the flagged turns (%d)" % code)

    # No answer from the API (a closed port on loopback): no upload, and the summary says so.
    r = Runner(work, ws, "http://127.0.0.1:9")
    code, out = run_action(r, action, {"paths": "examples/transcripts", "tarball": tarball}, {})
    check(code == 1 and out["code-scanning"] == "false" and "(HTTP 000)" in open(r.summary).read(),
          "an API that does not answer: no upload, said plainly (%d): %r" % (code, open(r.summary).read()[-200:]))

    # Clean input passes; fail: false reports only; an unreadable file is 2.
    r = Runner(work, ws, api_url)
    code, out = run_action(r, action, {"paths": "examples/transcripts/export-allowed.jsonl", "tarball": tarball}, {})
    check(code == 0 and out["exit-code"] == "0", "the allowed example passes (%d, %s)" % (code, out))
    r = Runner(work, ws, api_url)
    code, out = run_action(r, action, {"paths": "examples/transcripts", "tarball": tarball, "fail": "false"}, {})
    check(code == 0 and out["exit-code"] == "1", "fail: false reports and passes (%d, %s)" % (code, out))
    with open(os.path.join(ws, "examples", "transcripts", "notes.jsonl"), "w") as f:
        f.write("not a transcript\n")
    r = Runner(work, ws, api_url)
    code, out = run_action(r, action, {"paths": "examples/transcripts", "tarball": tarball, "fail": "errors"}, {})
    check(code == 2 and out["exit-code"] == "2", "an unreadable file fails with 2 even with fail: errors (%d)" % code)
    os.remove(os.path.join(ws, "examples", "transcripts", "notes.jsonl"))
    r = Runner(work, ws, api_url)
    code, _ = run_action(r, action, {"paths": "examples/transcripts", "tarball": "nowhere.tar.gz"}, {})
    check(code == 2 and "no such file" in "".join(l[2] for l in r.logs), "a missing tarball fails and says so")

    # No tarball: build from source, cached by the source's hash (not run here).
    r = Runner(work, ws, api_url)
    ctx = {"inputs": {"tarball": ""}, "steps": {}, "github": {"action_path": source}, "runner": {}, "failed": False}
    with open(action) as f:
        steps = yaml.safe_load(f)["runs"]["steps"]
    r.run_step(steps[0], ctx, source)
    key = ctx["steps"]["source"].get("key", "")
    check(ctx["steps"]["source"].get("mode") == "source" and re.match(r"^causegate-Linux-X64-[0-9a-f]{16}$", key),
          "without a tarball the build is keyed by the source: %s" % ctx["steps"]["source"])
    build = [s for s in steps if s.get("name") == "Build causegate from source"][0]
    ctx["steps"]["cache"] = {"cache-hit": "true"}
    check(not truthy(evaluate(build["if"], ctx)), "a cache hit skips the build")
    ctx["steps"]["cache"] = {"cache-hit": "false"}
    check(truthy(evaluate(build["if"], ctx)), "a cache miss builds")
    return tarball


def check_workflow(binary, source, work, api_url, tarball):
    print("examples/ci/github-workflow.yml: a matrix of shards and a merge job")
    with open(os.path.join(source, "examples", "ci", "github-workflow.yml")) as f:
        workflow = yaml.safe_load(f)
    ws = workspace_with(source, work, "ws-workflow")
    shutil.copytree(os.path.join(ws, "examples", "transcripts"), os.path.join(ws, "transcripts"))
    FakeGitHub.answer = (403, {"message": "Code scanning is not enabled for this repository."})
    job = workflow["jobs"]["check"]
    shards = job["strategy"]["matrix"]["shard"]
    artifacts = []
    for shard in shards:
        r = Runner(work, ws, api_url)
        ctx = {"matrix": {"shard": shard}, "env": workflow["env"], "vars": {"CAUSEGATE_TARBALL": tarball},
               "github": {}, "runner": {}, "action_file": os.path.join(source, "action.yml")}
        code = r.run_steps(job["steps"], ctx, source)
        check(code == 0, "shard %s passes (flagged turns are the merge's): %d %s" % (shard, code, r.logs[-1:]))
        uploads = [w for u, w in r.used if u.startswith("actions/upload-artifact")]
        check(len(uploads) == 1 and os.path.isfile(uploads[0]["path"]), "shard %s uploads its JSON" % shard)
        stored = os.path.join(work, "artifacts")  # what upload-artifact keeps past the job
        os.makedirs(stored, exist_ok=True)
        for w in uploads:
            shutil.copy(w["path"], stored)
            artifacts.append(os.path.join(stored, os.path.basename(w["path"])))
    shard_dir = os.path.join(ws, "shards")
    os.makedirs(shard_dir, exist_ok=True)
    files = []
    for a in artifacts:  # download-artifact with merge-multiple
        shutil.copy(a, shard_dir)
        with open(a) as f:
            files += [x["path"] for x in json.load(f)["files"]]
    check(sorted(files) == sorted(set(files)) and len(files) == len(os.listdir(os.path.join(ws, "transcripts"))) // 2,
          "the shards cover each transcript once: %s" % files)
    merge = workflow["jobs"]["merge"]
    check(merge["needs"] == "check" and merge["if"] == "always()", "the merge job waits for every shard")
    r = Runner(work, ws, api_url)
    ctx = {"env": workflow["env"], "vars": {"CAUSEGATE_TARBALL": tarball}, "github": {}, "runner": {},
           "matrix": {}, "action_file": os.path.join(source, "action.yml")}
    code = r.run_steps(merge["steps"], ctx, source)
    check(code == 1, "the merge job fails on the flagged turns (%d)" % code)
    summary = open(r.summary).read()
    check("## causegate check" in summary and "Code scanning is not enabled" in summary,
          "the merge writes the summary and says why no SARIF: %r" % summary[-200:])
    merged = json.load(open(ctx["steps"]["causegate"]["json"]))
    full = subprocess.run([binary, "check", "transcripts", "--format", "json"], cwd=ws, capture_output=True, text=True)
    check(merged == json.loads(full.stdout), "the merged shards equal one full run")
    reports = [w for u, w in r.used if u.startswith("actions/upload-artifact")]
    check(reports and all(os.path.isfile(p) for p in reports[0]["path"].split()), "the merge uploads its reports")


def check_kubernetes(binary, source, work):
    print("examples/ci/kubernetes-indexed-job.yaml: JOB_COMPLETION_INDEX")
    with open(os.path.join(source, "examples", "ci", "kubernetes-indexed-job.yaml")) as f:
        docs = list(yaml.safe_load_all(f))
    check_job, merge_job = docs
    spec = check_job["spec"]
    check(spec["completionMode"] == "Indexed" and spec["completions"] == spec["parallelism"], "an Indexed Job")
    container = spec["template"]["spec"]["containers"][0]
    env = {e["name"]: e["value"] for e in container["env"]}
    check(int(env["SHARDS"]) == spec["completions"], "SHARDS is the number of completions")
    corpus = workspace_with(source, work, "k8s-corpus")
    results = os.path.join(work, "k8s-results")
    shutil.rmtree(results, ignore_errors=True)
    os.makedirs(results)
    bindir = os.path.dirname(binary)
    base = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], CORPUS=corpus, RESULTS=results,
                SHARDS=env["SHARDS"])
    for index in range(spec["completions"]):
        p = subprocess.run(container["command"] + container["args"], env=dict(base, JOB_COMPLETION_INDEX=str(index)),
                           capture_output=True, text=True, timeout=120)
        check(p.returncode == 0, "pod %d succeeds (flagged turns are the merge's): %d %s" % (index, p.returncode, p.stderr))
    check(sorted(os.listdir(results)) == ["shard-%d.json" % (i + 1) for i in range(spec["completions"])],
          "one result per index: %s" % os.listdir(results))
    m = merge_job["spec"]["template"]["spec"]["containers"][0]
    p = subprocess.run(m["command"] + m["args"], env=base, capture_output=True, text=True, timeout=120)
    check(p.returncode == 1, "the merge Job exits 1 on the flagged examples (%d %s)" % (p.returncode, p.stderr))
    check(os.path.isfile(os.path.join(results, "causegate.sarif")) and
          open(os.path.join(results, "summary.md")).read().startswith("## causegate check"), "merge reports written")


def check_pre_commit(binary, source, work):
    """.pre-commit-hooks.yaml's hook, run as pre-commit runs it: the entry
    with the staged files that match `files` (and not `exclude`), in
    batches, from the repository's root, failing on a non-zero exit."""
    print(".pre-commit-hooks.yaml")
    with open(os.path.join(source, ".pre-commit-hooks.yaml")) as f:
        hooks = yaml.safe_load(f)
    hook = [h for h in hooks if h["id"] == "causegate"][0]
    check(hook["language"] in ("system", "script") and hook.get("pass_filenames", True), "a system hook given file names")
    repo = os.path.join(work, "precommit-repo")
    shutil.rmtree(repo, ignore_errors=True)
    os.makedirs(os.path.join(repo, ".claude", "sessions"))
    os.makedirs(os.path.join(repo, ".specstory", "history"))
    os.makedirs(os.path.join(repo, "src"))
    tx = os.path.join(source, "examples", "transcripts")
    shutil.copy(os.path.join(tx, "export-allowed.jsonl"), os.path.join(repo, ".claude", "sessions", "ok.jsonl"))
    shutil.copy(os.path.join(tx, "export-blocked.jsonl"), os.path.join(repo, ".specstory", "history", "bad.jsonl"))
    with open(os.path.join(repo, "src", "data.jsonl"), "w") as f:
        f.write('{"not": "a transcript"}\n')
    with open(os.path.join(repo, ".claude", "settings.json"), "w") as f:
        f.write("{}\n")
    files_re = re.compile(hook["files"])
    exclude_re = re.compile(hook["exclude"]) if hook.get("exclude") else None

    def run_hook(staged):
        chosen = [p for p in staged if files_re.search(p) and not (exclude_re and exclude_re.search(p))]
        if not chosen:
            return 0, "", chosen
        entry = hook["entry"].split()
        entry[0] = os.path.join(os.path.dirname(binary), entry[0]) if entry[0] == "causegate" else entry[0]
        p = subprocess.run(entry + hook.get("args", []) + chosen, cwd=repo, capture_output=True, text=True, timeout=120)
        return p.returncode, p.stdout + p.stderr, chosen

    all_files = [".claude/sessions/ok.jsonl", ".specstory/history/bad.jsonl", "src/data.jsonl", ".claude/settings.json"]
    code, out, chosen = run_hook(all_files)
    check(chosen == [".claude/sessions/ok.jsonl", ".specstory/history/bad.jsonl"],
          "the hook takes transcripts under .claude/ and .specstory/ only: %s" % chosen)
    check(code == 1 and ".specstory/history/bad.jsonl" in out, "a flagged transcript fails the commit: %d %s" % (code, out))
    code, out, _ = run_hook([".claude/sessions/ok.jsonl", "src/data.jsonl"])
    check(code == 0, "a clean transcript passes: %d %s" % (code, out))
    code, out, chosen = run_hook(["src/data.jsonl"])
    check(code == 0 and chosen == [], "no transcript staged: the hook does not run")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    source = os.path.abspath(args.source)
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeGitHub)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    api_url = "http://127.0.0.1:%d" % server.server_address[1]
    try:
        tarball = check_action(binary, source, work, api_url)
        check_workflow(binary, source, work, api_url, tarball)
        check_kubernetes(binary, source, work)
        check_pre_commit(binary, source, work)
    finally:
        server.shutdown()
    print("%d failure(s)" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
