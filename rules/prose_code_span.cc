#include "rules/prose_code_span.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace causegate::rules {
namespace {

constexpr std::size_t kLongestConnective = 16;

bool IsConnectiveOnly(std::string_view text) {
  static constexpr std::array<std::string_view, 16> kConnectives = {
      "because", "due to", "caused by", "since", "so", "therefore", "thus", "hence", "as a result",
      "root cause", "which is why", "that's why", "led to", "leads to", "resulted in", "causes"};
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.empty() || text.size() > kLongestConnective) return false;
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return std::find(kConnectives.begin(), kConnectives.end(), lower) != kConnectives.end();
}

}  // namespace

std::vector<TextRange> QuotedCodeSpans(std::string_view text, const std::vector<TextRange>& spans) {
  std::vector<TextRange> quoted;
  quoted.reserve(spans.size());
  for (const TextRange& code : spans) {
    if (!IsConnectiveOnly(text.substr(code.begin, code.end - code.begin))) quoted.push_back(code);
  }
  return quoted;
}

}  // namespace causegate::rules
