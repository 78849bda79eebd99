// What a text must contain for a pattern to match it: a formula over
// literal strings ("atoms"), read from the pattern's syntax, so that a
// one-shot caller compiles only the rules a text can need (rules/rule_set.h).
// It is a necessary condition, never a sufficient one: a pattern whose
// formula is false for a text cannot match that text; one whose formula is
// true may or may not. What the reader does not follow ends in "no
// requirement", so an unusual pattern costs a compile, never a verdict.
// The built-in packs' requirements are read when causegate is built and
// replayed at run time (Formula, AddFormula; rules/literal_table.h).
// Tests: tests/unit/rules/required_literals_test.cc, literal_formula_test.cc.
#pragma once

#include <cstdint>
#include <functional>
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

  // pattern's requirement as Add reads it, written down so that AddFormula
  // can add it later without reading the pattern (the build does this for
  // the built-in packs: rules/literal_table.h). It lists every atom Add
  // makes and every node the requirement uses, in the order Add makes
  // them, each once:
  //
  //   formula := "*" | event* "=" root    "*": no atom, requires nothing
  //   event   := length ":" bytes         an atom: length bytes, any byte
  //            | ("&" | "|") ordinal ("," ordinal)+ ";"    AND / OR
  //   root    := ordinal | "*"            "*": requires nothing
  //
  // An ordinal (decimal) names an earlier event, the first being 0; a
  // node's are ascending. "because" gives "7:because=0", and
  // "(?:due|owing)\s+to" gives "3:due5:owing|0,1;2:to&2,3;=4". The order
  // matters because Add's nodes list their parts in the order they were
  // made, and so does Describe; atoms the requirement does not use are
  // listed because they decide where a later pattern's atoms sort.
  static std::string Formula(std::string_view pattern);

  // Adds a requirement written by Formula as the next index: the same
  // Describe and Candidates as Add of its pattern, here and for every
  // pattern added after it, and atoms shared with the other patterns as
  // Add shares them. A formula that does not parse requires nothing.
  void AddFormula(std::string_view formula);

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
  // The node of atom, made on first use.
  int AtomNode(std::string_view atom);
  // A text as Candidates reads it: lowered, and which byte classes it holds.
  struct Text {
    std::string_view lowered;
    std::uint64_t bytes = 0;  // ByteMask(lowered)
  };
  bool Holds(int node, const Text& text, std::vector<signed char>* seen) const;
  std::string DescribeNode(int node) const;

  std::vector<std::string> atoms_;  // lower case, distinct
  // Per atom, ByteMask(atom): an atom with a byte class the text lacks is
  // not in it, known without searching (most atoms, for a short sentence).
  std::vector<std::uint64_t> atom_bytes_;
  // Looked up by string_view: a replayed formula's atoms point into the
  // binary's constant data and are copied only when new.
  struct AtomHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, int, AtomHash, std::equal_to<>> atom_nodes_;  // atom -> its node
  std::vector<Node> nodes_;
  std::vector<int> roots_;  // per pattern: node index or kAll
};

// text in the form atoms are compared in: ASCII letters in lower case, and
// the two letters outside ASCII that RE2's case folding equates with ASCII
// ones (U+212A KELVIN SIGN as "k", U+017F LONG S as "s"). Other bytes kept.
std::string LowerForLiterals(std::string_view text);

}  // namespace causegate::rules
