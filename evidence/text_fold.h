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

// The text rule packs match against, with the disguises of spec section
// 3.4 undone: default-ignorable code points (zero-width space and joiners,
// soft hyphen, BOM) dropped; a letter or digit whose compatibility form is
// one ASCII letter or digit (full-width "ｂ", mathematical "𝐛", circled
// "ⓑ") replaced by it; and in a word that also holds a Latin letter, the
// Cyrillic and Greek look-alikes of Latin letters ("bеcаusе" with Cyrillic
// е and а) replaced by those letters. Case, white space, punctuation
// (full-width punctuation included, which zh patterns name), words wholly
// in another script and invalid UTF-8 bytes are kept as written, so a text
// without disguises comes back unchanged.
std::string FoldForRules(std::string_view text);

// Code points in valid UTF-8 (each invalid byte counts as one).
std::size_t CountCodePoints(std::string_view text);
// Han-script code points (CJK unified ideographs and their extensions).
std::size_t CountHan(std::string_view text);

// True when more Han characters than ASCII letters appear: the language a
// claim's reason is written in.
bool LooksChinese(std::string_view text);

}  // namespace causegate::evidence
