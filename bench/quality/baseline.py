"""The naive baseline every quality figure is printed beside (issue #3): one
regex of the obvious cue words, and for hedges one regex of the obvious hedge
words. A claim, for the baseline, is a causal match without a hedge match."""
import re

BASELINE_CAUSAL = re.compile(
    r"\bbecause\b|\bdue to\b|\bcaus(?:e|es|ed|ing) by\b|\broot causes?\b|\b(?:lead|leads|leading|led) to\b"
    r"|因为|由于|导致|原因", re.IGNORECASE)
BASELINE_HEDGE = re.compile(
    r"\b(?:may|might|could|possibly|probably|likely|perhaps|suggests?)\b|可能|也许|或许", re.IGNORECASE)


def baseline_claim(text):
    return bool(BASELINE_CAUSAL.search(text)) and not BASELINE_HEDGE.search(text)
