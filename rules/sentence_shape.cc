#include "rules/sentence_shape.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <utility>

#include "rules/feature_hash.h"
#include <unordered_map>
#include <unordered_set>

namespace causegate::rules {
namespace {

// English closed-class words: determiners, pronouns, auxiliaries, negation,
// connectives, prepositions, modals and a few adverbs of degree and time.
// A fixed list, not learnt: which of them matter is the fit's business.
constexpr std::string_view kClosedClass[] = {
    "a", "about", "after", "again", "against", "all", "already", "also", "although", "always", "am", "an", "and",
    "another", "any", "anything", "are", "aren't", "as", "at", "away", "back", "be", "because", "been", "before",
    "being", "between", "both", "but", "by", "can", "can't", "cannot", "could", "did", "didn't", "do", "does",
    "doesn't", "don't", "done", "down", "during", "each", "either", "even", "ever", "every", "everything", "first",
    "for", "from", "had", "has", "have", "he", "hence", "her", "here", "here's", "him", "his", "how", "i", "i'm",
    "i've", "if", "in", "instead", "into", "is", "isn't", "it", "it's", "its", "just", "less", "many", "may", "me",
    "might", "more", "most", "much", "must", "my", "n't", "neither", "never", "no", "none", "nor", "not", "nothing",
    "now", "of", "off", "on", "once", "one", "only", "onto", "or", "other", "our", "out", "over", "own", "per",
    "rather", "same", "second", "she", "should", "since", "so", "some", "something", "still", "such", "than",
    "that", "that's", "the", "their", "them", "then", "there", "there's", "therefore", "these", "they", "they're",
    "this", "those", "though", "through", "thus", "to", "too", "two", "under", "unless", "until", "up", "us",
    "very", "via", "was", "wasn't", "we", "we're", "we've", "were", "weren't", "what", "what's", "whatever", "when",
    "whenever", "where", "whereas", "whether", "which", "while", "who", "whom", "whose", "why", "will", "with",
    "without", "won't", "would", "yet", "you", "you're", "your",
};

// Chinese closed-class words: connectives, the copula, particles, aspect
// markers, prepositions, negation, modals, demonstratives, pronouns and
// adverbs of time and degree. Longest first: the tokenizer takes the
// longest that starts where it stands ("没有" before "没"). Text has no
// spaces, so a Han character not in a word here joins the run of content
// characters around it, which is one token, "H". A single-character word
// inside a content word ("在" of "现在") is read as the word: the price of
// reading Chinese without a segmenter, the same in the fit as at run time.
constexpr std::string_view kChineseClosedClass[] = {
    "为什么", "的时候", "一个", "一直", "不会", "不是", "不能", "为了", "之前", "之后",
    "也是", "于是", "什么", "仍然", "从来", "以前", "以后", "但是", "你们", "依然", "其实",
    "只有", "只要", "可以", "可能", "因为", "因此", "如果", "它们", "就是", "已经", "并且",
    "应该", "怎么", "总是", "我们", "或者", "所以", "所有", "时候", "正在", "每次", "没有",
    "然后", "由于", "结果", "而且", "自己", "虽然", "还是", "这个", "这些", "这样", "这里",
    "那个", "那些", "那样", "那里", "都是", "随即", "需要", "一", "上", "下", "不", "与", "两",
    "个", "中", "为", "也", "了", "仍", "从", "他", "会", "但", "你", "使", "其", "再", "别", "到",
    "前", "即", "却", "又", "及", "只", "后", "吗", "吧", "呢", "和", "哪", "啊", "在", "地", "太",
    "她", "它", "对", "就", "并", "很", "得", "我", "或", "才", "把", "无", "时", "是", "更", "最",
    "未", "每", "比", "没", "的", "着", "给", "而", "能", "被", "要", "让", "谁", "过", "还", "这",
    "那", "都", "里",
};

bool IsClosedClass(std::string_view lower) {
  static const std::unordered_set<std::string_view> words = [] {
    std::unordered_set<std::string_view> all(std::begin(kClosedClass), std::end(kClosedClass));
    all.insert(std::begin(kChineseClosedClass), std::end(kChineseClosedClass));
    return all;
  }();
  return words.count(lower) > 0;
}

// A Han character (CJK Unified Ideographs and Extension A) starts at s[i].
bool IsHanAt(std::string_view s, std::size_t i) {
  if (i + 3 > s.size()) return false;
  const auto b0 = static_cast<unsigned char>(s[i]);
  const auto b1 = static_cast<unsigned char>(s[i + 1]);
  const unsigned code = ((b0 & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
  return (b0 & 0xF0u) == 0xE0u && (b1 & 0xC0u) == 0x80u && ((code >= 0x3400 && code <= 0x4DBF) || (code >= 0x4E00 && code <= 0x9FFF));
}

// The Chinese closed-class word that starts at s[i], longest first; empty
// for none.
std::string_view ChineseWordAt(std::string_view s, std::size_t i) {
  // The words by their first character, longest first: most characters
  // start none, and are passed over with one look-up.
  static const std::unordered_map<std::string_view, std::vector<std::string_view>> by_first = [] {
    std::unordered_map<std::string_view, std::vector<std::string_view>> m;
    for (const std::string_view w : kChineseClosedClass) m[w.substr(0, 3)].push_back(w);
    return m;
  }();
  const auto it = by_first.find(s.substr(i, 3));
  if (it == by_first.end()) return {};
  for (const std::string_view w : it->second) {
    if (s.compare(i, w.size(), w) == 0) return w;
  }
  return {};
}

// Full-width punctuation read as its ASCII token; others are "P".
std::string_view FullWidthToken(std::string_view s, std::size_t i) {
  static constexpr std::pair<std::string_view, std::string_view> kMap[] = {
      {"\xEF\xBC\x8C", ","}, {"\xEF\xBC\x9A", ":"}, {"\xEF\xBC\x9B", ";"},
      {"\xEF\xBC\x88", "("}, {"\xEF\xBC\x89", ")"}, {"\xE3\x80\x81", ","}};
  for (const auto& [wide, token] : kMap) {
    if (s.compare(i, wide.size(), wide) == 0) return token;
  }
  return {};
}

constexpr std::string_view kRightQuote = "\xE2\x80\x99";  // ’

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// A word's shape: itself when closed-class, else its form.
std::string WordShape(std::string_view word) {
  if (word == "QUOTE") return "C";
  std::string lower(word);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  if (IsClosedClass(lower)) return lower;
  // An identifier: snake_case, a dotted path, camelCase.
  if (word.find('_') != std::string_view::npos || word.find('.') != std::string_view::npos) return "C";
  for (std::size_t i = 1; i < word.size(); ++i) {
    if (word[i - 1] >= 'a' && word[i - 1] <= 'z' && word[i] >= 'A' && word[i] <= 'Z') return "C";
  }
  if (EndsWith(lower, "ing")) return "Wing";
  if (EndsWith(lower, "ed")) return "Wed";
  if (EndsWith(lower, "s") && !EndsWith(lower, "ss")) return "Ws";
  return "W";
}

// The length of the UTF-8 sequence a lead byte opens (1 for a stray byte).
std::size_t Utf8Length(unsigned char lead) {
  if (lead >= 0xF0 && lead < 0xF8) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

}  // namespace

std::vector<std::string> ShapeTokens(std::string_view s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  bool in_han_run = false;  // the last token is an "H" whose run has not ended
  while (i < s.size() && out.size() < kMaxShapeTokens) {
    const char c = s[i];
    if (!IsHanAt(s, i)) in_han_run = false;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (IsAsciiLetter(c)) {
      // A word runs over letters, digits, '_', '-', an apostrophe (ASCII or
      // U+2019, as agents write "doesn’t") and a dot inside a path.
      std::string word(1, c);
      std::size_t j = i + 1;
      while (j < s.size()) {
        const char d = s[j];
        const bool next_alnum = j + 1 < s.size() && (IsAsciiLetter(s[j + 1]) || IsDigit(s[j + 1]));
        if (IsAsciiLetter(d) || IsDigit(d) || d == '_' || d == '-' || (d == '\'' && next_alnum) ||
            (d == '.' && next_alnum)) {
          word += d;
          ++j;
        } else if (s.substr(j, 3) == kRightQuote && j + 3 < s.size() && IsAsciiLetter(s[j + 3])) {
          word += '\'';
          j += 3;
        } else {
          break;
        }
      }
      while (word.size() > 1 && word.back() == '-') word.pop_back();
      out.push_back(WordShape(word));
      i = j;
    } else if (IsDigit(c)) {
      std::size_t j = i + 1;
      while (j < s.size() && (IsAsciiLetter(s[j]) || IsDigit(s[j]) || s[j] == '_' ||
                              (s[j] == '.' && j + 1 < s.size() && IsDigit(s[j + 1])))) {
        ++j;
      }
      out.push_back("N");
      i = j;
    } else if (c == ',' || c == ':' || c == ';' || c == '(' || c == ')') {
      out.emplace_back(1, c);
      ++i;
    } else if (IsHanAt(s, i)) {
      if (const std::string_view word = ChineseWordAt(s, i); !word.empty()) {
        out.emplace_back(word);
        i += word.size();
        in_han_run = false;
        continue;
      }
      // One "H" per run of content characters.
      if (!in_han_run) out.push_back("H");
      i += 3;
      in_han_run = true;
      continue;
    } else if (const std::string_view token = FullWidthToken(s, i); !token.empty()) {
      out.emplace_back(token);
      i += 3;
    } else {
      out.push_back("P");
      i += std::min(Utf8Length(static_cast<unsigned char>(c)), s.size() - i);
    }
  }
  return out;
}

namespace {

// Calls visit(kind, tokens, first, n) once for each n-gram of the sentence
// with its ends: 'u' for a closed-class word alone, 'b' for a pair, 't'
// for a triple of neighbouring tokens.
template <typename Visit>
void ForEachGram(std::string_view masked, Visit visit) {
  std::vector<std::string> tokens = ShapeTokens(masked);
  tokens.insert(tokens.begin(), "<s>");
  tokens.push_back("</s>");
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (IsClosedClass(tokens[i])) visit('u', tokens, i, 1);
    if (i + 1 < tokens.size()) visit('b', tokens, i, 2);
    if (i + 2 < tokens.size()) visit('t', tokens, i, 3);
  }
}

}  // namespace

std::vector<std::string> ShapeFeatures(std::string_view masked) {
  // "u:so", "b:Ws_on", "t:,_so_W": a kind letter, then the tokens joined by '_'.
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  ForEachGram(masked, [&](char kind, const std::vector<std::string>& tokens, std::size_t first, std::size_t n) {
    std::string name(1, kind);
    name += ':';
    for (std::size_t k = first; k < first + n; ++k) {
      if (k > first) name += '_';
      name += tokens[k];
    }
    if (seen.insert(name).second) out.push_back(std::move(name));
  });
  return out;
}

std::vector<std::uint64_t> ShapeHashes(std::string_view masked, std::string_view prefix) {
  std::vector<std::uint64_t> out;
  ForEachGram(masked, [&](char kind, const std::vector<std::string>& tokens, std::size_t first, std::size_t n) {
    FeatureHasher h;
    const char head[2] = {kind, ':'};
    h.Add(prefix).Add(std::string_view(head, 2));
    for (std::size_t k = first; k < first + n; ++k) {
      if (k > first) h.Add("_");
      h.Add(tokens[k]);
    }
    out.push_back(h.hash());
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace causegate::rules
