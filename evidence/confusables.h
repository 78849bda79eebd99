// Look-alike letters through Unicode's confusables skeleton (UTS #39), as
// ICU's USpoofChecker computes it: which ASCII letters a letter of another
// script is drawn like. Internal to evidence/: FoldForRules (text_fold.h)
// uses it to read "rооt" with Cyrillic о as "root". ICU stays in
// confusables.cc; this header exposes our own types only.
// Thread-safe: the checker is opened once, on first use, and only read.
// Tests: tests/unit/evidence/text_fold_rules_test.cc.
#pragma once

#include <string>

namespace causegate::evidence {

// True for a letter of a script that has look-alikes of Latin letters
// (Latin itself, Greek, Cyrillic, Armenian, Cherokee, Coptic, Lisu,
// Canadian syllabics). Han, kana, Hangul and every other script: false, so
// Chinese text never reaches the skeleton.
bool MayLookLatin(char32_t cp);

// The ASCII letters cp is drawn like: "o" for Cyrillic о, "I" for Cyrillic
// І, "a" for Latin ɑ, "fi" for the ligature ﬁ. A skeleton shared by two
// ASCII letters (I and l) is read in cp's own case. "" when cp looks like
// no ASCII letters, is ASCII itself, or ICU's data cannot be opened (then
// nothing is mapped; the fold still works without it).
// REQUIRES: MayLookLatin(cp), else the answer is "".
std::string AsciiLookAlike(char32_t cp);

}  // namespace causegate::evidence
