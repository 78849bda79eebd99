// Folding for citation matching. ASCII bytes are folded inline (lower case,
// white space collapsed), which covers most tool output at memory speed;
// each maximal non-ASCII run goes through utf8proc with compatibility
// decomposition + case folding + composition (NFKC_Casefold-like) and
// default-ignorable stripping, so full-width "ＯＯＭ" matches "oom" and a
// zero-width space cannot split a word. Unicode white space (U+3000, NBSP)
// collapses like ASCII white space.
// Tests: tests/unit/evidence/text_fold_test.cc.
#include "evidence/text_fold.h"

#include <utf8proc.h>

#include <cstdint>
#include <cstdlib>

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
