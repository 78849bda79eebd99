#include "rules/clauses.h"

#include <array>
#include <cctype>

namespace causegate::rules {
namespace {

bool StartsWithNoCase(std::string_view text, std::size_t at, std::string_view word) {
  if (at + word.size() > text.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[at + i])) != word[i]) return false;
  }
  return true;
}

// English coordinators after a comma; the comma stays with the left clause.
// A contrast (", not because of the network") and an offer (", if you want
// I can ...") qualify themselves, not the finding before them.
constexpr std::array<std::string_view, 10> kCommaJoins = {
    " and ",         " but ",         " while ",        " whereas ",         " although ",
    " not ",         " if you want ", " if you like ", " if you'd like ", " if you prefer "};
// Chinese: after "，" these open a clause of their own: contrast (而, 不是,
// 并非) and addition, and an offer or plan that follows a finding ("……，也许可以加个
// 告警" hedges the offer, not the finding, like ", and maybe we should").
constexpr std::array<std::string_view, 20> kHanJoins = {"但",     "而",     "并且",   "而且",   "同时",
                                                        "另外",   "此外",   "不过",   "建议",   "可以考虑",
                                                        "要不要", "我可以", "我会",   "我来",   "接下来",
                                                        "顺便",   "也可以", "并不是", "不是",   "并非"};
// A hedged offer after "，": a hedge, perhaps 也 / 还 / 再, then a modal of
// advice ("或许也可以调小", "可能还需要重启"). The hedge is the offer's; a
// hedge before anything else ("，可能导致失败") stays with the finding.
constexpr std::array<std::string_view, 4> kHanOfferHedges = {"也许", "或许", "可能", "不妨"};
constexpr std::array<std::string_view, 3> kHanOfferAdverbs = {"也", "还", "再"};
constexpr std::array<std::string_view, 4> kHanOfferModals = {"可以", "需要", "应该", "得"};
constexpr std::string_view kHanComma = "，";
constexpr std::string_view kHanSemicolon = "；";
// Every dash reads as '-' in the masked text (evidence/text_fold.h), so an
// em dash between clauses arrives as " - ". It opens a clause only after
// three words or more: "Verdict - the cache key omits the locale" and
// "Root cause - X" are one label line, not a label and a clause.
constexpr std::string_view kSpacedDash = " - ";
constexpr int kMinWordsBeforeDash = 3;

// Whether s at i opens with one of words; on a match *i moves past it.
template <std::size_t N>
bool ReadOneOf(std::string_view s, std::size_t* i, const std::array<std::string_view, N>& words) {
  for (std::string_view w : words) {
    if (s.compare(*i, w.size(), w) == 0) {
      *i += w.size();
      return true;
    }
  }
  return false;
}

bool HedgedOfferAt(std::string_view s, std::size_t i) {
  if (!ReadOneOf(s, &i, kHanOfferHedges)) return false;
  ReadOneOf(s, &i, kHanOfferAdverbs);
  return ReadOneOf(s, &i, kHanOfferModals);
}

int WordsIn(std::string_view s) {
  int words = 0;
  bool in_word = false;
  for (const char c : s) {
    const bool space = c == ' ' || c == '\t' || c == '\n';
    words += !space && !in_word;
    in_word = !space;
  }
  return words;
}

// Length of the separator that starts a new clause at i, or 0.
std::size_t SeparatorAt(std::string_view s, std::size_t i) {
  // "TL;DR" and "a;b" in prose are not clause breaks.
  if (s[i] == ';') return i + 1 >= s.size() || s[i + 1] == ' ' ? 1 : 0;
  if (s[i] == ',') {
    for (std::string_view w : kCommaJoins) {
      if (StartsWithNoCase(s, i + 1, w)) return 1;
    }
    return 0;
  }
  if (s.compare(i, kSpacedDash.size(), kSpacedDash) == 0) return kSpacedDash.size();
  if (s.compare(i, kHanSemicolon.size(), kHanSemicolon) == 0) return kHanSemicolon.size();
  if (s.compare(i, kHanComma.size(), kHanComma) == 0) {
    std::size_t after = i + kHanComma.size();
    if (ReadOneOf(s, &after, kHanJoins) || HedgedOfferAt(s, i + kHanComma.size())) return kHanComma.size();
  }
  return 0;
}

}  // namespace

std::vector<ClauseSpan> SplitClauses(std::string_view sentence) {
  std::vector<ClauseSpan> out;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < sentence.size(); ++i) {
    const std::size_t sep = SeparatorAt(sentence, i);
    if (sep == 0) continue;
    const std::size_t next = i + sep;
    const bool dash = sentence.compare(i, kSpacedDash.size(), kSpacedDash) == 0;
    // A separator at either end opens no clause worth its own reading.
    if (i > begin && next < sentence.size() && (!dash || WordsIn(sentence.substr(begin, i - begin)) >= kMinWordsBeforeDash)) {
      out.push_back({begin, i});
      begin = next;
    }
    i = next - 1;
  }
  out.push_back({begin, sentence.size()});
  return out;
}

}  // namespace causegate::rules
