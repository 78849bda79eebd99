// The DOM parser per thread, field look-ups, and ParseCut: a line's long
// strings found by their quotes (an unescaped '"' outside a string opens
// one, the next unescaped one closes it, as JSON reads them), checked and
// replaced by "\u0000\u0001N", N the string's index; no string simdjson
// reads can begin with those two characters unless it is written so, and
// a line with such a string is parsed whole. The check accepts only what
// simdjson reads the same way (see Escape), so decoding here gives
// simdjson's bytes.
// Tests: tests/unit/evidence/claude_fast_line_test.cc (long strings, their
// escapes and what is refused, against ParseClaudeLine).
#include "evidence/simd_json.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "evidence/limits.h"

namespace causegate::evidence::simd {
namespace {

using simdjson::dom::parser;

std::unique_ptr<parser> NewParser() {
  auto p = std::make_unique<parser>(limits::kMaxTranscriptLineBytes + (1u << 20));
  // allocate() fixes the depth limit that later growth keeps.
  // simdjson counts the document itself as a level: kMaxJsonDepth nested
  // arrays and objects, as JsonDepthWithin allows, need one more.
  if (p->allocate(64u << 10, limits::kMaxJsonDepth + 1) != simdjson::SUCCESS) return nullptr;
  return p;
}

parser* ThreadParser(std::size_t next_size) {
  thread_local std::unique_ptr<parser> p;
  if (p != nullptr && p->capacity() > kSimdKeepBytes && next_size <= kSimdKeepBytes) p.reset();
  if (p == nullptr) p = NewParser();
  return p.get();
}

// A placeholder as written in the skeleton, and as simdjson reads it.
constexpr std::string_view kMarkWritten = "\\u0000\\u0001";
constexpr std::string_view kMarkRead("\0\x01", 2);

// The first byte of [p, end) that is a quote, a backslash or a control
// character (below 0x20), or end: 32 bytes at a time where the processor
// has AVX2, else 16 (x86-64), else one.
#if defined(__x86_64__)
__attribute__((target("avx2"))) const char* NextSpecialAvx2(const char* p, const char* end) {
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i control = _mm256_set1_epi8(0x1F);
  for (; end - p >= 32; p += 32) {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i hit =
        _mm256_or_si256(_mm256_or_si256(_mm256_cmpeq_epi8(x, quote), _mm256_cmpeq_epi8(x, backslash)),
                        _mm256_cmpeq_epi8(_mm256_min_epu8(x, control), x));
    const auto mask = static_cast<unsigned>(_mm256_movemask_epi8(hit));
    if (mask != 0) return p + __builtin_ctz(mask);
  }
  while (p < end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) ++p;
  return p;
}

const bool kAvx2 = __builtin_cpu_supports("avx2");
#endif

const char* NextSpecial(const char* p, const char* end) {
#if defined(__x86_64__)
  if (kAvx2) return NextSpecialAvx2(p, end);
#endif
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i control = _mm_set1_epi8(0x1F);
  for (; end - p >= 16; p += 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
                                     _mm_cmpeq_epi8(_mm_min_epu8(x, control), x));
    const int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
  }
#endif
  while (p < end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) ++p;
  return p;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The code unit of "\uXXXX" at p, or -1; fewer than 6 bytes before end: -1.
long Hex4(const char* p, const char* end) {
  if (end - p < 6 || p[0] != '\\' || p[1] != 'u') return -1;
  long unit = 0;
  for (int i = 2; i < 6; ++i) {
    const int d = HexDigit(p[i]);
    if (d < 0) return -1;
    unit = unit * 16 + d;
  }
  return unit;
}

// What each two-byte escape reads as ("\\n": '\n'), 0 for the others.
constexpr std::array<char, 256> kShortEscape = [] {
  std::array<char, 256> t{};
  t['"'] = '"';
  t['\\'] = '\\';
  t['/'] = '/';
  t['b'] = '\b';
  t['f'] = '\f';
  t['n'] = '\n';
  t['r'] = '\r';
  t['t'] = '\t';
  return t;
}();

// The \u escape at p: its length as written (6, or 12 for a surrogate
// pair) and its code point (*cp), or 0 for one left to simdjson: a bad
// one, or a surrogate that is not a high one followed by a low one.
std::size_t UnicodeEscape(const char* p, const char* end, std::uint32_t* cp) {
  const long unit = Hex4(p, end);
  if (unit < 0 || (unit >= 0xDC00 && unit <= 0xDFFF)) return 0;
  if (unit < 0xD800 || unit > 0xDBFF) {
    *cp = static_cast<std::uint32_t>(unit);
    return 6;
  }
  const long low = Hex4(p + 6, end);
  if (low < 0xDC00 || low > 0xDFFF) return 0;
  *cp = 0x10000 + (static_cast<std::uint32_t>(unit - 0xD800) << 10) + static_cast<std::uint32_t>(low - 0xDC00);
  return 12;
}

// The escape at p (a backslash, with a byte after it): its length as
// written, or 0 for one left to simdjson. Only \" \\ \/ \b \f \n \r \t
// and \uXXXX are taken (UnicodeEscape).
std::size_t EscapeLength(const char* p, const char* end) {
  if (kShortEscape[static_cast<unsigned char>(p[1])] != 0) return 2;
  std::uint32_t cp = 0;
  return p[1] == 'u' ? UnicodeEscape(p, end, &cp) : 0;
}

// Writes cp as UTF-8 at out; returns the end.
char* PutUtf8(std::uint32_t cp, char* out) {
  if (cp < 0x80) {
    *out++ = static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out++ = static_cast<char>(0xC0 | (cp >> 6));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *out++ = static_cast<char>(0xE0 | (cp >> 12));
    *out++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    *out++ = static_cast<char>(0xF0 | (cp >> 18));
    *out++ = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    *out++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (cp & 0x3F));
  }
  return out;
}

// The closing quote of the string whose contents start at p, or null when
// it has none. *checked: the contents hold no control character and only
// escapes Escape takes (UTF-8 is checked apart). A backslash escapes the
// byte after it whatever that is, as JSON (and simdjson) read a string's
// end.
const char* StringEnd(const char* p, const char* end, bool* checked) {
  *checked = true;
  for (;;) {
    p = NextSpecial(p, end);
    if (p == end) return nullptr;
    if (*p == '"') return p;
    if (*p != '\\') {
      *checked = false;
      ++p;
      continue;
    }
    if (end - p < 2) return nullptr;
    const std::size_t n = EscapeLength(p, end);
    if (n == 0) {
      *checked = false;
      p += 2;
    } else {
      p += n;
    }
  }
}

// Appends the text of checked contents (StringEnd) to *out. Text is never
// longer than what is written for it.
void Decode(std::string_view written, std::string* out) {
  const std::size_t before = out->size();
  out->resize(before + written.size());
  char* to = out->data() + before;
  const char* p = written.data();
  const char* const end = p + written.size();
  while (p < end) {
    const char* run = p;
    p = NextSpecial(p, end);
    std::memcpy(to, run, static_cast<std::size_t>(p - run));
    to += p - run;
    if (p == end) break;
    if (const char plain = kShortEscape[static_cast<unsigned char>(p[1])]; plain != 0) {
      *to++ = plain;
      p += 2;
      continue;
    }
    std::uint32_t cp = 0;
    p += UnicodeEscape(p, end, &cp);
    to = PutUtf8(cp, to);
  }
  out->resize(static_cast<std::size_t>(to - out->data()));
}

// The length of the string that starts at contents when it is, as
// written, one already cut (0 when not): tool-result lines carry their
// output twice (Claude Code's own copy beside the result), and a copy
// needs no second check. Its closing quote closes it here too: the same
// backslashes precede it.
std::size_t SameCut(const char* contents, const char* end, const std::vector<std::string_view>& cuts) {
  for (const std::string_view& cut : cuts) {
    if (static_cast<std::size_t>(end - contents) > cut.size() && contents[cut.size()] == '"' &&
        std::memcmp(contents, cut.data(), cut.size()) == 0) {
      return cut.size();
    }
  }
  return 0;
}

// The strings of text to cut out, as written; false when the line must be
// parsed whole (see ParseCut).
bool FindCuts(std::string_view text, std::vector<std::string_view>* cuts) {
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const auto* open = static_cast<const char*>(std::memchr(p, '"', static_cast<std::size_t>(end - p)));
    if (open == nullptr) return true;
    if (const std::size_t same = SameCut(open + 1, end, *cuts); same > 0) {
      cuts->emplace_back(open + 1, same);
      p = open + 2 + same;
      continue;
    }
    bool checked = false;
    const char* close = StringEnd(open + 1, end, &checked);
    if (close == nullptr) return false;  // unterminated: simdjson says so
    const std::string_view written(open + 1, static_cast<std::size_t>(close - open - 1));
    if (written.size() >= kCutStringBytes) {
      if (!checked || !simdjson::validate_utf8(written.data(), written.size())) return false;
      cuts->push_back(written);
    } else if (written.substr(0, kMarkWritten.size()) == kMarkWritten) {
      return false;  // it would read as a placeholder
    }
    p = close + 1;
  }
  return true;
}

}  // namespace

