#!/usr/bin/env python3
"""End-to-end: the HTML report of `causegate check`, opened in a real
browser. Headless Chromium (Debian package `chromium`, installed by
`scripts/install-deps --browser`) loads the page from disk, runs its
script and dumps the DOM it built, which must hold:

- the summary table (agent, model, turns, flagged, block rate) equal to
  the one in the Markdown report, and counts that agree with the JSON;
- the charts as inline SVG: block rate per day, unsupported claims per
  rule and per finding, block rate per agent and model and per project,
  each bar's value computed again here from the JSON results;
- the turns flagged first, each claim highlighted in its final message
  (<mark class="claim"> holding its sentence, with finding and rule), the
  nearest tool lines under an unsupported claim (as explain shows them)
  and the reason the agent got, folded; the filters' options, and a
  filter given in the URL (#agent=codex) showing only those turns;
- nothing asked from the network.

A screenshot is taken and decoded here (PNG, no library): the bars'
colours must be on it, so the charts were drawn, not only present. Then a
report of 60,000 turns is rendered (`causegate merge` on generated JSON
results) and opened; the time until its script has drawn the first page
is printed and bounded.

Exits 77 (skipped) when /usr/bin/chromium is not installed.
"""
import argparse
import json
import os
import random
import re
import struct
import subprocess
import sys
import time
import zlib
from html.parser import HTMLParser

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_cli  # noqa: E402  (its corpus)

CHROMIUM = "/usr/bin/chromium"
SCALE = float(os.environ.get("CAUSEGATE_TEST_TIME_SCALE", "1"))


class Dom(HTMLParser):
    """What the check needs from the DOM Chromium dumped."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.marks, self.bars, self.external, self.cards, self.options = [], {}, [], [], {}
        self.agent_rows, self.count = [], ""
        self._mark = self._card = self._select = self._row = None
        self._in_count = self._in_nearest = self._in_reason = False
        self._in_agents = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "article" and "turn" in cls:
            self._card = {"class": cls, "marks": [], "nearest": [], "reason": False, "text": ""}
            self.cards.append(self._card)
        if tag == "mark" and "claim" in cls:
            self._mark = {"finding": a.get("data-finding"), "rule": a.get("data-rule"), "text": ""}
        if tag == "g" and "bar" in cls:
            self.bars.setdefault(a.get("data-chart"), {})[a.get("data-key")] = float(a.get("data-value"))
        if tag == "div" and "nearest" in cls and self._card is not None:
            self._in_nearest = True
            self._card["nearest"].append("")
        if tag == "details" and "reason" in cls and self._card is not None:
            self._card["reason"] = True
        if tag == "select":
            self._select = a.get("id")
            self.options[self._select] = []
        if tag == "option" and self._select:
            self.options[self._select].append(a.get("value"))
        if tag == "p" and a.get("id") == "count":
            self._in_count = True
        if tag == "table" and a.get("id") == "agents":
            self._in_agents = True
        if tag == "tr" and self._in_agents:
            self._row = []
        if tag in ("td",) and self._row is not None:
            self._row.append("")
        for key in ("src", "href"):
            value = a.get(key) or ""
            if value and not value.startswith("#") and not value.startswith("data:"):
                self.external.append(value)

    def handle_endtag(self, tag):
        if tag == "mark" and self._mark is not None:
            self.marks.append(self._mark)
            if self._card is not None:
                self._card["marks"].append(self._mark)
            self._mark = None
        if tag == "div" and self._in_nearest:
            self._in_nearest = False
        if tag == "article":
            self._card = None
        if tag == "select":
            self._select = None
        if tag == "p":
            self._in_count = False
        if tag == "tr" and self._row is not None:
            if self._row:
                self.agent_rows.append(self._row)
            self._row = None
        if tag == "table":
            self._in_agents = False

    def handle_data(self, data):
        if self._mark is not None:
            self._mark["text"] += data
        if self._in_nearest and self._card is not None:
            self._card["nearest"][-1] += data
        if self._card is not None:
            self._card["text"] += data
        if self._in_count:
            self.count += data
        if self._row is not None and self._row:
            self._row[-1] += data


def chromium(work, url, *flags, timeout=180):
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
           "--user-data-dir=" + os.path.join(work, "chromium-profile")] + list(flags) + [url]
    return subprocess.run(cmd, capture_output=True, timeout=timeout)


def dump(work, url):
    p = chromium(work, url, "--dump-dom")
    dom = Dom()
    dom.feed(p.stdout.decode("utf-8", "replace"))
    return dom, p.stdout.decode("utf-8", "replace")


def png_pixels(path):
    """(width, height, rows of RGBA tuples) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "PNG kind %d/%d" % (depth, colour)
            channels = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def colour_count(rows, channels, rgb):
    target = bytes(rgb)
    return sum(sum(1 for x in range(0, len(r), channels) if r[x:x + 3] == target) for r in rows)


