// What a text must contain for a pattern to match it: a formula over
// literal strings ("atoms"), read from the pattern's syntax, so that a
// one-shot caller compiles only the rules a text can need (rules/rule_set.h).
// It is a necessary condition, never a sufficient one: a pattern whose
// formula is false for a text cannot match that text; one whose formula is
// true may or may not. What the reader does not follow ends in "no
// requirement", so an unusual pattern costs a compile, never a verdict.
// Tests: tests/unit/rules/required_literals_test.cc.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace causegate::rules {

// Patterns' requirements, added one by one and tested against texts
// together, so an atom several patterns share is looked for once per text.
// Immutable after the last Add; Candidates is then thread-safe.
class LiteralFilter {
 public:
  // Reads pattern (RE2 syntax, matched case-insensitively or not: atoms are
  // compared in lower case either way) and keeps its requirement as the
  // next index (0, 1, ...). Never fails: what it cannot read requires
  // nothing.
  void Add(std::string_view pattern);

  // Indices of the added patterns whose requirement text meets, ascending.
  // A pattern left out cannot match text.
  void Candidates(std::string_view text, std::vector<int>* out) const;

  // The requirement of pattern i as text, for tests and `explain`:
  // "*" (nothing), "because", "(due AND to)", "(cause OR reason)".
  std::string Describe(int i) const;

  std::size_t size() const { return roots_.size(); }

  // A formula node: an atom, or AND / OR of nodes; index kAll requires
  // nothing.
  struct Node {
    enum class Op { kAtom, kAnd, kOr };
    Op op = Op::kAtom;
    int atom = -1;          // kAtom: index into atoms_
    std::vector<int> subs;  // kAnd, kOr: node indices
  };
  static constexpr int kAll = -1;

 private:
  friend class FormulaBuilder;
  bool Holds(int node, std::string_view lowered, std::vector<signed char>* seen) const;
  std::string DescribeNode(int node) const;

  std::vector<std::string> atoms_;  // lower case, distinct
  std::unordered_map<std::string, int> atom_nodes_;  // atom -> its node
  std::vector<Node> nodes_;
  std::vector<int> roots_;  // per pattern: node index or kAll
};

// text in the form atoms are compared in: ASCII letters in lower case, and
// the two letters outside ASCII that RE2's case folding equates with ASCII
// ones (U+212A KELVIN SIGN as "k", U+017F LONG S as "s"). Other bytes kept.
std::string LowerForLiterals(std::string_view text);

}  // namespace causegate::rules
