// Reading a pattern's required literals, after RE2's own prefilter
// (re2/prefilter.cc), which RE2 builds only from a compiled RE2 and so
// costs more than compiling the rule it would spare. This reader walks the
// pattern's text instead: each piece is either "exact" (it matches one of a
// few known strings: a literal, a small alternation, an empty-width
// assertion) or a formula of atoms its matches must contain. Concatenating
// exact pieces multiplies their strings while few; anything else joins
// formulas with AND, alternation with OR, and a piece that may match
// nothing (x*, x?, x{0,n}) or any character (classes, \w, .) requires
// nothing. Atoms are kept in lower case and text is lowered the same way,
// which keeps the condition necessary under case-insensitive matching and
// under (?-i:...) alike. Letters outside ASCII that have case are not
// atoms (their case folding is RE2's, not ours): they require nothing.
// Syntax the reader does not follow makes the whole pattern require
// nothing. Tests: tests/unit/rules/required_literals_test.cc.
#include "rules/required_literals.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iterator>

namespace causegate::rules {

// Builds one pattern's formula into a LiteralFilter's tables.
class FormulaBuilder {
 public:
  FormulaBuilder(LiteralFilter* filter, std::string_view pattern) : f_(*filter), p_(pattern) {}

  // The root node of the pattern's requirement, or kAll.
  int Build() {
    Info top = ParseAlternation(0);
    if (failed_ || pos_ != p_.size()) return LiteralFilter::kAll;
    return ToMatch(top);
  }

 private:
  using Node = LiteralFilter::Node;
  static constexpr int kAll = LiteralFilter::kAll;
  // Past these, exact strings become a formula: the sets stay small and a
  // long alternation is an OR of atoms anyway.
  static constexpr std::size_t kMaxCross = 16;
  static constexpr std::size_t kMaxExact = 64;
  // Group nesting read at most; deeper patterns require nothing.
  static constexpr int kMaxDepth = 32;

  struct Info {
    bool exact = false;
    std::vector<std::string> strings;  // exact: the piece matches one of these
    int match = kAll;                  // not exact: what its matches contain
  };
  static Info Exact(std::string s) { return Info{true, {std::move(s)}, kAll}; }
  static Info Any() { return Info{}; }
  static Info Matching(int node) { return Info{false, {}, node}; }

  int Join(Node::Op op, const std::vector<int>& parts) {
    std::vector<int> subs;
    for (const int part : parts) {
      if (part == kAll) {
        if (op == Node::Op::kOr) return kAll;  // one side requires nothing
        continue;
      }
      const Node& n = f_.nodes_[static_cast<std::size_t>(part)];
      if (n.op == op) {
        subs.insert(subs.end(), n.subs.begin(), n.subs.end());
      } else {
        subs.push_back(part);
      }
    }
    std::sort(subs.begin(), subs.end());
    subs.erase(std::unique(subs.begin(), subs.end()), subs.end());
    if (subs.empty()) return kAll;
    if (subs.size() == 1) return subs[0];
    Node n;
    n.op = op;
    n.subs = std::move(subs);
    f_.nodes_.push_back(std::move(n));
    return static_cast<int>(f_.nodes_.size()) - 1;
  }

  // An exact piece as a formula: text holds one of its strings. A string
  // that contains another of the set adds nothing to the OR.
  int ToMatch(const Info& info) {
    if (!info.exact) return info.match;
    std::vector<int> atoms;
    for (const std::string& s : info.strings) {
      if (s.empty()) return kAll;
      const bool implied = std::any_of(info.strings.begin(), info.strings.end(), [&](const std::string& other) {
        return other.size() < s.size() && s.find(other) != std::string::npos;
      });
      if (!implied) atoms.push_back(f_.AtomNode(s));
    }
    return Join(Node::Op::kOr, atoms);
  }

  static void Dedupe(std::vector<std::string>* strings) {
    std::sort(strings->begin(), strings->end());
    strings->erase(std::unique(strings->begin(), strings->end()), strings->end());
  }

  // Exact strings are kept sorted and distinct (every exact Info is made
  // by Exact, Concat or Alternate), so a union is a merge, not a sort, and
  // one string followed by a sorted list stays sorted: the common cases
  // (a literal word, a word list) cost no sort and no copy. The strings
  // are those a sort of every product would give.