def expected_groups(turns, key):
    groups = {}
    for t in turns:
        if key == "day":
            k = (t.get("started_at") or "")[:10] or "unknown"
        elif key == "agent":
            k = ((t["agent"] + (" " + t["model"] if t.get("model") else "")) if t.get("agent") else "") or "unknown"
        else:
            k = t.get("project") or "unknown"
        g = groups.setdefault(k, [0, 0])
        g[0] += 1
        g[1] += t["action"] != "allow" and not t.get("known")
    return {k: f / n for k, (n, f) in groups.items()}


def big_results(path, n_turns, seed=7):
    """JSON results of n_turns over a few agents, projects and 60 days, 1 in 8 flagged."""
    rnd = random.Random(seed)
    agents = [("claude-code", "claude-opus-4-6"), ("codex", "gpt-5.2-codex"), ("gemini", "gemini-2.5-pro"),
              ("copilot", "claude-sonnet-4.5")]
    rules = ["en.claim.because", "en.claim.root-cause", "en.claim.caused-by", "zh.claim.because"]
    findings = ["no-citation", "fabricated", "no-probe", "user-only"]
    reason = "causegate blocked this stop: 1 causal claim is not backed by tool output.\n\n" + "protocol text " * 100
    files, turns = [], []
    per_file = 20
    for f in range(n_turns // per_file):
        path_f = "sessions/p%02d/s%05d.jsonl" % (f % 37, f)
        files.append({"path": path_f, "format": "claude-code", "bytes": 40000, "turns": per_file})
        agent, model = agents[f % len(agents)]
        for k in range(per_file):
            flagged = rnd.random() < 0.125
            sentence = "The job failed because the disk filled up on node %d." % rnd.randint(1, 99)
            message = ("I looked at the logs. " * rnd.randint(1, 60)) + sentence
            claims = []
            if flagged or rnd.random() < 0.2:
                b = len(message.encode()) - len(sentence.encode())
                claims.append({"sentence": sentence, "offset": b, "length": len(sentence), "span": [b, b + len(sentence)],
                               "rule": rnd.choice(rules), "finding": rnd.choice(findings) if flagged else "supported",
                               "lang": "en", "citations": [],
                               "nearest": [{"tool": "Bash", "command": "df -h", "call_line": 3, "line": 2,
                                            "text": "/dev/sda1 100G 99G 1G 99% /"}] if flagged else []})
            turn = {"file": path_f, "turn": k + 1, "session_id": "s%05d" % f, "agent": agent, "agent_version": "1.0",
                    "model": model, "started_at": "2026-%02d-%02dT10:00:00Z" % (9 + (f % 60) // 30, 1 + (f % 30)),
                    "project": "/srv/p%02d" % (f % 37), "prompt_line": 1, "final_line": 9,
                    "prompt_excerpt": "why did the job fail?", "final_message": message, "prior_blocks": 0,
                    "decision": "block" if flagged else "allow", "tool_calls": 1, "claims": claims,
                    "action": "block" if flagged else "allow"}
            if flagged:
                turn["reason"] = reason
            turns.append(turn)
    doc = {"format": "causegate-check", "version": 1, "summary": {}, "files": files, "turns": turns}
    with open(path, "w") as f:
        json.dump(doc, f)
    return sum(1 for t in turns if t["action"] != "allow")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--turns", type=int, default=60000)
    args = ap.parse_args()
    if not os.access(CHROMIUM, os.X_OK):
        print("SKIP: %s not installed (scripts/install-deps --browser installs it)" % CHROMIUM)
        return 77
    work = os.path.abspath(args.work)
    binary = os.path.abspath(args.bin)
    check = check_cli.check
    check_cli.write_corpus(os.path.join(work, "corpus"))
    agents = os.path.join(work, "corpus", "agents")
    os.makedirs(os.path.join(agents, ".gemini", "tmp", "my-app", "chats"), exist_ok=True)
    with open(os.path.join(agents, ".gemini", "tmp", "my-app", "chats", "session-1.jsonl"), "w") as f:
        f.write(check_cli.gemini_chat())
    os.makedirs(os.path.join(agents, "copilot"), exist_ok=True)
    with open(os.path.join(agents, "copilot", "events.jsonl"), "w") as f:
        f.write(check_cli.copilot_events())
    html = os.path.join(work, "report.html")
    md = os.path.join(work, "report.md")
    p = subprocess.run([binary, "check", "corpus/mixed/2026", "corpus/clean", "corpus/agents", "--output", "html=" + html,
                        "--output", "markdown=" + md, "--format", "json", "--quiet"],
                       capture_output=True, cwd=work, timeout=120)
    results = json.loads(p.stdout)
    turns = results["turns"]
    dom, text = dump(work, "file://" + html)

    print("summary table and charts")
    with open(md) as f:
        md_rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in f.read().splitlines()
                   if l.startswith("| ") and not l.startswith("| agent") and l.count("|") == 6]
    check(dom.agent_rows == md_rows and len(md_rows) == 4, "the summary table is the Markdown one: %s vs %s"
          % (dom.agent_rows, md_rows))
    for chart in ("day", "agent", "project"):
        want = expected_groups(turns, chart)
        got = dom.bars.get(chart, {})
        check(set(got) == set(want) and all(abs(got[k] - want[k]) < 1e-3 for k in want),
              "chart %s: %s, computed %s" % (chart, got, want))
    rules = {}
    for t in turns:
        for c in t["claims"]:
            if t["action"] != "allow" and c["finding"] != "supported":
                rules[c["rule"]] = rules.get(c["rule"], 0) + 1
    check(dom.bars.get("rule") == {k: float(v) for k, v in rules.items()}, "chart rule: %s" % dom.bars.get("rule"))
    for finding, n in results["summary"]["findings"].items():
        check(dom.bars.get("finding", {}).get(finding) == n, "chart finding %s shows %d" % (finding, n))

    print("turns, flagged first")
    listed = [t for t in turns if t["action"] != "allow" or t["claims"]]
    check(len(dom.cards) == len(listed), "a card per turn with claims or flagged (%d, %d)" % (len(dom.cards), len(listed)))
    flags = ["action-allow" not in c["class"] for c in dom.cards]
    check(flags == sorted(flags, reverse=True) and any(flags), "flagged turns come first: %s" % flags)
    claims = [c for t in listed for c in t["claims"]]
    check(len(dom.marks) == len(claims), "a highlighted mark per claim (%d marks, %d claims)" % (len(dom.marks), len(claims)))
    texts = {(m["text"], m["finding"], m["rule"]) for m in dom.marks}
    for t in listed:
        for c in t["claims"]:
            b, e = c["span"]
            expected = t["final_message"].encode()[b:e].decode()
            check((expected, c["finding"], c["rule"]) in texts, "mark for %r (%s)" % (expected, c["finding"]))
    flagged_cards = [c for c in dom.cards if "action-block" in c["class"]]
    check(flagged_cards and all(c["reason"] for c in flagged_cards), "each blocked card folds the reason it got")
    with_nearest = [c for t in turns for c in t["claims"] if c.get("nearest")]
    nearest_text = "".join(x for c in dom.cards for x in c["nearest"])
    check(with_nearest and all(n["text"][:40] in nearest_text for c in with_nearest for n in c["nearest"]),
          "the nearest tool lines are shown under their claims")
    for key in ("finding", "rule", "agent", "project"):
        check(len(dom.options.get("filter-" + key, [])) >= 2, "filter %s has options: %s" % (key, dom.options.get("filter-" + key)))
    check("(%d flagged)" % sum(1 for t in turns if t["action"] != "allow") in dom.count, "count line: %r" % dom.count)
    check(not dom.external, "no external assets: %s" % dom.external)

    filtered, _ = dump(work, "file://" + html + "#agent=codex")
    codex = [t for t in listed if t["agent"] == "codex"]
    check(len(filtered.cards) == len(codex) >= 1 and all("codex" in c["text"] for c in filtered.cards),
          "#agent=codex shows only the Codex turns (%d of %d)" % (len(filtered.cards), len(codex)))

    print("screenshot")
    shot = os.path.join(work, "report.png")
    chromium(work, "file://" + html, "--window-size=1300,2400", "--screenshot=" + shot, "--hide-scrollbars")
    check(os.path.isfile(shot), "screenshot written: %s" % shot)
    if os.path.isfile(shot):
        width, height, channels, rows = png_pixels(shot)
        check(width == 1300 and height == 2400, "screenshot size %dx%d" % (width, height))
        red = colour_count(rows[:1400], channels, (0xc0, 0x39, 0x2b))
        gold = colour_count(rows[:1400], channels, (0xb7, 0x95, 0x0b))
        check(red > 5000 and gold > 1000, "the charts' bars are drawn (%d red, %d gold pixels)" % (red, gold))
        print("screenshot: %s" % shot)

    print("%d turns" % args.turns)
    big_json = os.path.join(work, "big.json")
    big_html = os.path.join(work, "big.html")
    flagged = big_results(big_json, args.turns)
    start = time.time()
    p = subprocess.run([binary, "merge", big_json, "--output", "html=" + big_html, "--quiet"], capture_output=True,
                       timeout=300)
    render = time.time() - start
    check(p.returncode == 1, "merge renders the big report (%d %s)" % (p.returncode, p.stderr[-300:]))
    tiny = os.path.join(work, "tiny.html")
    with open(tiny, "w") as f:
        f.write("<!DOCTYPE html><html><body data-ready=\"true\">x</body></html>")
    start = time.time()
    dump(work, "file://" + tiny)
    baseline = time.time() - start
    start = time.time()
    big, big_text = dump(work, "file://" + big_html)
    opened = time.time() - start
    check('data-ready="true"' in big_text, "the big report's script ran")
    check(len(big.cards) == 50 and ("(%d flagged)" % flagged) in big.count and
          all("action-block" in c["class"] for c in big.cards),
          "the first page: 50 blocked cards, %d flagged in all: %d %r" % (flagged, len(big.cards), big.count))
    size = os.path.getsize(big_html) / 1e6
    m = re.search(r'data-drawn-ms="(\d+)"', big_text)
    drawn = int(m.group(1)) / 1000 if m else float("inf")
    print("%d-turn report: %.1f MB, rendered by merge in %.2f s; in Chromium the first page is drawn %.2f s after "
          "the load starts (the whole --dump-dom run %.2f s, %.2f s on an empty page)"
          % (args.turns, size, render, drawn, opened, baseline))
    check(drawn < 10 * SCALE, "the big report draws its first page within 10 s of its load (%.2f s)" % drawn)
    print("%d failure(s)" % len(check_cli.FAILURES))
    return 1 if check_cli.FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
