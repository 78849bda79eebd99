#!/usr/bin/env python3
"""End-to-end: the HTML report of `causegate check`, opened in a real
browser. Headless Chromium (Debian package `chromium`, installed by
`scripts/install-deps --browser`) loads the page from disk and dumps the
DOM it built; every claim of the JSON results must be there as a
highlighted <mark class="claim"> holding its sentence, with its finding,
and the chart must have a bar per finding with the right counts. The page
must ask for nothing from the network.

Exits 77 (skipped) when /usr/bin/chromium is not installed.
"""
import argparse
import json
import os
import subprocess
import sys
from html.parser import HTMLParser

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_cli  # noqa: E402  (its corpus)

CHROMIUM = "/usr/bin/chromium"


class Dom(HTMLParser):
    """Collects the marks (their text and attributes) and the chart bars."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.marks, self.bars, self.external = [], {}, []
        self._open = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "mark" and "claim" in (a.get("class") or "").split():
            self._open = {"finding": a.get("data-finding"), "rule": a.get("data-rule"), "text": ""}
        if tag == "g" and a.get("class") == "bar":
            self.bars[a.get("data-finding")] = int(a.get("data-count"))
        for key in ("src", "href"):
            value = a.get(key) or ""
            if value and not value.startswith("#") and not value.startswith("data:"):
                self.external.append(value)

    def handle_endtag(self, tag):
        if tag == "mark" and self._open is not None:
            self.marks.append(self._open)
            self._open = None

    def handle_data(self, data):
        if self._open is not None:
            self._open["text"] += data


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    if not os.access(CHROMIUM, os.X_OK):
        print("SKIP: %s not installed (scripts/install-deps --browser installs it)" % CHROMIUM)
        return 77
    work = os.path.abspath(args.work)
    check_cli.write_corpus(os.path.join(work, "corpus"))
    html = os.path.join(work, "report.html")
    p = subprocess.run([os.path.abspath(args.bin), "check", "corpus/mixed/2026", "--output", "html=" + html,
                        "--format", "json", "--quiet"], capture_output=True, cwd=work, timeout=120)
    results = json.loads(p.stdout)
    dom_text = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                               "--user-data-dir=" + os.path.join(work, "chromium-profile"), "--dump-dom",
                               "file://" + html], capture_output=True, timeout=120).stdout.decode("utf-8", "replace")
    dom = Dom()
    dom.feed(dom_text)
    claims = [(t, c) for t in results["turns"] for c in t["claims"]]
    check_cli.check(len(claims) > 0, "the corpus has claims")
    check_cli.check(len(dom.marks) == len(claims), "a highlighted mark per claim (%d marks, %d claims)"
                    % (len(dom.marks), len(claims)))
    for mark, (turn, claim) in zip(dom.marks, claims):
        b, e = claim["span"]
        expected = turn["final_message"].encode()[b:e].decode()
        check_cli.check(mark["text"] == expected, "mark holds the claim: %r vs %r" % (mark["text"], expected))
        check_cli.check(mark["finding"] == claim["finding"] and mark["rule"] == claim["rule"],
                        "mark carries finding and rule: %s" % mark)
    for finding, n in results["summary"]["findings"].items():
        check_cli.check(dom.bars.get(finding) == n, "chart bar for %s shows %d" % (finding, n))
    check_cli.check(not dom.external, "no external assets: %s" % dom.external)
    print("%d marks, %d bars; %d failure(s)" % (len(dom.marks), len(dom.bars), len(check_cli.FAILURES)))
    return 1 if check_cli.FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