  // REQUIRES: both exact, at most kMaxCross strings together.
  static Info Concat(Info a, const Info& b) {
    if (a.strings.size() == 1) {
      if (b.strings.size() == 1) {
        a.strings[0] += b.strings[0];
        return a;
      }
      Info out{true, {}, kAll};
      out.strings.reserve(b.strings.size());
      for (const std::string& y : b.strings) out.strings.push_back(a.strings[0] + y);
      return out;
    }
    Info out{true, {}, kAll};
    for (const std::string& x : a.strings) {
      for (const std::string& y : b.strings) out.strings.push_back(x + y);
    }
    Dedupe(&out.strings);
    return out;
  }

  Info Alternate(Info a, const Info& b) {
    if (a.exact && b.exact && a.strings.size() + b.strings.size() <= kMaxExact) {
      std::vector<std::string> both;
      both.reserve(a.strings.size() + b.strings.size());
      std::set_union(std::make_move_iterator(a.strings.begin()), std::make_move_iterator(a.strings.end()),
                     b.strings.begin(), b.strings.end(), std::back_inserter(both));
      a.strings = std::move(both);
      return a;
    }
    return Matching(Join(Node::Op::kOr, {ToMatch(a), ToMatch(b)}));
  }

  // x? : x or nothing.
  Info Optional(Info x) { return Alternate(std::move(x), Exact("")); }

  // A character ParseItem reads as itself (its default case).
  static bool IsPlainAscii(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u != 0 && u < 0x80 && std::string_view("()[].^$\\*+?{|").find(c) == std::string_view::npos;
  }
  static bool IsQuantifier(char c) { return c == '*' || c == '+' || c == '?' || c == '{'; }

  bool AtEnd() const { return pos_ >= p_.size(); }
  char Peek(std::size_t ahead = 0) const { return pos_ + ahead < p_.size() ? p_[pos_ + ahead] : '\0'; }
  Info Fail() {
    failed_ = true;
    return Any();
  }

  // Branches are joined as Alternate joins two, but once the alternation
  // is no longer exact its branches are gathered and joined into one OR at
  // the end: joining them one by one copied the growing OR at every branch
  // (a long word list cost its length squared).
  Info ParseAlternation(int depth) {
    Info acc = ParseConcatenation(depth);
    std::vector<int> branches;  // acc not exact: the OR's parts so far
    while (!failed_ && Peek() == '|' && !AtEnd()) {
      ++pos_;
      Info next = ParseConcatenation(depth);
      if (!branches.empty()) {
        branches.push_back(ToMatch(next));
        continue;
      }
      acc = Alternate(std::move(acc), next);
      if (!acc.exact) branches.push_back(acc.match);
    }
    if (branches.size() > 1) return Matching(Join(Node::Op::kOr, branches));
    return acc;
  }

  // Consecutive exact pieces are multiplied into one run ("caus" "e|ed"
  // gives cause, caused) while few; the rest is an AND of the runs and
  // the pieces that are not exact.
  Info ParseConcatenation(int depth) {
    Info run = Exact("");
    std::vector<int> parts;
    bool exact = true;
    while (!failed_ && !AtEnd() && Peek() != '|' && Peek() != ')') {
      // A plain ASCII character with no quantifier after it, onto a run of
      // one string: what ParseItem and Concat would make of it, without
      // the allocations that were most of reading a pack.
      if (run.strings.size() == 1 && IsPlainAscii(Peek()) && !IsQuantifier(Peek(1))) {
        const char c = Peek();
        run.strings[0] += c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
        ++pos_;
        continue;
      }
      Info item = ParseItem(depth);
      if (failed_) break;
      item = ParseQuantifiers(std::move(item));
      if (item.exact && run.strings.size() * item.strings.size() <= kMaxCross) {
        run = Concat(std::move(run), item);
        continue;
      }
      exact = false;
      parts.push_back(ToMatch(run));
      if (item.exact) {
        run = std::move(item);
      } else {
        parts.push_back(item.match);
        run = Exact("");
      }
    }
    if (exact) return run;
    parts.push_back(ToMatch(run));
    return Matching(Join(Node::Op::kAnd, parts));
  }

