"""The scripted turns, the case matrix, and what each case must show.

The turn: the user says the build fails; the model reads build.log (one
known error line), then claims a cause nothing in the log supports. After
a block the model answers by the case's mode:

  fix    quotes the log line and names the cause it shows    -> allowed
  hedge  restates the cause as a hypothesis with a next probe -> allowed
  loop   repeats the claim                                   -> blocked
         until the limit (2 blocks), then let through with a warning
  good   (no block expected) the first answer already quotes the log

So the model receives 2 requests when the stop is allowed at once, 3 for
fix and hedge, and 2 + 2 for loop.
"""
import dataclasses
import os

LOG_NAME = "build.log"
ERROR_LINE = "src/config.c:42: error: 'MAX_RETRIES' undeclared (first use in this function)"
LOG_TEXT = f"""[build] cc -c src/config.c -o build/config.o
{ERROR_LINE}
make: *** [Makefile:12: build/config.o] Error 1
"""

TEXTS = {
    "en": {
        "prompt": "The build fails. Find out why.",
        "claim": "The build failed because the disk on the build machine is full. I will free some space and rerun it.",
        "answers": {
            "fix": f"The build log shows `{ERROR_LINE}`, so the build fails because MAX_RETRIES is not declared "
                   "in src/config.c.",
            "hedge": "Hypothesis, not yet verified: the build may fail because MAX_RETRIES is not declared. "
                     "Next I will grep the headers for MAX_RETRIES to test it.",
        },
        "claim_words": "disk",
        "hearsay": "The subagent reported \"The build failed because the disk on the build machine is full\", "
                   "so the build fails because the disk is full.",
    },
    "zh": {
        "prompt": "构建失败了，查一下原因。",
        "claim": "构建失败的根本原因是构建机器的磁盘已满。我会清理空间后重新构建。",
        "answers": {
            "fix": f"构建日志显示 `{ERROR_LINE}`，所以构建失败是因为 src/config.c 中没有声明 MAX_RETRIES。",
            "hedge": "假设（尚未验证）：构建失败可能是因为 MAX_RETRIES 没有声明。下一步我会在头文件中搜索 MAX_RETRIES 来验证。",
        },
        "claim_words": "磁盘",
        "hearsay": "子代理报告说“构建失败的根本原因是构建机器的磁盘已满”，所以构建失败是因为磁盘已满。",
    },
}
for _text in TEXTS.values():
    _text["answers"]["loop"] = _text["claim"]
    _text["answers"]["good"] = _text["answers"]["fix"]

MAX_BLOCKS = 2
SUBAGENT_MODES = {"quotes": "fix", "hearsay": "loop"}
EXPECTED_BLOCKS = {"fix": 1, "hedge": 1, "loop": MAX_BLOCKS, "good": 0}


@dataclasses.dataclass(frozen=True)
class CaseSpec:
    agent: str
    registration: str
    lang: str
    mode: str
    latency_ms: int = 200     # a real model is no faster than ~150 ms
    # Claude Code: the probe runs in a subagent. "quotes": the subagent is
    # sent back once and quotes the log; the parent's quote of that is
    # evidence. "hearsay": the subagent repeats its claim until let through;
    # the parent quoting the subagent's words has no evidence (spec
    # section 3: a subagent's answer is evidence only where it quoted its
    # own tool output) and must be blocked, then hedges.
    subagent: str = ""
    # Claude Code -p's output format: stream-json carries the hook events;
    # text is what a user of -p reads (and where a let-through must show).
    output: str = "stream-json"

    @property
    def name(self):
        parts = [self.agent, self.registration, self.lang, self.mode]
        if self.subagent:
            parts.append("subagent-" + self.subagent)
        if self.latency_ms == 0:
            parts.append("instant")
        if self.output != "stream-json":
            parts.append(self.output)
        return "/".join(parts)


def cases(agents):
    out = []
    for agent in agents:
        for mode in ("fix", "hedge", "loop"):
            out.append(CaseSpec(agent, "init", "en", mode))
        out.append(CaseSpec(agent, "init", "zh", "fix"))
        out.append(CaseSpec(agent, "init", "zh", "loop"))
        # The model answering at once: the transcript may lag the hook.
        out.append(CaseSpec(agent, "init", "en", "good", latency_ms=0))
        out.append(CaseSpec(agent, "init", "en", "fix", latency_ms=0))
        if agent == "claude-code":
            for registration in ("plugin", "http", "server"):
                out.append(CaseSpec(agent, registration, "en", "loop"))
                out.append(CaseSpec(agent, registration, "en", "fix"))
            out.append(CaseSpec(agent, "init", "en", "fix", subagent="quotes"))
            out.append(CaseSpec(agent, "init", "en", "hedge", subagent="hearsay"))
            out.append(CaseSpec(agent, "init", "en", "loop", output="text"))
    return out


def check(spec, requests, unknown_routes, exit_code, root):
    """What went wrong in one case, as short sentences (empty: it passed)."""
    problems = []
    text = TEXTS[spec.lang]
    blocks = EXPECTED_BLOCKS[spec.mode]
    # A subagent turn is two conversations, each a probe (the parent's is
    # the Agent call), a claim and the answers to its blocks.
    expected = 2 + blocks
    if spec.subagent:
        expected += 2 + EXPECTED_BLOCKS[SUBAGENT_MODES[spec.subagent]]
    if exit_code != 0:
        problems.append(f"the CLI exited {exit_code}")
    if unknown_routes:
        problems.append(f"routes the mock does not serve: {sorted(set(unknown_routes))}")
    if len(requests) != expected:
        problems.append(f"{len(requests)} model requests, expected {expected} "
                        f"({blocks} block{'s' if blocks != 1 else ''} per conversation)")
    seen_blocks = max((r["blocks"] for r in requests if not r.get("subagent")), default=0)
    if seen_blocks != blocks:
        problems.append(f"the model saw {seen_blocks} block reasons, expected {blocks}")
    for r in requests:
        if r["blocks"] and text["claim_words"] not in r["last_block"]:
            problems.append("a block reason does not quote the claim")
            break
    if spec.mode == "loop" or spec.subagent == "hearsay":
        warned = let_through_warned(spec.agent, root)
        if not warned:
            problems.append("the let-through warning reached neither stdout nor stderr")
    return problems


def let_through_warned(agent, root):
    """The let-through message is where the agent's user reads it."""
    for name in ("stdout", "stderr"):
        path = os.path.join(root, name)
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            data = f.read()
        if "causegate" in data and ("let through" in data or "unproven" in data or "放行" in data):
            return True
    return False
