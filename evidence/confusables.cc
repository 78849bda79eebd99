// The skeleton of UTS #39 maps every character to a prototype of the
// characters it is confusable with, so two strings that look alike get the
// same skeleton. The prototypes are not always the ASCII letter a reader
// sees: skeleton("I") is "l" and skeleton("m") is "rn". So the skeletons of
// the 52 ASCII letters are computed once, and a letter whose skeleton is one
// of them is read as that ASCII letter (in its own case where the skeleton
// is shared: Cyrillic І is "I", Cyrillic і "i"). A skeleton made of ASCII
// letters that is no single letter's ("fi" for ﬁ) is taken as it is.
//
// ICU is loaded with dlopen on the first look-alike candidate a text holds,
// not linked: loading libicuuc and libicui18n at start-up cost every hook
// call about 0.9 ms (1.4 M instructions of symbol binding, measured on
// `causegate --version`), although nearly every call folds ASCII text only.
// The library is the one the headers name (libicui18n.so.<major>, from the
// same libicu-dev the build used), and the entry points are ICU's own
// versioned names. When it cannot be loaded, nothing is mapped and one
// warning says so; the fold goes on without look-alikes.
// Tests: tests/unit/evidence/text_fold_rules_test.cc.
#include "evidence/confusables.h"

#include <dlfcn.h>
#include <spdlog/spdlog.h>
#include <unicode/uspoof.h>
#include <unicode/uvernum.h>
#include <utf8proc.h>

#include <map>
#include <string_view>

namespace causegate::evidence {
namespace {

// ICU's names carry its version (uspoof_open is a macro for uspoof_open_72):
// spell them as the headers do.
#define CAUSEGATE_ICU_NAME_(name) #name
#define CAUSEGATE_ICU_NAME(name) CAUSEGATE_ICU_NAME_(name)

constexpr const char* kIcuLibrary = "libicui18n.so." U_ICU_VERSION_SHORT;

struct Skeletons {
  decltype(&uspoof_getSkeletonUTF8) skeleton = nullptr;
  USpoofChecker* checker = nullptr;  // null when ICU did not load
  // An ASCII letter's skeleton -> the ASCII letters that have it.
  std::map<std::string, std::string, std::less<>> ascii;

  std::string Of(char32_t cp) const {
    utf8proc_uint8_t in[4];
    const utf8proc_ssize_t length = utf8proc_encode_char(static_cast<utf8proc_int32_t>(cp), in);
    if (length <= 0) return "";
    char out[64];
    UErrorCode status = U_ZERO_ERROR;
    const int32_t n = skeleton(checker, 0, reinterpret_cast<const char*>(in), static_cast<int32_t>(length), out,
                               sizeof out, &status);
    if (U_FAILURE(status) || n <= 0 || n > static_cast<int32_t>(sizeof out)) return "";
    return std::string(out, static_cast<std::size_t>(n));
  }
};

Skeletons* Load() {
  auto* s = new Skeletons;
  void* library = dlopen(kIcuLibrary, RTLD_NOW | RTLD_LOCAL);  // never closed: used until exit
  if (library == nullptr) {
    spdlog::warn("look-alike letters are not folded: {}", dlerror());
    return s;
  }
  auto open = reinterpret_cast<decltype(&uspoof_open)>(dlsym(library, CAUSEGATE_ICU_NAME(uspoof_open)));
  s->skeleton =
      reinterpret_cast<decltype(&uspoof_getSkeletonUTF8)>(dlsym(library, CAUSEGATE_ICU_NAME(uspoof_getSkeletonUTF8)));
  UErrorCode status = U_ZERO_ERROR;
  USpoofChecker* checker = open && s->skeleton ? open(&status) : nullptr;
  if (checker == nullptr || U_FAILURE(status)) {
    spdlog::warn("look-alike letters are not folded: {}: the spoof checker did not open (ICU error {})", kIcuLibrary,
                 static_cast<int>(status));
    return s;
  }
  s->checker = checker;
  for (const char* range : {"az", "AZ"}) {
    for (char c = range[0]; c <= range[1]; ++c) s->ascii[s->Of(static_cast<char32_t>(c))] += c;
  }
  return s;
}

const Skeletons& Get() {
  static const Skeletons* const skeletons = Load();  // never freed: read by every thread until exit
  return *skeletons;
}

bool AllAsciiLetters(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  }
  return true;
}

bool InScriptLikeLatin(char32_t cp) {
  struct Block {
    char32_t first, last;
  };
  static constexpr Block kBlocks[] = {
      {0x00AA, 0x02FF},  // Latin-1 letters, Latin Extended-A/B, IPA, modifier letters
      {0x0370, 0x052F},  // Greek and Coptic, Cyrillic and its supplement
      {0x0530, 0x058F},  // Armenian
      {0x13A0, 0x13FF},  // Cherokee
      {0x1400, 0x167F},  // Canadian syllabics
      {0x1C80, 0x1C8F},  // Cyrillic Extended-C
      {0x1D00, 0x1DBF},  // phonetic extensions (small capitals)
      {0x1E00, 0x1FFF},  // Latin Extended Additional, Greek Extended
      {0x2100, 0x214F},  // letterlike symbols
      {0x2C60, 0x2CFF},  // Latin Extended-C, Coptic
      {0x2DE0, 0x2DFF},  // Cyrillic Extended-A
      {0xA4D0, 0xA4FF},  // Lisu
      {0xA640, 0xA69F},  // Cyrillic Extended-B
      {0xA720, 0xA7FF},  // Latin Extended-D
      {0xAB30, 0xABBF},  // Latin Extended-E, Cherokee supplement
      {0xFB00, 0xFB17},  // Latin and Armenian ligatures
  };
  for (const Block& b : kBlocks) {
    if (cp >= b.first && cp <= b.last) return true;
  }
  return false;
}

}  // namespace

bool MayLookLatin(char32_t cp) {
  if (!InScriptLikeLatin(cp)) return false;
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(cp))) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO: return true;
    default: return false;
  }
}

std::string AsciiLookAlike(char32_t cp) {
  if (!MayLookLatin(cp)) return "";
  const Skeletons& s = Get();
  if (!s.checker) return "";
  const std::string skeleton = s.Of(cp);
  if (const auto it = s.ascii.find(skeleton); it != s.ascii.end()) {
    const std::string& letters = it->second;
    const utf8proc_category_t cat = utf8proc_category(static_cast<utf8proc_int32_t>(cp));
    const bool upper = cat == UTF8PROC_CATEGORY_LU || cat == UTF8PROC_CATEGORY_LT;
    for (const char c : letters) {
      if ((c >= 'A' && c <= 'Z') == upper) return std::string(1, c);
    }
    return std::string(1, letters.front());
  }
  return AllAsciiLetters(skeleton) ? skeleton : "";
}

}  // namespace causegate::evidence
