#!/usr/bin/env python3
"""Prints the RE2 group for "one word that is none of these words", cheap to compile.

RE2 has no look-around, so a rule that needs "an object that is not a
preposition" spells the complement of a word list out as a trie: at each
prefix, any character that leaves the list, or a character that stays in it
and recurses; a prefix that is itself a listed word may not end there.

Compile cost, not matching, is what such a group spends (every hook process
compiles every pack; rules/QUALITY.md has the figures). Packs are matched
case-insensitively, and under case folding every class and \\w that holds s
or k also holds U+017F and U+212A, a small UTF-8 automaton each. So the group
is case-sensitive, (?-i:...), over ASCII [A-Za-z0-9_], with one \\w* after
all the ways out of the trie instead of one per node: words are excluded
exactly as written, and a capitalised form that matters ("We" opening a
sentence) is listed beside the lower-case one. Measured with callgrind, a
35-word list costs 3.1 M instructions to compile this way, 8.3 M in the old
one-\\w*-per-node, case-folded form; still, a positive list of the same words
costs a quarter of its complement, so list what may come when you can.

    python3 bench/quality/word_not_in.py to from by in on with
    python3 bench/quality/word_not_in.py i I we We you You

The group matches a whole word only when the pattern puts \\b before it and
a non-word character (\\s, \\b) after it.
"""
import argparse
import re
import string

ALPHABET = string.ascii_lowercase + string.ascii_uppercase + string.digits + "_"


def _char_class(excluded):
    chars = sorted((c for c in ALPHABET if c not in excluded), key=ord)
    out, i = [], 0
    while i < len(chars):
        j = i
        while j + 1 < len(chars) and ord(chars[j + 1]) == ord(chars[j]) + 1:
            j += 1
        out.append(chars[i] if i == j else chars[i] + ("-" if j > i + 1 else "") + chars[j])
        i = j + 1
    return "[" + "".join(out) + "]"


def _trie(words):
    root = {}
    for w in words:
        if not w or any(c not in ALPHABET for c in w):
            raise ValueError("not an ASCII word: %r" % w)
        node = root
        for c in w:
            node = node.setdefault(c, {})
        node["$"] = True
    return root


def _kids(node):
    return sorted((k for k in node if k != "$"), key=ord)


def _leave(node, first_letter=False):
    """Paths that leave the trie: a listed prefix, then a character no listed
    word continues with (at the root, only a letter when first_letter)."""
    excluded = _kids(node) + (list(string.digits) + ["_"] if first_letter else [])
    return "(?:" + "|".join([_char_class(excluded)] + [k + _leave(node[k]) for k in _kids(node)]) + ")"


def _literal(node):
    """The words of a trie as one nested alternation ("" for a bare end)."""
    alts = [k + _literal(node[k]) for k in _kids(node)]
    if not alts:
        return ""
    group = "(?:" + "|".join(alts) + ")"
    return group + "?" if "$" in node else group


def word_not_in(words, not_ly=False, first_letter=False):
    """The group for one word (\\w+) that is none of `words` (case-sensitive);
    with not_ly, a word that leaves the list must also not end in "ly" (an
    adverb: "decreased sharply"); with first_letter, it starts with a letter
    ("by 30%")."""
    trie = _trie(words)
    # The proper prefixes of listed words that are not listed themselves
    # ("fro" for "from") are words outside the list too.
    prefixes = []

    def walk(node, prefix):
        if prefix and "$" not in node:
            prefixes.append(prefix)
        for k in _kids(node):
            walk(node[k], prefix + k)

    walk(trie, "")
    # One \\w* after all the ways out, not one per trie node: the tail is what
    # costs at compile time.
    tail = r"(?:\w*[0-9A-Z_a-xz]|\w*[0-9A-Z_a-km-z]y|y)?" if not_ly else r"\w*"
    alts = [_leave(trie, first_letter) + tail]
    if prefixes:
        alts.append(_literal(_trie(prefixes))[3:-1])
    return "(?-i:" + "|".join(alts) + ")"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--not-ly", action="store_true", help="also refuse words that end in ly")
    ap.add_argument("--first-letter", action="store_true", help="the word must start with a letter")
    ap.add_argument("words", nargs="+")
    args = ap.parse_args()
    group = word_not_in(args.words, args.not_ly, args.first_letter)
    # Self-check with Python's re, whose syntax agrees with RE2 for this subset.
    rx = re.compile(r"\b" + group + r"(?!\w)")
    for w in args.words:
        assert not rx.fullmatch(w), w
    for w in ("zz", "x" + args.words[0], args.words[0] + "x", args.words[0].swapcase(), args.words[0][:-1] or "q"):
        assert rx.fullmatch(w) or w in args.words or (args.not_ly and w.endswith("ly")), w
    if args.not_ly:
        assert not rx.fullmatch("sharply")
    if args.first_letter:
        assert not rx.fullmatch("30") and not rx.fullmatch("_x")
    print(group)


if __name__ == "__main__":
    main()
