#include "evidence/nearest_lines.h"

#include <algorithm>
#include <unordered_set>

namespace causegate::evidence {
namespace {

// Words that say nothing about which line a claim is about.
const std::unordered_set<std::string>& FunctionWords() {
  static const std::unordered_set<std::string> words = {
      "the",    "and",     "for",    "that",  "this",   "with",  "from",   "was",   "were",  "are",
      "because", "caused", "cause",  "causes", "root",  "due",   "which",  "when",  "into",  "not",
      "but",    "has",     "have",   "had",   "its",    "our",   "you",    "your",  "they",  "them",
      "then",   "than",    "there",  "here",  "what",   "why",   "how",    "all",   "any",   "can",
      "will",   "would",   "should", "could", "did",    "does",  "done",   "been",  "being", "also",
      "just",   "only",    "after",  "before", "now",   "one",   "two",    "out",
      "reason", "issue",   "problem", "since", "result", "led",  "leads",  "lead",  "very"};
  return words;
}

bool IsAsciiWordChar(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// A CJK Unified Ideograph (U+4E00..U+9FFF) starting at s[i], as UTF-8.
bool IsHanAt(std::string_view s, std::size_t i) {
  if (i + 3 > s.size()) return false;
  const auto b0 = static_cast<unsigned char>(s[i]);
  const auto b1 = static_cast<unsigned char>(s[i + 1]);
  return b0 >= 0xE4 && b0 <= 0xE9 && (b1 & 0xC0) == 0x80;
}

// Calls fn(word) for every word of text, lower case (duplicates included).
template <typename Fn>
void ForEachWord(std::string_view text, Fn&& fn) {
  std::string word;
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (IsAsciiWordChar(c)) {
      word.clear();
      while (i < text.size() && IsAsciiWordChar(static_cast<unsigned char>(text[i]))) {
        const auto w = static_cast<unsigned char>(text[i]);
        word += static_cast<char>(w >= 'A' && w <= 'Z' ? w - 'A' + 'a' : w);
        ++i;
      }
      if (word.size() >= 3 && FunctionWords().count(word) == 0) fn(word);
      continue;
    }
    if (IsHanAt(text, i)) {
      if (i + 6 <= text.size() && IsHanAt(text, i + 3)) fn(std::string(text.substr(i, 6)));
      i += 3;
      continue;
    }
    ++i;
  }
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

struct CallLines {
  std::size_t call = 0;
  int best = 0;
  std::vector<NearLine> lines;
};

}  // namespace

std::vector<std::string> ClaimWords(std::string_view text) {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  ForEachWord(text, [&](const std::string& w) {
    if (seen.insert(w).second) out.push_back(w);
  });
  return out;
}

std::vector<NearLine> NearestOutputLines(std::string_view claim, const std::vector<ToolCall>& calls,
                                         const NearestOptions& options) {
  const std::vector<std::string> words = ClaimWords(claim);
  const std::unordered_set<std::string> wanted(words.begin(), words.end());
  std::vector<CallLines> ranked;
  if (wanted.empty()) return {};
  for (std::size_t c = 0; c < calls.size(); ++c) {
    const std::string_view output = std::string_view(calls[c].output).substr(0, options.max_output_bytes);
    CallLines found;
    found.call = c;
    std::int64_t number = 0;
    std::size_t start = 0;
    while (start < output.size()) {
      std::size_t end = output.find('\n', start);
      if (end == std::string_view::npos) end = output.size();
      ++number;
      const std::string_view line = Trim(output.substr(start, end - start));
      std::unordered_set<std::string> shared;
      ForEachWord(line, [&](const std::string& w) {
        if (wanted.count(w) != 0) shared.insert(w);
      });
      if (!shared.empty()) {
        found.lines.push_back({c, number, std::string(line), static_cast<int>(shared.size())});
      }
      start = end + 1;
    }
    if (found.lines.empty()) continue;
    // The best lines of the call, then back in output order.
    std::stable_sort(found.lines.begin(), found.lines.end(),
                     [](const NearLine& a, const NearLine& b) { return a.shared > b.shared; });
    if (found.lines.size() > options.lines_per_call) found.lines.resize(options.lines_per_call);
    found.best = found.lines.front().shared;
    std::sort(found.lines.begin(), found.lines.end(),
              [](const NearLine& a, const NearLine& b) { return a.line < b.line; });
    ranked.push_back(std::move(found));
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const CallLines& a, const CallLines& b) { return a.best > b.best; });
  if (ranked.size() > options.max_calls) ranked.resize(options.max_calls);
  std::vector<NearLine> out;
  for (CallLines& r : ranked) {
    for (NearLine& l : r.lines) out.push_back(std::move(l));
  }
  return out;
}

}  // namespace causegate::evidence
