#!/usr/bin/env python3
"""`cmake --install` into a fresh prefix, and the Claude Code plugin it holds.

Checks that the install puts the binary in bin/, the default packs in
share/causegate/packs (equal to the sources), the man page in
share/man/man1, and a complete plugin in share/causegate/plugin: its
manifest, its hooks (Stop and SubagentStop, exec form, through
${CLAUDE_PLUGIN_ROOT}/bin/causegate), the debug skill in English and
Chinese, and in its bin/ a relative link to the one stripped bin/causegate. Then runs the plugin's Stop hook as
Claude Code would, on the bundled blocked example, and expects a block.
"""
import argparse
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    prefix = os.path.join(args.work, "prefix")
    subprocess.run(["cmake", "--install", args.build, "--prefix", prefix], check=True, stdout=subprocess.DEVNULL)
    failures = []

    def need(ok, what):
        if not ok:
            failures.append(what)

    binary = os.path.join(prefix, "bin", "causegate")
    need(os.access(binary, os.X_OK), "bin/causegate missing")
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    need(re.match(r"^causegate \d+\.\d+\.\d+", version) is not None, "--version: %r" % version)
    packs_src = os.path.join(args.source, "rules", "packs")
    packs_dst = os.path.join(prefix, "share", "causegate", "packs")
    for name in sorted(os.listdir(packs_src)):
        if name.endswith(".json"):
            dst = os.path.join(packs_dst, name)
            need(os.path.isfile(dst) and filecmp.cmp(os.path.join(packs_src, name), dst, shallow=False),
                 "pack %s not installed" % name)
    lint = subprocess.run([binary, "rules", "lint", packs_dst], capture_output=True, text=True)
    need(lint.returncode == 0, "installed packs do not lint: %s" % lint.stdout[-300:])
    need(os.path.isfile(os.path.join(prefix, "share", "man", "man1", "causegate.1")), "man page missing")

    plugin = os.path.join(prefix, "share", "causegate", "plugin")
    manifest = json.load(open(os.path.join(plugin, ".claude-plugin", "plugin.json")))
    need(manifest.get("name") == "causegate" and manifest.get("description"), "plugin.json: %r" % manifest)
    hooks = json.load(open(os.path.join(plugin, "hooks", "hooks.json")))["hooks"]
    need(sorted(hooks) == ["Stop", "SubagentStop"], "plugin hooks: %s" % sorted(hooks))
    for event, groups in hooks.items():
        handler = groups[0]["hooks"][0]
        need(handler.get("command") == "${CLAUDE_PLUGIN_ROOT}/bin/causegate" and handler.get("args", [None])[0] == "hook",
             "%s handler is not the exec form through the plugin's binary: %r" % (event, handler))
    skill = open(os.path.join(plugin, "skills", "debug", "SKILL.md"), encoding="utf-8").read()
    need(re.match(r"^---\nname: debug\ndescription: .+\n---\n", skill) is not None, "SKILL.md front matter")
    need(len(re.findall(r"[\u4e00-\u9fff]", skill)) > 500 and "Smoke-test" in skill, "SKILL.md lacks English or Chinese")
    plugin_binary = os.path.join(plugin, "bin", "causegate")
    need(os.access(plugin_binary, os.X_OK), "plugin/bin/causegate missing")
    # One binary: the plugin's is a relative link to bin/causegate, and it is stripped.
    need(os.path.islink(plugin_binary) and not os.path.isabs(os.readlink(plugin_binary))
         and os.path.realpath(plugin_binary) == os.path.realpath(binary),
         "plugin/bin/causegate is not a relative link to bin/causegate")
    for name in ("causegate", "causegate-serve"):
        kind = subprocess.run(["file", "-b", os.path.join(prefix, "bin", name)], capture_output=True, text=True).stdout
        need("not stripped" not in kind and "debug_info" not in kind, "bin/%s not stripped: %s" % (name, kind.strip()))
    for doc in ("LICENSE", "CHANGELOG.md"):
        need(os.path.isfile(os.path.join(prefix, "share", "doc", "causegate", doc)), "share/doc/causegate/%s missing" % doc)

    # The plugin's Stop hook, run as Claude Code runs it.
    handler = hooks["Stop"][0]["hooks"][0]
    command = handler["command"].replace("${CLAUDE_PLUGIN_ROOT}", plugin)
    payload = json.load(open(os.path.join(args.source, "examples", "transcripts", "export-blocked.payload.json")))
    payload["transcript_path"] = os.path.join(args.source, payload["transcript_path"])
    p = subprocess.run([command] + handler["args"], input=json.dumps(payload), capture_output=True, text=True,
                       env=dict(os.environ, CLAUDE_PLUGIN_ROOT=plugin), timeout=30)
    answer = json.loads(p.stdout or "{}")
    need(p.returncode == 0 and answer.get("decision") == "block", "plugin hook did not block: %r" % p.stdout[:200])
    need("skills/debug" in answer.get("reason", ""), "the block reason does not point to the debug skill")

    print("installed into %s; failures: %d" % (prefix, len(failures)))
    for f in failures:
        print("  FAIL " + f)
    shutil.rmtree(args.work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
