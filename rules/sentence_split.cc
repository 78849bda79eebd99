// Quoted spans, Evidence markers and sentence boundaries in rendered prose.
//
// Everything works on bytes and recognises the few multi-byte marks it needs
// (curly and corner quotes, full-width punctuation) by their UTF-8 spelling,
// so invalid UTF-8 is just more text. Quote pairing scans left to right: an
// opening mark takes the next matching closing mark and everything between
// is literal, which is what makes “No module named 'yaml'” one span. Each
// search either consumes the text it scanned (a span was found) or proves
// that no closing mark of that kind follows (the kind is then skipped for
// the rest of the text, or the rest of the line for single quotes), so the
// total work stays linear even on hostile input such as a line of openers.
// Tests: tests/unit/rules/sentence_split_test.cc.
#include "rules/sentence_split.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

namespace causegate::rules {
namespace {

constexpr std::size_t kNpos = std::string_view::npos;

struct QuoteMark {
  std::string_view open;
  std::string_view close;
  bool single;  // reported speech: masked, not a fragment
};

constexpr std::array<QuoteMark, 6> kQuoteMarks = {{
    {"\"", "\"", false},
    {"\u201C", "\u201D", false},  // “ ”
    {"\u300C", "\u300D", false},  // 「 」
    {"\u300E", "\u300F", false},  // 『 』
    {"'", "'", true},
    {"\u2018", "\u2019", true},  // ‘ ’
}};

bool IsAsciiBlank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

bool IsAsciiAlnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool IsAsciiPunct(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u > 0x20 && u < 0x7F && !IsAsciiAlnum(c);
}

bool IsNonAscii(char c) { return static_cast<unsigned char>(c) >= 0x80; }

bool HasAt(std::string_view text, std::size_t pos, std::string_view what) {
  return pos <= text.size() && text.size() - pos >= what.size() &&
         std::char_traits<char>::compare(text.data() + pos, what.data(), what.size()) == 0;
}

// Whether some quote mark's opening spelling starts with c: the scan asks
// the marks themselves only at such bytes (most of a text is none).
bool MayOpenQuote(char c) {
  for (const QuoteMark& mark : kQuoteMarks) {
    if (mark.open.front() == c) return true;
  }
  return false;
}

// Decodes one code point at `pos`; an invalid byte decodes as U+FFFD of
// length 1.
std::pair<char32_t, std::size_t> DecodeAt(std::string_view text, std::size_t pos) {
  const auto b0 = static_cast<unsigned char>(text[pos]);
  if (b0 < 0x80) return {b0, 1};
  std::size_t len = 0;
  char32_t cp = 0;
  if ((b0 & 0xE0) == 0xC0) {
    len = 2;
    cp = b0 & 0x1F;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3;
    cp = b0 & 0x0F;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4;
    cp = b0 & 0x07;
  } else {
    return {0xFFFD, 1};
  }
  if (pos + len > text.size()) return {0xFFFD, 1};
  for (std::size_t i = 1; i < len; ++i) {
    const auto b = static_cast<unsigned char>(text[pos + i]);
    if ((b & 0xC0) != 0x80) return {0xFFFD, 1};
    cp = (cp << 6) | (b & 0x3F);
  }
  return {cp, len};
}

// Punctuation, symbols and spaces that do not make a sentence by themselves.
bool IsNonContentCodePoint(char32_t cp) {
  return (cp >= 0x00A0 && cp <= 0x00BF) || (cp >= 0x2000 && cp <= 0x206F) ||
         (cp >= 0x2190 && cp <= 0x2BFF) || (cp >= 0x3000 && cp <= 0x303F) ||
         (cp >= 0xFF01 && cp <= 0xFF0F) || (cp >= 0xFF1A && cp <= 0xFF20) ||
         (cp >= 0xFF3B && cp <= 0xFF40) || (cp >= 0xFF5B && cp <= 0xFF65) || cp == 0xFFFD;
}

bool HasContent(std::string_view text, TextRange range) {
  std::size_t i = range.begin;
  while (i < range.end) {
    if (!IsNonAscii(text[i])) {
      if (IsAsciiAlnum(text[i])) return true;
      ++i;
      continue;
    }
    const auto [cp, len] = DecodeAt(text, i);
    if (!IsNonContentCodePoint(cp)) return true;
    i += len;
  }
  return false;
}

// Full-width sentence enders: 。！？；
constexpr std::array<std::string_view, 4> kWideEnders = {"\u3002", "\uFF01", "\uFF1F", "\uFF1B"};
// Closing marks that may trail a sentence ender: ) ] ” ’ 」 』 ）
constexpr std::array<std::string_view, 7> kTrailingClosers = {
    ")", "]", "\u201D", "\u2019", "\u300D", "\u300F", "\uFF09"};

std::size_t WideEnderAt(std::string_view text, std::size_t pos) {
  for (const std::string_view ender : kWideEnders) {
    if (HasAt(text, pos, ender)) return ender.size();
  }
  return 0;
}

std::size_t TrailingCloserAt(std::string_view text, std::size_t pos) {
  for (const std::string_view closer : kTrailingClosers) {
    if (HasAt(text, pos, closer)) return closer.size();
  }
  return 0;
}

// Words whose trailing '.' does not end a sentence.
bool IsAbbreviationBefore(std::string_view text, std::size_t dot) {
  constexpr std::array<std::string_view, 14> kAbbreviations = {
      "e.g", "i.e", "vs",   "etc", "cf",  "approx", "incl",
      "esp", "viz", "resp", "mr",  "mrs", "ms",     "dr"};
  std::size_t begin = dot;
  while (begin > 0 && dot - begin < 8 && !IsAsciiBlank(text[begin - 1]) && text[begin - 1] != '(') {
    --begin;
  }
  if (begin > 0 && !IsAsciiBlank(text[begin - 1]) && text[begin - 1] != '(') return false;
  std::string word(text.substr(begin, dot - begin));
  for (char& c : word) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return std::find(kAbbreviations.begin(), kAbbreviations.end(), word) != kAbbreviations.end();
}

// True when [start, dot) is blanks and then a few digits: "2." numbering a
// line, which does not end a sentence.
bool IsListNumber(std::string_view text, std::size_t start, std::size_t dot) {
  const TextRange r = TrimBlanks(text, {start, dot});
  if (r.begin == r.end || r.end - r.begin > 3) return false;
  for (std::size_t i = r.begin; i < r.end; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

// Index of the first range in `ranges` (sorted, disjoint) that ends after
// `pos`, starting the search at `hint`.
std::size_t AdvancePast(const std::vector<TextRange>& ranges, std::size_t hint, std::size_t pos) {
  while (hint < ranges.size() && ranges[hint].end <= pos) ++hint;
  return hint;
}

bool CanOpenSingle(std::string_view text, std::size_t pos, std::size_t len) {
  if (pos > 0) {
    const char prev = text[pos - 1];
    if (!IsAsciiBlank(prev) && prev != '(' && prev != '[' && !IsNonAscii(prev)) return false;
  }
  const std::size_t next = pos + len;
  if (next >= text.size()) return false;
  if (IsAsciiBlank(text[next]) || text[next] == '\'') return false;
  return true;
}

bool CanCloseSingle(std::string_view text, std::size_t pos, std::size_t len) {
  if (pos == 0 || IsAsciiBlank(text[pos - 1])) return false;
  const std::size_t next = pos + len;
  if (next >= text.size()) return true;
  const char c = text[next];
  return IsAsciiBlank(c) || (IsAsciiPunct(c) && c != '\'') || IsNonAscii(c);
}

// The next `close` at or after `from` that is outside the code spans, or
// kNpos. For single quotes the search stops at the end of the line and the
// mark must be able to close.
std::size_t FindClose(std::string_view text, std::size_t from, const QuoteMark& mark,
                      const std::vector<TextRange>& code_spans, std::size_t code_hint,
                      std::size_t limit) {
  while (from < limit) {
    const std::size_t at = text.substr(0, limit).find(mark.close, from);
    if (at == kNpos) return kNpos;
    code_hint = AdvancePast(code_spans, code_hint, at);
    if (code_hint < code_spans.size() && code_spans[code_hint].begin <= at) {
      from = code_spans[code_hint].end;
      continue;
    }
    if (mark.single && !CanCloseSingle(text, at, mark.close.size())) {
      from = at + mark.close.size();
      continue;
    }
    return at;
  }
  return kNpos;
}

}  // namespace

std::size_t BlankLengthAt(std::string_view text, std::size_t pos) {
  if (pos >= text.size()) return 0;
  if (IsAsciiBlank(text[pos])) return 1;
  if (HasAt(text, pos, "\u3000")) return 3;
  return 0;
}

TextRange TrimBlanks(std::string_view text, TextRange range) {
  range.end = std::min(range.end, text.size());
  range.begin = std::min(range.begin, range.end);
  while (range.begin < range.end) {
    const std::size_t n = BlankLengthAt(text, range.begin);
    if (n == 0) break;
    range.begin += n;
  }
  while (range.end > range.begin) {
    if (IsAsciiBlank(text[range.end - 1])) {
      --range.end;
    } else if (range.end - range.begin >= 3 && HasAt(text, range.end - 3, "\u3000")) {
      range.end -= 3;
    } else {
      break;
    }
  }
  return range;
}

std::vector<QuotedSpan> FindQuotedSpans(std::string_view text,
                                        const std::vector<TextRange>& code_spans) {
  std::vector<QuotedSpan> spans;
  // An opener of kind k before dead_until[k] has no closing mark: an earlier
  // search of that kind already covered everything it would search.
  std::array<std::size_t, kQuoteMarks.size()> dead_until{};
  std::size_t code = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    code = AdvancePast(code_spans, code, pos);
    if (code < code_spans.size() && code_spans[code].begin <= pos) {
      pos = std::max(pos + 1, code_spans[code].end);
      continue;
    }
    if (!MayOpenQuote(text[pos])) {
      ++pos;
      continue;
    }
    std::size_t kind = kQuoteMarks.size();
    for (std::size_t k = 0; k < kQuoteMarks.size(); ++k) {
      if (HasAt(text, pos, kQuoteMarks[k].open)) {
        kind = k;
        break;
      }
    }
    if (kind == kQuoteMarks.size()) {
      ++pos;
      continue;
    }
    const QuoteMark& mark = kQuoteMarks[kind];
    const std::size_t content_begin = pos + mark.open.size();
    if (pos < dead_until[kind] || (mark.single && !CanOpenSingle(text, pos, mark.open.size()))) {
      pos = content_begin;
      continue;
    }
    std::size_t limit = text.size();
    if (mark.single) {
      const std::size_t newline = text.find('\n', content_begin);
      if (newline != kNpos) limit = newline;
    }
    const std::size_t close = FindClose(text, content_begin, mark, code_spans, code, limit);
    if (close == kNpos) {
      dead_until[kind] = limit;
      pos = content_begin;
      continue;
    }
    QuotedSpan span;
    span.span = {pos, close + mark.close.size()};
    span.content = {content_begin, close};
    span.is_fragment = !mark.single;
    spans.push_back(span);
    pos = span.span.end;
  }
  return spans;
}

std::optional<EvidenceMarker> MatchEvidenceMarker(std::string_view line) {
  std::size_t pos = 0;
  auto skip_blanks = [&] {
    while (std::size_t n = BlankLengthAt(line, pos)) pos += n;
  };
  skip_blanks();
  // A bullet Markdown left in the text (a line inside a paragraph).
  for (const std::string_view bullet : {"-", "*", "+", "\u2022", "\u00B7"}) {
    if (HasAt(line, pos, bullet) && BlankLengthAt(line, pos + bullet.size()) > 0) {
      pos += bullet.size();
      skip_blanks();
      break;
    }
  }
  EvidenceMarker marker;
  marker.marker = pos;
  constexpr std::string_view kEnglish = "evidence";
  bool english = line.size() - pos >= kEnglish.size();
  for (std::size_t i = 0; english && i < kEnglish.size(); ++i) {
    char c = line[pos + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    english = c == kEnglish[i];
  }
  if (english) {
    pos += kEnglish.size();
    if (pos < line.size() && BlankLengthAt(line, pos) == 0 && line[pos] != ':' &&
        !HasAt(line, pos, "\uFF1A")) {
      return std::nullopt;  // "Evidently", "evidenced"
    }
  } else if (HasAt(line, pos, "\u8BC1\u636E") || HasAt(line, pos, "\u4F9D\u636E")) {
    pos += 6;  // 证据 / 依据: two three-byte characters
  } else {
    return std::nullopt;
  }
  skip_blanks();
  if (HasAt(line, pos, ":")) {
    pos += 1;
    marker.colon = true;
  } else if (HasAt(line, pos, "\uFF1A")) {
    pos += 3;
    marker.colon = true;
  }
  skip_blanks();
  marker.rest = pos;
  return marker;
}

std::string_view TrimEvidenceRest(std::string_view rest) {
  const TextRange trimmed = TrimBlanks(rest, {0, rest.size()});
  rest = rest.substr(trimmed.begin, trimmed.end - trimmed.begin);
  for (;;) {
    if (rest.empty()) return rest;
    const char last = rest.back();
    if (IsAsciiBlank(last) || last == '.' || last == ',' || last == ';' || last == ':') {
      rest.remove_suffix(1);
      continue;
    }
    bool trimmed_wide = false;
    for (const std::string_view mark : {"\u3002", "\uFF0C", "\uFF1B", "\uFF1A", "\u3000"}) {
      if (rest.size() >= mark.size() && rest.substr(rest.size() - mark.size()) == mark) {
        rest.remove_suffix(mark.size());
        trimmed_wide = true;
        break;
      }
    }
    if (!trimmed_wide) return rest;
  }
}

bool StartsLikeListItem(std::string_view line) {
  std::size_t pos = 0;
  while (pos < line.size() && pos < 3 && line[pos] == ' ') ++pos;
  for (const std::string_view bullet : {"-", "*", "+", "\u2022"}) {
    if (HasAt(line, pos, bullet) && BlankLengthAt(line, pos + bullet.size()) > 0) return true;
  }
  std::size_t digits = 0;
  while (pos + digits < line.size() && digits < 9 && line[pos + digits] >= '0' &&
         line[pos + digits] <= '9') {
    ++digits;
  }
  if (digits == 0) return false;
  pos += digits;
  return pos < line.size() && (line[pos] == '.' || line[pos] == ')') &&
         BlankLengthAt(line, pos + 1) > 0;
}

std::vector<TextRange> SplitSentences(std::string_view text, const std::vector<TextRange>& masked,
                                      const std::vector<std::size_t>& hard_breaks) {
  std::vector<TextRange> sentences;
  auto emit = [&](std::size_t begin, std::size_t end) {
    const TextRange range = TrimBlanks(text, {begin, end});
    if (range.begin < range.end && HasContent(text, range)) sentences.push_back(range);
  };
  std::size_t start = 0;
  std::size_t mask = 0;
  std::size_t hard = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    mask = AdvancePast(masked, mask, pos);
    if (mask < masked.size() && masked[mask].begin <= pos) {
      pos = std::max(pos + 1, masked[mask].end);
      continue;
    }
    const char c = text[pos];
    if (c == '\n') {
      while (hard < hard_breaks.size() && hard_breaks[hard] < pos) ++hard;
      if (hard < hard_breaks.size() && hard_breaks[hard] == pos) {
        emit(start, pos);
        start = pos + 1;
      }
      ++pos;
      continue;
    }
    std::size_t end = kNpos;  // where the sentence ends, if it does here
    if (c == '.' || c == '!' || c == '?' || c == ';') {
      std::size_t next = pos + 1;
      if (c != ';') {
        while (next < text.size() &&
               (text[next] == '.' || text[next] == '!' || text[next] == '?')) {
          ++next;
        }
      }
      while (std::size_t n = TrailingCloserAt(text, next)) next += n;
      const bool blank_follows = next >= text.size() || BlankLengthAt(text, next) > 0;
      const bool single_dot = c == '.' && next == pos + 1;
      if (blank_follows &&
          !(single_dot && (IsAbbreviationBefore(text, pos) || IsListNumber(text, start, pos)))) {
        end = next;
      }
      if (end == kNpos) {
        pos = next;
        continue;
      }
    } else if (const std::size_t n = IsNonAscii(c) ? WideEnderAt(text, pos) : 0) {
      std::size_t next = pos + n;
      while (std::size_t more = WideEnderAt(text, next)) next += more;
      while (std::size_t more = TrailingCloserAt(text, next)) next += more;
      end = next;
    }
    if (end == kNpos) {
      ++pos;
      continue;
    }
    emit(start, end);
    start = end;
    pos = end;
  }
  emit(start, text.size());
  return sentences;
}

}  // namespace causegate::rules
