#!/usr/bin/env python3
"""End-to-end: reloading rule packs in a running daemon.

A pack folder with one extra claim rule. A changed pack is picked up by the
folder poll, by SIGHUP and by POST /v1/reload; a bad pack is refused with
`file:line: rule "id": ...` in the log, counted in /metrics, and the last
good rules keep judging; reloads while clients send requests over kept-alive
connections drop none of them and never mix rule sets within a request.
"""
import argparse
import http.client
import json
import os
import shutil
import signal
import sys
import threading
import time

from serve_util import Checks, Daemon, metric

PROMPT = "why did the nightly build fail?"
ZORCH = "The nightly build failed since the cache zorched the linker."
FROB = "The nightly build failed since the cache frobbed the linker."
TOOLS = [{"name": "Bash", "command": "make 2>&1 | tail -2", "output": "ld: error: cannot open output file\nmake: *** Error 1"}]


def pack_text(version, word, pattern=None):
    rule = {"id": "custom.claim.verb", "kind": "claim", "pattern": pattern or ("\\b%s\\b" % word),
            "description": "A verb this team uses for causes.",
            "match": ["The cache %s the linker." % word], "no_match": ["The cache is fine."]}
    return json.dumps({"format": "causegate-pack/1", "pack": "custom", "version": version,
                       "rules": [rule]}, indent=2) + "\n"


def write_pack(folder, text):
    path = os.path.join(folder, "custom.json")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)  # a pack appears whole, as editors and deploy tools write it
    return path


def judge(d, final):
    status, verdict = d.json("POST", "/v1/judge", {"prompt": PROMPT, "final_message": final, "tool_calls": TOOLS})
    return status, verdict


def custom_version(d):
    _, health = d.json("GET", "/healthz")
    return next((p["version"] for p in health["packs"] if p["name"] == "custom"), None), health


def wait_for(cond, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if cond():
            return True
        time.sleep(0.05)
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    packs = os.path.join(args.work, "packs")
    os.makedirs(packs)
    write_pack(packs, pack_text("1", "zorched"))
    c = Checks()
    d = Daemon(args.bin, args.work, ["--rules", packs, "--root", args.work])
    try:
        version, _ = custom_version(d)
        c.check(version == "1", "start: custom pack v1 loaded (%s)" % version)
        status, v = judge(d, ZORCH)
        c.check(status == 200 and v["decision"] == "block" and v["claims"][0]["rule"] == "custom.claim.verb",
                "v1 blocks the zorch claim: %s" % v)
        status, v = judge(d, FROB)
        c.check(v["decision"] == "allow", "v1 allows frob: %s" % v)

        # 1. A changed pack file is picked up by the poll.
        write_pack(packs, pack_text("2", "frobbed"))
        c.check(wait_for(lambda: custom_version(d)[0] == "2"), "poll: v2 loaded within 10 s")
        c.check(judge(d, FROB)[1]["decision"] == "block" and judge(d, ZORCH)[1]["decision"] == "allow",
                "v2 judges with the new rule")

        # 2. A bad pack is refused; v2 keeps judging.
        bad_path = write_pack(packs, pack_text("3", "", pattern="(unclosed"))
        with open(bad_path) as f:
            line, column = next((i, l.index('"pattern"') + 1) for i, l in enumerate(f, 1) if '"pattern"' in l)
        where = '%s:%d:%d: rule "custom.claim.verb": pattern: missing )' % (bad_path, line, column)
        c.check(wait_for(lambda: metric(d.request("GET", "/metrics")[2].decode(),
                                        'causegate_reloads_total{result="failed"}') >= 1),
                "poll: the bad pack counted as a failed reload")
        version, health = custom_version(d)
        c.check(version == "2" and where in (health["last_reload_error"] or ""),
                "bad pack: v2 stays, healthz says why: %s" % health["last_reload_error"])
        c.check(where in d.stderr(), "bad pack: logged as file:line: rule \"id\"")
        c.check(judge(d, FROB)[1]["decision"] == "block", "bad pack: the last good rules still judge")
        status, _, body = d.request("POST", "/v1/reload")
        c.check(status == 422 and where in json.loads(body)["error"], "POST /v1/reload with a bad pack: %d %r" % (status, body))

        # 3. SIGHUP. The watcher may see the file first; either way v4 loads.
        write_pack(packs, pack_text("4", "zorched"))
        before = metric(d.request("GET", "/metrics")[2].decode(), 'causegate_reloads_total{result="ok"}')
        d.send_signal(signal.SIGHUP)
        c.check(wait_for(lambda: custom_version(d)[0] == "4"), "SIGHUP: v4 loaded")
        c.check("rules reloaded (SIGHUP)" in d.stderr() or "rules reloaded (pack change)" in d.stderr(), "reload logged")
        status, _, body = d.request("POST", "/v1/reload")
        c.check(status == 200 and json.loads(body)["reloaded"], "POST /v1/reload: %r" % body)
        after = metric(d.request("GET", "/metrics")[2].decode(), 'causegate_reloads_total{result="ok"}')
        c.check(after >= before + 2, "reloads counted: %s -> %s" % (before, after))

        # 4. Reloads under load: no request dropped, every answer from one whole rule set.
        stop = threading.Event()
        results = {"ok": 0, "errors": []}
        lock = threading.Lock()

        def client():
            conn = http.client.HTTPConnection(d.host, d.port, timeout=30)
            body = json.dumps({"prompt": PROMPT, "final_message": ZORCH + "\n\n" + FROB, "tool_calls": TOOLS})
            while not stop.is_set():
                try:
                    conn.request("POST", "/v1/judge", body=body)
                    res = conn.getresponse()
                    v = json.loads(res.read())
                    # Exactly one of the two verbs is a claim under any one version of the pack.
                    claims = [cl["sentence"] for cl in v.get("claims", [])]
                    ok = res.status == 200 and len(claims) == 1
                    with lock:
                        if ok:
                            results["ok"] += 1
                        else:
                            results["errors"].append("%d %s" % (res.status, claims))
                except Exception as e:  # a dropped connection is a failure
                    with lock:
                        results["errors"].append(repr(e))
                    conn = http.client.HTTPConnection(d.host, d.port, timeout=30)

        threads = [threading.Thread(target=client) for _ in range(4)]
        for t in threads:
            t.start()
        for i in range(10):
            write_pack(packs, pack_text(str(10 + i), "frobbed" if i % 2 == 0 else "zorched"))
            if i % 3 == 0:
                d.send_signal(signal.SIGHUP)
            else:
                d.request("POST", "/v1/reload")
            time.sleep(0.15)
        stop.set()
        for t in threads:
            t.join()
        c.check(not results["errors"], "under load: %d errors, first %s" % (len(results["errors"]), results["errors"][:3]))
        c.check(results["ok"] > 20, "under load: %d requests answered" % results["ok"])
        print("under load: %d requests during 10 reloads, %d errors" % (results["ok"], len(results["errors"])))
    finally:
        code = d.stop()
    c.check(code == 0, "daemon exit code %d" % code)
    return c.report("serve_reload")


if __name__ == "__main__":
    sys.exit(main())
