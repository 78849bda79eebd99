#include "install/unified_diff.h"

#include <algorithm>
#include <vector>

namespace causegate::install {
namespace {

constexpr std::size_t kContext = 3;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t eol = text.find('\n', start);
    if (eol == std::string::npos) {
      lines.push_back(text.substr(start) + "\n\\ No newline at end of file");
      break;
    }
    lines.push_back(text.substr(start, eol - start));
    start = eol + 1;
  }
  return lines;
}

struct Op {
  char kind;  // ' ', '-', '+'
  std::size_t a;  // line index in before (for ' ' and '-')
  std::size_t b;  // line index in after (for ' ' and '+')
};

std::vector<Op> Script(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<Op> ops;
  if (a.size() > kMaxDiffLines || b.size() > kMaxDiffLines) {
    for (std::size_t i = 0; i < a.size(); ++i) ops.push_back({'-', i, 0});
    for (std::size_t j = 0; j < b.size(); ++j) ops.push_back({'+', a.size(), j});
    return ops;
  }
  // lcs[i][j]: common lines of a[i..] and b[j..].
  std::vector<std::vector<std::size_t>> lcs(a.size() + 1, std::vector<std::size_t>(b.size() + 1, 0));
  for (std::size_t i = a.size(); i-- > 0;) {
    for (std::size_t j = b.size(); j-- > 0;) {
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      ops.push_back({' ', i++, j++});
    } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
      ops.push_back({'-', i++, j});  // deletions before insertions, as diff(1) shows them
    } else {
      ops.push_back({'+', i, j++});
    }
  }
  return ops;
}

std::string Range(std::size_t start, std::size_t count) {
  // Unified diff ranges are 1-based; an empty range names the line before.
  return std::to_string(count == 0 ? start : start + 1) + (count == 1 ? "" : "," + std::to_string(count));
}

}  // namespace

std::string UnifiedDiff(const std::string& path, const std::string& before, const std::string& after) {
  if (before == after) return "";
  const std::vector<std::string> a = Lines(before);
  const std::vector<std::string> b = Lines(after);
  const std::vector<Op> ops = Script(a, b);
  std::string out = "--- " + path + "\n+++ " + path + "\n";
  std::size_t k = 0;
  while (k < ops.size()) {
    if (ops[k].kind == ' ') {
      ++k;
      continue;
    }
    // A hunk: from kContext lines before this change to kContext lines after
    // the last change that is within 2 * kContext of the next.
    const std::size_t first = k >= kContext ? k - kContext : 0;
    std::size_t last = k;
    for (std::size_t m = k; m < ops.size(); ++m) {
      if (ops[m].kind != ' ') last = m;
      if (m - last > 2 * kContext) break;
    }
    const std::size_t end = std::min(ops.size(), last + kContext + 1);
    std::size_t a_count = 0;
    std::size_t b_count = 0;
    for (std::size_t m = first; m < end; ++m) {
      a_count += ops[m].kind != '+';
      b_count += ops[m].kind != '-';
    }
    out += "@@ -" + Range(ops[first].a, a_count) + " +" + Range(ops[first].b, b_count) + " @@\n";
    for (std::size_t m = first; m < end; ++m) {
      const std::string& line = ops[m].kind == '+' ? b[ops[m].b] : a[ops[m].a];
      out += ops[m].kind;
      out += line;
      out += '\n';
    }
    k = end;
  }
  return out;
}

}  // namespace causegate::install
