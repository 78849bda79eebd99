// Folding for citation matching. ASCII bytes are folded inline (lower case,
// white space collapsed), which covers most tool output at memory speed;
// each maximal non-ASCII run goes through utf8proc with compatibility
// decomposition + case folding + composition (NFKC_Casefold-like) and
// default-ignorable stripping, so full-width "ＯＯＭ" matches "oom" and a
// zero-width space cannot split a word. Unicode white space (U+3000, NBSP)
// collapses like ASCII white space.
//
// FoldForRules is the lighter fold for rule matching: it undoes only the
// disguises a claim can wear (ignorables and bidi controls, Unicode spaces
// and dashes, stacked accents, compatibility letters, look-alike letters)
// and keeps everything else, because the packs' patterns are written
// against the text as people type it, Chinese punctuation included.
// Look-alikes come from Unicode's confusables skeleton through ICU
// (confusables.h), asked only for letters of scripts drawn like Latin, so
// ASCII text (returned at once) and Chinese never reach ICU.
// Tests: tests/unit/evidence/text_fold_test.cc, text_fold_rules_test.cc.
#include "evidence/text_fold.h"

#include <utf8proc.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "evidence/confusables.h"

namespace causegate::evidence {
namespace {

bool IsAsciiSpace(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Appends one space unless the output is empty or already ends in one.
void PushSpace(std::string* out) {
  if (!out->empty() && out->back() != ' ') out->push_back(' ');
}

bool IsUnicodeSpace(utf8proc_int32_t cp) {
  const utf8proc_category_t cat = utf8proc_category(cp);
  return cat == UTF8PROC_CATEGORY_ZS || cat == UTF8PROC_CATEGORY_ZL ||
         cat == UTF8PROC_CATEGORY_ZP || cp == 0x85;
}

// Folds one non-ASCII run [begin, end) and appends it.
void FoldRun(const unsigned char* begin, const unsigned char* end, std::string* out) {
  // Map each code point on its own so that invalid bytes become U+FFFD
  // instead of failing the whole run.
  const unsigned char* p = begin;
  std::string run;
  while (p < end) {
    utf8proc_int32_t cp = 0;
    utf8proc_ssize_t n = utf8proc_iterate(p, end - p, &cp);
    if (n <= 0) {
      cp = 0xFFFD;
      n = 1;
    }
    p += n;
    if (IsUnicodeSpace(cp)) {
      if (!run.empty()) {
        utf8proc_uint8_t* mapped = nullptr;
        const auto options = static_cast<utf8proc_option_t>(
            UTF8PROC_COMPAT | UTF8PROC_CASEFOLD | UTF8PROC_COMPOSE | UTF8PROC_IGNORE);
        if (utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(run.data()),
                         static_cast<utf8proc_ssize_t>(run.size()), &mapped, options) >= 0) {
          out->append(reinterpret_cast<char*>(mapped));
        }
        std::free(mapped);
        run.clear();
      }
      PushSpace(out);
      continue;
    }
    utf8proc_uint8_t buf[4];
    const utf8proc_ssize_t len = utf8proc_encode_char(cp, buf);
    run.append(reinterpret_cast<char*>(buf), static_cast<std::size_t>(len));
  }
  if (run.empty()) return;
  utf8proc_uint8_t* mapped = nullptr;
  const auto options = static_cast<utf8proc_option_t>(
      UTF8PROC_COMPAT | UTF8PROC_CASEFOLD | UTF8PROC_COMPOSE | UTF8PROC_IGNORE);
  const utf8proc_ssize_t n =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(run.data()),
                   static_cast<utf8proc_ssize_t>(run.size()), &mapped, options);
  if (n >= 0) {
    // Compatibility mapping can produce ASCII (full-width letters, ideographic
    // space has been handled above); fold its case and spaces too.
    for (utf8proc_ssize_t i = 0; i < n; ++i) {
      const unsigned char c = mapped[i];
      if (IsAsciiSpace(c)) {
        PushSpace(out);
      } else {
        out->push_back(static_cast<char>(c));
      }
    }
  }
  std::free(mapped);
}

}  // namespace