  // {n}, {n,} or {n,m} at pos_: true and the counts (m = -1 for none), with
  // pos_ past it; false (pos_ unchanged) when '{' starts no repeat, which
  // RE2 then reads as a literal brace.
  bool ParseRepeat(int* min, int* max) {
    std::size_t at = pos_ + 1;
    auto number = [&](int* out) {
      const std::size_t start = at;
      long value = 0;
      while (at < p_.size() && p_[at] >= '0' && p_[at] <= '9' && value < 100000) value = value * 10 + (p_[at++] - '0');
      *out = static_cast<int>(value);
      return at > start;
    };
    if (!number(min)) return false;
    *max = *min;
    if (at < p_.size() && p_[at] == ',') {
      ++at;
      if (!number(max)) *max = -1;
    }
    if (at >= p_.size() || p_[at] != '}') return false;
    pos_ = at + 1;
    return true;
  }

  Info ParseQuantifiers(Info item) {
    while (!AtEnd()) {
      const char c = Peek();
      if (c == '*') {
        ++pos_;
        item = Any();
      } else if (c == '+') {
        ++pos_;
        item = Matching(ToMatch(item));
      } else if (c == '?') {
        ++pos_;
        item = Optional(std::move(item));
      } else if (c == '{') {
        int min = 0;
        int max = 0;
        if (!ParseRepeat(&min, &max)) break;
        if (min == 0) {
          item = max == 1 ? Optional(std::move(item)) : Any();
        } else if (!(min == 1 && max == 1)) {
          item = Matching(ToMatch(item));
        }
      } else {
        break;
      }
      if (Peek() == '?') ++pos_;  // non-greedy: matches the same strings
    }
    return item;
  }

  // One rune as a literal: lower-case ASCII, or a character of a script
  // without case (CJK, kana, their punctuation and full-width signs,
  // general punctuation). Other letters require nothing.
  static Info Rune(uint32_t rune, std::string_view bytes) {
    if (rune < 0x80) {
      const char c = static_cast<char>(rune);
      return Exact(std::string(1, c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c));
    }
    const bool caseless = (rune >= 0x2000 && rune <= 0x206F) || (rune >= 0x2E80 && rune <= 0x312F) ||
                          (rune >= 0x3400 && rune <= 0x4DBF) || (rune >= 0x4E00 && rune <= 0x9FFF) ||
                          (rune >= 0xF900 && rune <= 0xFAFF) || (rune >= 0xFF01 && rune <= 0xFF20) ||
                          (rune >= 0xFF3B && rune <= 0xFF40) || (rune >= 0xFF5B && rune <= 0xFF65);
    return caseless ? Exact(std::string(bytes)) : Any();
  }

