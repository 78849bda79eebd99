// Folding for citation matching. ASCII bytes are folded inline (lower case,
// white space collapsed), which covers most tool output at memory speed;
// each maximal non-ASCII run goes through utf8proc with compatibility
// decomposition + case folding + composition (NFKC_Casefold-like) and
// default-ignorable stripping, so full-width "ＯＯＭ" matches "oom" and a
// zero-width space cannot split a word. Unicode white space (U+3000, NBSP)
// collapses like ASCII white space.
//
// FoldForRules is the lighter fold for rule matching: it undoes only the
// disguises a claim can wear (ignorables, compatibility letters, look-alike
// letters) and keeps everything else, because the packs' patterns are
// written against the text as people type it, Chinese punctuation included.
// Tests: tests/unit/evidence/text_fold_test.cc.
#include "evidence/text_fold.h"

#include <utf8proc.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

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

// Cyrillic and Greek letters drawn like a Latin letter in common fonts.
char LatinLookAlike(utf8proc_int32_t cp) {
  switch (cp) {
    // Cyrillic
    case 0x0430: return 'a';
    case 0x0441: return 'c';
    case 0x0501: return 'd';
    case 0x0435: return 'e';
    case 0x04BB: return 'h';
    case 0x0456: return 'i';
    case 0x0458: return 'j';
    case 0x043E: return 'o';
    case 0x0440: return 'p';
    case 0x051B: return 'q';
    case 0x0455: return 's';
    case 0x051D: return 'w';
    case 0x0445: return 'x';
    case 0x0443: return 'y';
    case 0x0410: return 'A';
    case 0x0412: return 'B';
    case 0x0421: return 'C';
    case 0x0415: return 'E';
    case 0x041D: return 'H';
    case 0x0406: return 'I';
    case 0x0408: return 'J';
    case 0x041A: return 'K';
    case 0x041C: return 'M';
    case 0x041E: return 'O';
    case 0x0420: return 'P';
    case 0x0405: return 'S';
    case 0x0422: return 'T';
    case 0x0425: return 'X';
    case 0x04AE: return 'Y';
    // Greek
    case 0x03B1: return 'a';
    case 0x03B9: return 'i';
    case 0x03BA: return 'k';
    case 0x03BD: return 'v';
    case 0x03BF: return 'o';
    case 0x03C1: return 'p';
    case 0x03C5: return 'u';
    case 0x0391: return 'A';
    case 0x0392: return 'B';
    case 0x0395: return 'E';
    case 0x0396: return 'Z';
    case 0x0397: return 'H';
    case 0x0399: return 'I';
    case 0x039A: return 'K';
    case 0x039C: return 'M';
    case 0x039D: return 'N';
    case 0x039F: return 'O';
    case 0x03A1: return 'P';
    case 0x03A4: return 'T';
    case 0x03A5: return 'Y';
    case 0x03A7: return 'X';
    default: return 0;
  }
}

bool IsAsciiAlnum(utf8proc_int32_t cp) {
  return (cp >= '0' && cp <= '9') || (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z');
}

bool IsAsciiLetter(utf8proc_int32_t cp) { return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z'); }

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

// One code point of FoldForRules' work list: a decoded character, or a
// byte that is not valid UTF-8 (kept as it is).
struct Unit {
  utf8proc_int32_t cp;
  int raw_byte;  // >= 0: an invalid byte, cp unused
};

}  // namespace

std::string FoldForRules(std::string_view text) {
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  const auto* end = p + text.size();
  const auto* first_non_ascii = p;
  while (first_non_ascii < end && *first_non_ascii < 0x80) ++first_non_ascii;
  if (first_non_ascii == end) return std::string(text);

  std::vector<Unit> units;
  units.reserve(text.size());
  while (p < end) {
    utf8proc_int32_t cp = 0;
    const utf8proc_ssize_t n = utf8proc_iterate(p, end - p, &cp);
    if (n <= 0) {
      units.push_back({0, *p});
      ++p;
      continue;
    }
    p += n;
    if (cp >= 0x80 && utf8proc_get_property(cp)->ignorable) continue;
    if (cp >= 0x80) {
      if (const utf8proc_int32_t ascii = AsciiCompatForm(cp)) cp = ascii;
    }
    units.push_back({cp, -1});
  }

  // Look-alikes are replaced word by word, only in words with a Latin letter.
  for (std::size_t i = 0; i < units.size();) {
    if (units[i].raw_byte >= 0 || !IsLetterOrMark(units[i].cp)) {
      ++i;
      continue;
    }
    std::size_t j = i;
    bool latin = false;
    while (j < units.size() && units[j].raw_byte < 0 && IsLetterOrMark(units[j].cp)) {
      latin = latin || IsAsciiLetter(units[j].cp);
      ++j;
    }
    if (latin) {
      for (std::size_t k = i; k < j; ++k) {
        if (const char c = LatinLookAlike(units[k].cp)) units[k].cp = c;
      }
    }
    i = j;
  }

  std::string out;
  out.reserve(text.size());
  for (const Unit& u : units) {
    if (u.raw_byte >= 0) {
      out.push_back(static_cast<char>(u.raw_byte));
      continue;
    }
    utf8proc_uint8_t buf[4];
    const utf8proc_ssize_t len = utf8proc_encode_char(u.cp, buf);
    out.append(reinterpret_cast<char*>(buf), static_cast<std::size_t>(len));
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