bool CutStrings::Append(Element value, std::string* out) const {
  std::string_view text;
  if (value.get_string().get(text) != simdjson::SUCCESS) return false;
  if (!written_.empty() && text.size() > kMarkRead.size() && text.substr(0, kMarkRead.size()) == kMarkRead) {
    std::size_t index = 0;
    for (const char c : text.substr(kMarkRead.size())) index = index * 10 + static_cast<std::size_t>(c - '0');
    Decode(written_.at(index), out);  // checked when cut
    return true;
  }
  out->append(text);
  return true;
}

bool ParseCut(std::string_view text, CutStrings* cuts, Element* root) {
  cuts->written_.clear();
  if (text.size() < kCutStringBytes + 2 || !FindCuts(text, &cuts->written_) || cuts->written_.empty()) {
    cuts->written_.clear();
    return Parse(text, root);
  }
  std::string skeleton;
  skeleton.reserve(text.size() < 4096 ? text.size() : 4096);
  const char* copied = text.data();
  for (std::size_t i = 0; i < cuts->written_.size(); ++i) {
    const std::string_view written = cuts->written_[i];
    skeleton.append(copied, static_cast<std::size_t>(written.data() - copied));
    skeleton.append(kMarkWritten);
    skeleton.append(std::to_string(i));
    copied = written.data() + written.size();
  }
  skeleton.append(copied, static_cast<std::size_t>(text.data() + text.size() - copied));
  if (Parse(skeleton, root)) return true;
  cuts->written_.clear();
  return Parse(text, root);
}

bool Parse(std::string_view text, Element* root) {
  parser* p = ThreadParser(text.size());
  if (p == nullptr) return false;
  return p->parse(text.data(), text.size(), /*realloc_if_needed=*/true).get(*root) == simdjson::SUCCESS;
}

bool Field(Element object, std::string_view key, Element* out) {
  simdjson::dom::object fields;
  if (object.get_object().get(fields) != simdjson::SUCCESS) return false;
  bool found = false;
  for (const simdjson::dom::key_value_pair field : fields) {
    if (field.key == key) {
      *out = field.value;
      found = true;
    }
  }
  return found;
}

std::string_view StringField(Element object, std::string_view key) {
  Element value;
  std::string_view text;
  if (!Field(object, key, &value) || value.get_string().get(text) != simdjson::SUCCESS) return {};
  return text;
}

bool TrueField(Element object, std::string_view key) {
  Element value;
  bool flag = false;
  return Field(object, key, &value) && value.get_bool().get(flag) == simdjson::SUCCESS && flag;
}

}  // namespace causegate::evidence::simd