  static std::string Utf8(uint32_t rune) {
    std::string out;
    if (rune < 0x80) {
      out += static_cast<char>(rune);
    } else if (rune < 0x800) {
      out += static_cast<char>(0xC0 | (rune >> 6));
      out += static_cast<char>(0x80 | (rune & 0x3F));
    } else if (rune < 0x10000) {
      out += static_cast<char>(0xE0 | (rune >> 12));
      out += static_cast<char>(0x80 | ((rune >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (rune & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (rune >> 18));
      out += static_cast<char>(0x80 | ((rune >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((rune >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (rune & 0x3F));
    }
    return out;
  }

  Info ParseLiteralRune() {
    const auto lead = static_cast<unsigned char>(Peek());
    std::size_t length = 1;
    uint32_t rune = lead;
    if (lead >= 0xF0 && lead <= 0xF7) {
      length = 4;
      rune = lead & 0x07;
    } else if (lead >= 0xE0) {
      length = 3;
      rune = lead & 0x0F;
    } else if (lead >= 0xC0) {
      length = 2;
      rune = lead & 0x1F;
    } else if (lead >= 0x80) {
      return Fail();  // a continuation byte: not UTF-8
    }
    if (pos_ + length > p_.size()) return Fail();
    for (std::size_t i = 1; i < length; ++i) {
      const auto b = static_cast<unsigned char>(p_[pos_ + i]);
      if ((b & 0xC0) != 0x80) return Fail();
      rune = (rune << 6) | (b & 0x3F);
    }
    const std::string_view bytes = p_.substr(pos_, length);
    pos_ += length;
    return Rune(rune, bytes);
  }

  // \xHH or \x{H...}, pos_ at the 'x'.
  Info ParseHexEscape() {
    ++pos_;
    const bool braced = Peek() == '{';
    if (braced) ++pos_;
    uint32_t rune = 0;
    std::size_t digits = 0;
    while (!AtEnd() && (braced || digits < 2) && std::isxdigit(static_cast<unsigned char>(Peek())) && digits < 8) {
      const char c = Peek();
      rune = rune * 16 + static_cast<uint32_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
      ++digits;
      ++pos_;
    }
    if (digits == 0 || (!braced && digits != 2) || rune > 0x10FFFF) return Fail();
    if (braced) {
      if (Peek() != '}') return Fail();
      ++pos_;
    }
    return Rune(rune, Utf8(rune));
  }

  Info ParseEscape() {
    ++pos_;  // the backslash
    if (AtEnd()) return Fail();
    const char c = Peek();
    switch (c) {
      case 'b': case 'B': case 'A': case 'z':
        ++pos_;
        return Exact("");  // empty-width
      case 'd': case 'D': case 's': case 'S': case 'w': case 'W': case 'C':
        ++pos_;
        return Any();
      case 'p': case 'P':
        ++pos_;
        if (Peek() == '{') {
          const std::size_t close = p_.find('}', pos_);
          if (close == std::string_view::npos) return Fail();
          pos_ = close + 1;
        } else {
          ++pos_;
        }
        return Any();
      case 'n': ++pos_; return Exact("\n");
      case 't': ++pos_; return Exact("\t");
      case 'r': ++pos_; return Exact("\r");
      case 'f': ++pos_; return Exact("\f");
      case 'v': ++pos_; return Exact("\v");
      case 'x':
        return ParseHexEscape();
      default:
        break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x80 || std::isalnum(u)) return Fail();  // \Q, octal, and what RE2 refuses
    ++pos_;
    return Exact(std::string(1, c));  // escaped punctuation
  }

  // Past a character class: it matches one character we do not list.
  Info SkipClass() {
    ++pos_;  // '['
    if (Peek() == '^') ++pos_;
    if (Peek() == ']') ++pos_;  // a leading ']' is a literal
    while (!AtEnd()) {
      const char c = Peek();
      if (c == ']') {
        ++pos_;
        return Any();
      }
      if (c == '\\') {
        pos_ += 2;
        if (pos_ <= p_.size() && (p_[pos_ - 1] == 'p' || p_[pos_ - 1] == 'P' || p_[pos_ - 1] == 'x') && Peek() == '{') {
          const std::size_t close = p_.find('}', pos_);
          if (close == std::string_view::npos) return Fail();
          pos_ = close + 1;
        }
      } else if (c == '[' && Peek(1) == ':') {
        const std::size_t close = p_.find(":]", pos_ + 2);
        if (close == std::string_view::npos) return Fail();
        pos_ = close + 2;
      } else {
        ++pos_;
      }
    }
    return Fail();  // no closing ']'
  }

  Info ParseGroup(int depth) {
    if (depth >= kMaxDepth) return Fail();
    ++pos_;  // '('
    if (Peek() == '?') {
      ++pos_;
      if (Peek() == 'P' || Peek() == '<') {  // (?P<name>...) or (?<name>...)
        const std::size_t close = p_.find('>', pos_);
        if (close == std::string_view::npos) return Fail();
        pos_ = close + 1;
      } else {
        // Flags: (?i-s:...) or (?i) for the rest of the group. Case does
        // not change what atoms mean, nor do s, m or U.
        while (!AtEnd() && std::string_view("imsU-").find(Peek()) != std::string_view::npos) ++pos_;
        if (Peek() == ')') {
          ++pos_;
          return Exact("");
        }
        if (Peek() != ':') return Fail();
        ++pos_;
      }
    }
    Info inner = ParseAlternation(depth + 1);
    if (failed_ || Peek() != ')' || AtEnd()) return Fail();
    ++pos_;
    return inner;
  }

  Info ParseItem(int depth) {
    switch (Peek()) {
      case '(': return ParseGroup(depth);
      case '[': return SkipClass();
      case '.': ++pos_; return Any();
      case '^': case '$': ++pos_; return Exact("");
      case '\\': return ParseEscape();
      case '*': case '+': case '?': return Fail();  // a repeat of nothing
      case '{': {
        int min = 0;
        int max = 0;
        const std::size_t at = pos_;
        if (ParseRepeat(&min, &max)) return Fail();
        pos_ = at;
        return ParseLiteralRune();  // RE2 reads a brace that starts no repeat as itself
      }
      default: return ParseLiteralRune();
    }
  }

  LiteralFilter& f_;
  std::string_view p_;
  std::size_t pos_ = 0;
  bool failed_ = false;
};

namespace {

// One bit per value of a byte's low six bits: a cheap superset test of
// "every byte of the atom occurs in the text".
std::uint64_t ByteMask(std::string_view s) {
  std::uint64_t mask = 0;
  for (const char c : s) mask |= std::uint64_t{1} << (static_cast<unsigned char>(c) & 63U);
  return mask;
}

}  // namespace

int LiteralFilter::AtomNode(std::string_view atom) {
  auto it = atom_nodes_.find(atom);
  if (it != atom_nodes_.end()) return it->second;
  atoms_.emplace_back(atom);
  atom_bytes_.push_back(ByteMask(atom));
  Node n;
  n.atom = static_cast<int>(atoms_.size()) - 1;
  nodes_.push_back(std::move(n));
  const int index = static_cast<int>(nodes_.size()) - 1;
  atom_nodes_.emplace(atoms_.back(), index);
  return index;
}

void LiteralFilter::Add(std::string_view pattern) {
  roots_.push_back(FormulaBuilder(this, pattern).Build());
}

std::string LowerForLiterals(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= 'A' && c <= 'Z') {
      out += static_cast<char>(c - 'A' + 'a');
    } else if (c == '\xE2' && text.substr(i, 3) == "\xE2\x84\xAA") {  // U+212A KELVIN SIGN
      out += 'k';
      i += 2;
    } else if (c == '\xC5' && text.substr(i, 2) == "\xC5\xBF") {  // U+017F LATIN SMALL LETTER LONG S
      out += 's';
      i += 1;
    } else {
      out += c;
    }
  }
  return out;
}

bool LiteralFilter::Holds(int node, const Text& text, std::vector<signed char>* seen) const {
  if (node == kAll) return true;
  const Node& n = nodes_[static_cast<std::size_t>(node)];
  switch (n.op) {
    case Node::Op::kAtom: {
      const auto atom = static_cast<std::size_t>(n.atom);
      signed char& known = (*seen)[atom];
      if (known < 0) {
        known = (atom_bytes_[atom] & ~text.bytes) == 0 && text.lowered.find(atoms_[atom]) != std::string_view::npos;
      }
      return known == 1;
    }
    case Node::Op::kAnd:
      return std::all_of(n.subs.begin(), n.subs.end(), [&](int sub) { return Holds(sub, text, seen); });
    case Node::Op::kOr:
      return std::any_of(n.subs.begin(), n.subs.end(), [&](int sub) { return Holds(sub, text, seen); });
  }
  return true;
}

void LiteralFilter::Candidates(std::string_view text, std::vector<int>* out) const {
  out->clear();
  const std::string lowered = LowerForLiterals(text);
  const Text read{lowered, ByteMask(lowered)};
  std::vector<signed char> seen(atoms_.size(), -1);
  for (std::size_t i = 0; i < roots_.size(); ++i) {
    if (Holds(roots_[i], read, &seen)) out->push_back(static_cast<int>(i));
  }
}

std::string LiteralFilter::DescribeNode(int node) const {
  if (node == kAll) return "*";
  const Node& n = nodes_[static_cast<std::size_t>(node)];
  if (n.op == Node::Op::kAtom) return atoms_[static_cast<std::size_t>(n.atom)];
  std::string out = "(";
  for (std::size_t i = 0; i < n.subs.size(); ++i) {
    if (i > 0) out += n.op == Node::Op::kAnd ? " AND " : " OR ";
    out += DescribeNode(n.subs[i]);
  }
  return out + ")";
}

std::string LiteralFilter::Describe(int i) const { return DescribeNode(roots_[static_cast<std::size_t>(i)]); }

}  // namespace causegate::rules
