#!/usr/bin/env python3
"""Prints the RE2 group for "one ASCII word that is none of these words".

RE2 has no look-around, so a rule that needs "a subject that is not I / we /
you" spells the complement of a word list out as a trie: at each prefix, any
letter that leaves the list, or a letter that stays in it and recurses; a
prefix that is itself a listed word may not end there. The rules
en.claim.acts-on, en.claim.plural-acts, en.claim.modal-acts,
en.claim.passive-by, en.hedge.modal and en.hedge.adverb use such groups; their
descriptions list the words, so a group can be rewritten with

    python3 bench/quality/word_not_in.py i we you
    python3 bench/quality/word_not_in.py --first-letter one two half

The group matches a whole word only when the pattern puts \\b before it and
a non-word character (\\s, \\b) after it. Patterns are matched
case-insensitively, so the words are given in lower case.
"""
import argparse
import re
import string

ALNUM = string.ascii_lowercase + string.digits + "_"


def _char_class(excluded):
    chars = [c for c in ALNUM if c not in excluded]
    out, i = [], 0
    while i < len(chars):
        j = i
        while j + 1 < len(chars) and ord(chars[j + 1]) == ord(chars[j]) + 1:
            j += 1
        out.append(chars[i] if i == j else chars[i] + ("-" if j > i + 1 else "") + chars[j])
        i = j + 1
    return "[" + "".join(out) + "]"


def word_not_in(words, first_letter=False):
    """The group for one word (\\w+) that is none of `words`; with
    first_letter, the word must also start with a letter."""
    trie = {}
    for w in words:
        node = trie
        for c in w.lower():
            node = node.setdefault(c, {})
        node["$"] = True

    def rec(node, prefix):
        kids = sorted(k for k in node if k != "$")
        leave = kids + (list(string.digits) + ["_"] if first_letter and not prefix else [])
        alts = [_char_class(leave) + r"\w*"]
        alts += [re.escape(k) + rec(node[k], prefix + k) for k in kids]
        may_end = bool(prefix) and "$" not in node
        return "(?:" + "|".join(alts) + ")" + ("?" if may_end else "")

    return rec(trie, "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first-letter", action="store_true", help="the word must start with a letter")
    ap.add_argument("words", nargs="+")
    args = ap.parse_args()
    group = word_not_in(args.words, args.first_letter)
    # Self-check with Python's re, whose syntax agrees with RE2 for this subset.
    rx = re.compile(r"\b" + group + r"(?!\w)", re.IGNORECASE)
    for w in args.words:
        assert not rx.fullmatch(w), w
    for w in ("zz", "x" + args.words[0], args.words[0] + "x"):
        assert rx.fullmatch(w) or w.lower() in args.words, w
    print(group)


if __name__ == "__main__":
    main()
