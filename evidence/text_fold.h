// Text comparison as the spec defines it for citations: Unicode-aware case
// folding with compatibility mapping (full-width letters match ASCII),
// default-ignorable characters (zero-width spaces, joiners) removed, every
// run of white space collapsed to one space, ends trimmed. ASCII runs take a
// fast path; other runs go through utf8proc. Invalid UTF-8 bytes are kept
// as U+FFFD so folding never fails.
// Tests: tests/unit/evidence/text_fold_test.cc.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace causegate::evidence {

std::string FoldForMatch(std::string_view text);

// The text rule packs match against, with the disguises of a claim word
// undone: default-ignorable code points (zero-width space and joiners,
// soft hyphen, BOM) and bidi controls dropped; every Unicode space (NBSP,
// U+2000..U+200A, U+202F, U+205F, U+3000) read as ' ' and every dash,
// hyphen and minus sign (U+2010..U+2015, U+2212, U+FE58, U+FE63, U+FF0D)
// as '-'; combining diacritics dropped and accented letters read without
// their accents ("rooť" reads "root"); a letter or digit whose
// compatibility form is one ASCII letter or digit (full-width "ｂ",
// mathematical "𝐛", circled "ⓑ") replaced by it; and a letter drawn like
// an ASCII letter by Unicode's confusables skeleton (Cyrillic "о" and
// "с", Greek "ο") replaced by that letter, in a word that also holds an
// ASCII letter or whose every letter is such a look-alike. Case, other
// white space, punctuation (full-width punctuation included, which zh
// patterns name), Han, kana and Hangul, the letters of words of another
// script ("привет"; their accents go) and invalid UTF-8 bytes are kept as
// written, so ASCII text and Chinese text come back unchanged. Never
// fails.
std::string FoldForRules(std::string_view text);

// Code points in valid UTF-8 (each invalid byte counts as one).
std::size_t CountCodePoints(std::string_view text);
// Han-script code points (CJK unified ideographs and their extensions).
std::size_t CountHan(std::string_view text);

// True when more Han characters than ASCII letters appear: the language a
// claim's reason is written in.
bool LooksChinese(std::string_view text);

}  // namespace causegate::evidence