std::string FoldForMatch(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    const unsigned char c = *p;
    if (c < 0x80) {
      if (IsAsciiSpace(c)) {
        PushSpace(&out);
      } else if (c >= 'A' && c <= 'Z') {
        out.push_back(static_cast<char>(c - 'A' + 'a'));
      } else if (c != 0) {
        out.push_back(static_cast<char>(c));
      }
      ++p;
      continue;
    }
    const unsigned char* run_end = p;
    while (run_end < end && *run_end >= 0x80) ++run_end;
    FoldRun(p, run_end, &out);
    p = run_end;
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  if (!out.empty() && out.front() == ' ') out.erase(0, 1);
  return out;
}

namespace {

bool IsAsciiAlnum(utf8proc_int32_t cp) {
  return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
}

bool IsAsciiLetter(utf8proc_int32_t cp) { return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z'); }

// Han, kana, Hangul, Bopomofo, Yi and the full- and half-width forms: text
// the zh patterns are written against, passed through as it is (the
// full-width letters and digits among them are folded before this test).
bool IsCjk(utf8proc_int32_t cp) {
  return (cp >= 0x1100 && cp <= 0x11FF) || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xA960 && cp <= 0xA97F) ||
         (cp >= 0xAC00 && cp <= 0xD7FF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
         (cp >= 0xFF00 && cp <= 0xFFEF) || (cp >= 0x1B000 && cp <= 0x1B16F) || (cp >= 0x20000 && cp <= 0x3FFFF);
}

bool IsLetterOrMark(utf8proc_int32_t cp) {
  switch (utf8proc_category(cp)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ME: return true;
    default: return false;
  }
}

// Dashes and hyphens (Pd) and the minus signs, read as '-'. The CJK wave
// and vertical dashes are punctuation of their own and stay.
bool IsDash(utf8proc_int32_t cp) {
  if (cp == 0x2212 || cp == 0x2796 || cp == 0x02D7) return true;  // minus, heavy minus, modifier minus
  if (cp == 0x301C || cp == 0x3030 || cp == 0x30A0 || cp == 0xFE31 || cp == 0xFE32) return false;
  return utf8proc_category(cp) == UTF8PROC_CATEGORY_PD;
}

// Combining diacritical marks: an accent stacked on a letter ("rooť" with a
// combining caron reads "root"). Marks that belong to a script's own
// letters (Indic vowel signs, kana voicing) are not in these blocks.
bool IsCombiningDiacritic(utf8proc_int32_t cp) {
  return (cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x0483 && cp <= 0x0489) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
         (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) || (cp >= 0xFE20 && cp <= 0xFE2F);
}

// Bidirectional controls. They are default-ignorable, so utf8proc marks
// them too; named here so that the fold does not depend on that.
bool IsBidiControl(utf8proc_int32_t cp) {
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

// A letter or digit whose compatibility decomposition is one ASCII letter
// or digit: that character, else 0.
utf8proc_int32_t AsciiCompatForm(utf8proc_int32_t cp) {
  const utf8proc_category_t cat = utf8proc_category(cp);
  const bool alnum = cat == UTF8PROC_CATEGORY_LU || cat == UTF8PROC_CATEGORY_LL || cat == UTF8PROC_CATEGORY_LT ||
                     cat == UTF8PROC_CATEGORY_ND || cat == UTF8PROC_CATEGORY_SO;  // SO: circled letters
  if (!alnum) return 0;
  utf8proc_int32_t decomposed[4];
  int last_boundclass = 0;
  const utf8proc_ssize_t n = utf8proc_decompose_char(cp, decomposed, 4,
      static_cast<utf8proc_option_t>(UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT), &last_boundclass);
  return n == 1 && IsAsciiAlnum(decomposed[0]) ? decomposed[0] : 0;
}

// A precomposed letter without its diacritics ("é" -> "e", "й" -> "и"):
// the first code point of its canonical decomposition, when the rest are
// combining diacritics; else the letter itself.
utf8proc_int32_t BaseLetter(utf8proc_int32_t cp) {
  utf8proc_int32_t decomposed[8];
  int last_boundclass = 0;
  const utf8proc_ssize_t n = utf8proc_decompose_char(cp, decomposed, 8, UTF8PROC_DECOMPOSE, &last_boundclass);
  if (n < 2 || n > 8) return cp;
  for (utf8proc_ssize_t i = 1; i < n; ++i) {
    if (!IsCombiningDiacritic(decomposed[i])) return cp;
  }
  return decomposed[0];
}

// One code point of FoldForRules' work list: a decoded character, or a
// byte that is not valid UTF-8 (kept as it is).
struct Unit {
  utf8proc_int32_t cp;
  int raw_byte;       // >= 0: an invalid byte, cp unused
  std::string latin;  // a look-alike letter: the ASCII letters it reads as
};

bool InWord(const Unit& u) { return u.raw_byte < 0 && IsLetterOrMark(u.cp) && !IsCjk(u.cp); }

}  // namespace

std::string FoldForRules(std::string_view text) {
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  const auto* end = p + text.size();
  const auto* first_non_ascii = p;
  while (first_non_ascii < end && *first_non_ascii < 0x80) ++first_non_ascii;
  if (first_non_ascii == end) return std::string(text);

  std::vector<Unit> units;
  units.reserve(text.size());
  bool may_look_latin = false;
  while (p < end) {
    utf8proc_int32_t cp = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(p, end - p, &cp);
    if (n <= 0) {
      units.push_back({0, *p, {}});
      ++p;
      continue;
    }
    p += n;
    if (cp >= 0x80) {
      if (IsBidiControl(cp) || utf8proc_get_property(cp)->ignorable || IsCombiningDiacritic(cp)) continue;
      if (IsUnicodeSpace(cp)) {
        cp = ' ';
      } else if (IsDash(cp)) {
        cp = '-';
      } else if (const utf8proc_int32_t ascii = AsciiCompatForm(cp)) {
        cp = ascii;
      } else if (!IsCjk(cp) && MayLookLatin(static_cast<char32_t>(cp))) {
        cp = BaseLetter(cp);
        if (cp >= 0x80) may_look_latin = true;
      }
    }
    units.push_back({cp, -1, {}});
  }

  // Look-alikes are read word by word: in a word that holds an ASCII letter
  // ("rооt" with Cyrillic о), and in a word every letter of which is drawn
  // like an ASCII letter (Cyrillic "сор" reads "cop"). A word with a letter
  // that looks like none ("привет") is that language and stays as written.
  for (std::size_t i = 0; may_look_latin && i < units.size();) {
    if (!InWord(units[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    bool ascii_letter = false;
    bool all_look_latin = true;
    bool any_look_alike = false;
    for (; j < units.size() && InWord(units[j]); ++j) {
      Unit& u = units[j];
      if (IsAsciiLetter(u.cp)) {
        ascii_letter = true;
        continue;
      }
      if (u.cp >= 0x80 && MayLookLatin(static_cast<char32_t>(u.cp))) {
        u.latin = AsciiLookAlike(static_cast<char32_t>(u.cp));
      }
      any_look_alike = any_look_alike || !u.latin.empty();
      all_look_latin = all_look_latin && !u.latin.empty();
    }
    if (any_look_alike && !ascii_letter && !all_look_latin) {
      for (std::size_t k = i; k < j; ++k) units[k].latin.clear();
    }
    i = j;
  }

  std::string out;
  out.reserve(text.size());
  for (const Unit& u : units) {
    if (u.raw_byte >= 0) {
      out.push_back(static_cast<char>(u.raw_byte));
    } else if (!u.latin.empty()) {
      out += u.latin;
    } else {
      utf8proc_uint8_t buf[4];
      const utf8proc_ssize_t len = utf8proc_encode_char(u.cp, buf);
      out.append(reinterpret_cast<char*>(buf), static_cast<std::size_t>(len));
    }
  }
  return out;
}

std::size_t CountCodePoints(std::string_view text) {
  std::size_t count = 0;
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    utf8proc_int32_t cp = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(p, end - p, &cp);
    p += n > 0 ? n : 1;
    ++count;
  }
  return count;
}

namespace {
bool IsHan(utf8proc_int32_t cp) {
  return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
         (cp >= 0x20000 && cp <= 0x2EBEF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0x30000 && cp <= 0x3134F);
}
}  // namespace

std::size_t CountHan(std::string_view text) {
  std::size_t count = 0;
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    utf8proc_int32_t cp = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(p, end - p, &cp);
    if (n <= 0) {
      ++p;
      continue;
    }
    if (IsHan(cp)) ++count;
    p += n;
  }
  return count;
}

bool LooksChinese(std::string_view text) {
  std::size_t latin = 0;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) ++latin;
  }
  // A Han character carries about as much as a short English word.
  return CountHan(text) * 3 > latin;
}

}  // namespace causegate::evidence
